package task

import (
	"context"
	"errors"
	"fmt"
	"runtime"
)

// ErrGoexit is the error recorded for a function that called
// [runtime.Goexit]. Siblings canceled because of it see it as the cause of
// their context's cancellation, and it appears in a joined error next to a
// panic; on its own, a Goexit is passed on by calling runtime.Goexit.
var ErrGoexit = errors.New("task: function called runtime.Goexit")

// A PanicError is a panic recovered from the function of a task, with the
// stack of the goroutine that panicked, taken where it panicked.
type PanicError struct {
	// Value is the value passed to panic. For panic(nil) it is a
	// *runtime.PanicNilError, or nil when GODEBUG=panicnil=1.
	Value any
	// Stack is the stack of the panicking goroutine, taken during the
	// panic, in the format of [runtime/debug.Stack].
	Stack []byte
}

// Error returns the panic value followed by the original stack.
func (p *PanicError) Error() string {
	return "task: panic: " + fmt.Sprint(p.Value) + "\n\ngoroutine stack at the panic:\n" + string(p.Stack)
}

// Unwrap returns Value when it is an error, so [errors.Is] and [errors.As]
// reach an error passed to panic.
func (p *PanicError) Unwrap() error {
	err, _ := p.Value.(error)
	return err
}

// A PositionError is one failure in the error returned by a call over
// several tasks or functions: Index is the position of the argument that
// failed, counting from 0 (Index 0 is f1 or t1), and Err is its error, a
// *[PanicError] for a panic, or [ErrGoexit].
//
// The error of such a call is an [errors.Join] of one PositionError per
// failed position, in argument order; to visit them all, range over its
// Unwrap() []error method, or use [errors.As] for the first.
type PositionError struct {
	Index int
	Err   error
}

// Error returns the message of Err unchanged.
func (e *PositionError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *PositionError) Unwrap() error { return e.Err }

// outcome is how one function or task ended.
type outcome struct {
	err     error
	state   uint32
	induced bool // a cancellation that the call itself or its ctx caused; not reported alone
}

// failures collects outcomes in argument order and joins them.
type failures struct {
	errs     []error
	panicked bool
	exited   bool
	induced  bool
}

func (f *failures) add(i int, o outcome) {
	switch {
	case o.state == succeeded, o.state == pending: // pending: never started (Map after a failure)
		return
	case o.induced:
		f.induced = true
		return
	case o.state == panicked:
		f.panicked = true
	case o.state == exited:
		f.exited = true
	}
	f.errs = append(f.errs, &PositionError{Index: i, Err: o.err})
}

// addTask adds the outcome of a completed task. A panic added here is
// always raised by result, so it counts as passed on.
func (f *failures) addTask(i int, c *core) {
	o := c.outcome()
	if o.state == panicked {
		c.observe()
	}
	f.add(i, o)
}

// result joins the failures and raises a panic or Goexit among them.
func (f *failures) result(ctx context.Context) error {
	err := f.err(ctx)
	f.raise(err)
	return err
}

// err returns the joined error, or nil when nothing failed. When a
// cancellation was filtered out and ctx is done, the context's error is
// added after every real error.
func (f *failures) err(ctx context.Context) error {
	if f.induced && (ctx.Err() != nil || len(f.errs) == 0) {
		f.errs = append(f.errs, contextError(ctx))
	}
	if len(f.errs) == 0 {
		return nil
	}
	return errors.Join(f.errs...)
}

// raise passes a panic or a Goexit on to the caller: a panic outranks a
// Goexit, and its value is the whole joined error, so no failure is lost.
func (f *failures) raise(err error) {
	if f.panicked {
		panic(err)
	}
	if f.exited {
		runtime.Goexit()
	}
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

// isCancellation reports whether err says a function gave up because its
// context was canceled: a context error, or the cause of the cancellation.
func isCancellation(err, cause error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) ||
		(cause != nil && errors.Is(err, cause))
}

// causeError is a context's error with its cause: errors.Is reaches both.
// (fmt.Errorf("%w: %w") would do, at the price of linking Errorf.)
type causeError struct{ err, cause error }

func (e *causeError) Error() string   { return e.err.Error() + ": " + e.cause.Error() }
func (e *causeError) Unwrap() []error { return []error{e.err, e.cause} }
