package wtask

import "github.com/tasktuple/task"

// Option is the core's [task.Option]: the same values work with both
// packages.
type Option = task.Option

var (
	// KeepGoing: RunN and [Map] do not cancel the other functions when one
	// fails; each function gets the caller's ctx itself, and every error is
	// reported. AwaitN and [All], which cancel nothing, panic on it.
	KeepGoing = task.KeepGoing

	// Settled: the values that were produced are returned along with the
	// error, instead of zero values.
	Settled = task.Settled
)

// flags are the options of a call folded into one word.
type flags uint8

const (
	keepGoing flags = 1 << iota
	settled
)

// options folds a list of options into one set. The core's other options
// mean nothing in a workflow: they panic.
func options(opts []Option) flags {
	var o flags
	for _, x := range opts {
		switch x {
		case KeepGoing:
			o |= keepGoing
		case Settled:
			o |= settled
		case Option{}:
		default:
			panic("wtask: only KeepGoing and Settled apply in a workflow")
		}
	}
	return o
}
