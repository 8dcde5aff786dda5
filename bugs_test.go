package task

// Library bugs that the fault model meets: the library contradicts a
// sentence of its documentation. Each has a minimal reproduction, skipped
// until it is fixed (then remove the skip, the constant and what the model
// does for it: simState.asBugs, simulate's lib); the fault matrix counts
// the cases that meet one, and the fuzzer skips them. The bugs it met and
// that were fixed have their reproductions in faultfound_test.go.

const (
	// The package documentation, "Shutting down": inputs and children
	// never started are counted in CallError.NotStarted, and errors.Is(err,
	// context.Canceled) and the cause hold; CallError.NotStarted: only "the
	// inputs a failure left" are not counted; and "Without Grace, the end
	// of the caller's ctx also stops the taking of new work". When a
	// failure comes after the stop, the work the stop left is taken as the
	// failure's: ForEachSeq does not say that ctx ended it (with Grace or
	// not). See TestStopThenFailure.
	bugStopThenFailure = "a failure after a stop takes the work the stop left"
)
