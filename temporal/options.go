package wtask

import "github.com/tasktuple/task"

// Option is the core's [task.Option]: the same values work with both
// packages.
type Option = task.Option

const (
	// KeepGoing: RunN and [Map] do not cancel the other functions when one
	// fails; each function gets the caller's ctx itself, and every error is
	// reported. It has no effect on AwaitN and [All], which cancel nothing.
	KeepGoing = task.KeepGoing

	// Settled: the values that were produced are returned along with the
	// error, instead of zero values.
	Settled = task.Settled
)

// options folds a list of options into one set.
func options(opts []Option) Option {
	var o Option
	for _, x := range opts {
		o |= x
	}
	return o
}
