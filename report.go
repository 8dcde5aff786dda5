package task

import (
	"context"
	"runtime"
	"slices"

	"github.com/tasktuple/task/internal/probe"
)

// A report folds the outcomes of a call into its error, in argument order
// whatever order they are added in, and ranks its panics: the one place
// that does, for RunN, Map, MapSeq, Scope, the racing calls and the awaits.
type report struct {
	e      CallError
	arg    string         // how arguments are named: "f", "t" (1-based) or a slice ("tasks")
	panic  *PositionError // the first panic in argument order
	exited bool
	c      *call // the call whose outcomes these are; nil for the awaits
	first  error // with FirstError: the error of the first failure (keepFirst)
}

func newReport(call, arg string) report {
	return report{e: CallError{Call: call}, arg: arg}
}

// at returns a PositionError for position i, named after the function if
// it was Named.
func (f *report) at(i int, err error) *PositionError {
	name, err := unname(err)
	if name == "" {
		name = argName(f.arg, i)
	}
	return &PositionError{Call: f.e.Call, Index: i, Arg: name, Err: err}
}

// argName names position i of a call whose arguments are named by arg:
// the probes name it alike.
func argName(arg string, i int) string { return probe.ArgName(arg, i) }

// add adds the outcome of position i. pe, if not nil, is the PositionError
// already made for it (the cause sent to its siblings).
func (f *report) add(i int, o outcome, pe *PositionError) {
	if o.state == succeeded || o.state == pending { // pending: never started (Map after a failure)
		return
	}
	if pe == nil {
		pe = f.at(i, o.err)
	}
	if o.ownError() {
		f.keepFirst(i, pe.Err)
	}
	switch {
	case o.state == failed && o.stop == stopCall:
		f.e.Canceled = append(f.e.Canceled, pe)
		return
	case o.state == failed && o.stop == stopCtx:
		f.e.Unfinished = append(f.e.Unfinished, pe)
		return
	case o.state == panicked && (f.panic == nil || pe.Index < f.panic.Index):
		// The first in argument order, whatever order outcomes come in.
		f.panic = pe
	case o.state == exited:
		f.exited = true
	}
	f.e.Failures = append(f.e.Failures, pe)
}

// addTask adds the outcome of a completed task. A panic or Goexit added
// here is always raised by result, so it counts as passed on.
func (f *report) addTask(i int, c *core) {
	o := c.outcome()
	if o.state == panicked || o.state == exited {
		c.observe()
	}
	f.add(i, o, nil)
}

// unfinished records that the task at position i had not completed when
// ctx ended the call.
func (f *report) unfinished(i int, name string) {
	pe := f.at(i, nil)
	if name != "" {
		pe.Arg = name
	}
	f.e.Unfinished = append(f.e.Unfinished, pe)
}

// result returns the error and raises a panic or Goexit among the outcomes.
func (f *report) result(ctx context.Context) error {
	err := f.err(ctx)
	f.raise()
	return err
}

// err returns a CallError, or nil when nothing failed and nothing was
// stopped. When ctx stopped positions, the context's error is added. The
// CallError is a copy, so that f stays on its caller's stack when nothing
// failed.
func (f *report) err(ctx context.Context) error {
	switch {
	case len(f.e.Unfinished) > 0 && ctx.Err() == nil:
		// Stopped with ctx not done: a function returned ErrStopped after
		// the call stopped taking new work (Group.Stop, or the stop of a
		// call it is nested in).
		f.e.Ctx = ErrStopped
	case len(f.e.Unfinished) > 0:
		f.e.Ctx = contextError(ctx)
	case len(f.e.Canceled) > 0 && len(f.e.Failures) == 0 && ctx.Err() != nil:
		// Stopped by a group's context, which an earlier round's Wait
		// canceled, in a round the caller's ctx then stopped.
		f.e.Ctx = contextError(ctx)
	case len(f.e.Canceled) > 0 && len(f.e.Failures) == 0:
		// Stopped by the call with nothing failed: a child of a later
		// round of NewGroup that returned the error of the group's
		// context, which an earlier round's Wait canceled. A
		// cancellation must never read as success.
		f.e.Ctx = context.Canceled
	}
	if len(f.e.Failures) == 0 && f.e.Ctx == nil {
		return nil
	}
	for _, l := range [...][]*PositionError{f.e.Failures, f.e.Unfinished, f.e.Canceled} {
		byIndex(l) // outcomes may be added in the order they ended
	}
	e := f.e
	return &e
}

