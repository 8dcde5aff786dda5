package task

// An Option changes how an AwaitN or RunN call behaves: the counterpart of
// .NET's ConfigureAwait. Options are passed last, as in
//
//	task.Run2(ctx, f1, f2, task.KeepGoing, task.Settled)
//
// They are small integers in a variadic slice that does not escape, so
// passing them costs no allocation. With no options, RunN fails fast and
// every call returns zero values with a non-nil error.
type Option uint8

const (
	// KeepGoing: RunN does not cancel the other functions when one fails;
	// each function gets the caller's ctx itself, and every error is
	// reported. It has no effect on AwaitN, which never cancels anything.
	KeepGoing Option = 1 << iota

	// Settled: AwaitN and RunN return every value that was produced along
	// with the error, instead of zero values. A position whose function
	// panicked or called runtime.Goexit, or whose task had not completed
	// when ctx was done, holds the zero value. Panics are still raised.
	Settled
)

// String returns the option's name.
func (o Option) String() string {
	switch o {
	case KeepGoing:
		return "KeepGoing"
	case Settled:
		return "Settled"
	}
	return "Option(invalid)"
}

// options folds a list of options into one set.
func options(opts []Option) Option {
	var o Option
	for _, x := range opts {
		o |= x
	}
	return o
}
