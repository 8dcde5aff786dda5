package task

import "strconv"

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

// String returns the option's name, or the names of a set of options
// joined with "|", as in "KeepGoing|Settled". Bits that name no option
// print as a number: "Option(0x80)".
func (o Option) String() string {
	if o == 0 {
		return "Option(0)"
	}
	var s string
	for _, x := range [...]struct {
		o    Option
		name string
	}{{KeepGoing, "KeepGoing"}, {Settled, "Settled"}} {
		if o&x.o != 0 {
			if s != "" {
				s += "|"
			}
			s += x.name
			o &^= x.o
		}
	}
	if o != 0 {
		if s != "" {
			s += "|"
		}
		s += "Option(0x" + strconv.FormatUint(uint64(o), 16) + ")"
	}
	return s
}

// options folds a list of options into one set.
func options(opts []Option) Option {
	var o Option
	for _, x := range opts {
		o |= x
	}
	return o
}