// byIndex sorts positions in argument order, the body of a Scope first.
func byIndex(l []*PositionError) {
	cmp := func(a, b *PositionError) int { return a.Index - b.Index }
	if !slices.IsSortedFunc(l, cmp) {
		slices.SortStableFunc(l, cmp)
	}
}

// raise passes a panic or a Goexit on to the caller. A panic outranks a
// Goexit: the first panic in argument order is raised as a *PanicError that
// holds everything else.
func (f *report) raise() {
	if f.panic != nil {
		panic(f.panicError())
	}
	if f.exited {
		runtime.Goexit()
	}
}

// notStarted adds to err, nil or a *CallError, that n inputs or children
// never started, at the positions at (if known): because the call stopped
// taking new work (byStop), then with the caller's ctx's error if it is
// done; or because a failure canceled the call.
func (c *call) notStarted(err error, n int, at span, byStop bool) error {
	ce, _ := err.(*CallError)
	if ce == nil {
		ce = &CallError{Call: c.report().e.Call}
	}
	if at.to > at.from {
		ce.left = append(ce.left, at)
	}
	ce.NotStarted += n
	if !byStop {
		return ce
	}
	ce.stopped = true
	if ce.Ctx == nil && c.parent.Err() != nil {
		ce.Ctx = contextError(c.parent)
	}
	return ce
}

// raiseOverGoexit raises the first panic, if any, for a caller whose
// goroutine is unwinding from a runtime.Goexit of the last function of
// RunN or of a Scope's body: a panic outranks a Goexit (and a deferred
// function may have panicked while the Goexit unwound). Without a panic,
// it returns and the Goexit goes on.
func (f *report) raiseOverGoexit() {
	if f.panic != nil {
		panic(f.panicError())
	}
}

// causeAt returns the cause the call sent its functions, if it is the
// failure of position i: the report reuses that *PositionError, as a
// sibling's error may wrap it. A stream asks while its functions run: the
// flag, set after first is written, orders the read after the write.
func (c *call) causeAt(i int) *PositionError {
	if !c.hasFailed() {
		return nil
	}
	if pe, ok := c.first().(*PositionError); ok && pe.Index == i {
		return pe
	}
	return nil
}

// panicError is the first panic, located and holding the rest of the call.
func (f *report) panicError() *PanicError {
	pe := *f.panic.Err.(*PanicError)
	pe.Call, pe.Index, pe.Arg = f.panic.Call, f.panic.Index, f.panic.Arg
	rest := f.e
	rest.Failures = nil
	for _, x := range f.e.Failures {
		if x != f.panic {
			rest.Failures = append(rest.Failures, x)
		}
	}
	if len(rest.Failures)+len(rest.Unfinished)+len(rest.Canceled)+rest.NotStarted > 0 || rest.Ctx != nil {
		pe.Others = &rest
	}
	return &pe
}

// contextError is ctx's error, joined with its cause when the cause differs,
// so that errors.Is(err, context.Canceled) and the cause both hold.
func contextError(ctx context.Context) error {
	err := ctx.Err()
	if err == nil {
		// Only reached when a cancellation was induced by a call whose ctx
		// is fine, which the callers rule out; never report success.
		return context.Canceled
	}
	if cause := context.Cause(ctx); cause != nil && cause != err {
		return &causeError{err: err, cause: cause}
	}
	return err
}

// causeError is a context's error with its cause: errors.Is reaches both.
// (fmt.Errorf("%w: %w") would do, at the price of linking Errorf.)
type causeError struct{ err, cause error }

func (e *causeError) Error() string   { return e.err.Error() + ": " + e.cause.Error() }
func (e *causeError) Unwrap() []error { return []error{e.err, e.cause} }
