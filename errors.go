package task

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"

	"github.com/tasktuple/task/internal/probe"
)

// ErrGoexit is the error recorded for a function that called
// [runtime.Goexit]. Siblings canceled because of it see it (in a
// *[PositionError]) as the cause of their context's cancellation, and it
// appears in an error next to a panic; on its own, a Goexit is passed on by
// calling runtime.Goexit.
var ErrGoexit = errors.New("task: function called runtime.Goexit")

// A CallError is the error of a call over several functions or tasks
// (AwaitN, RunN, WhenAll, All, AllSeq, Map, FirstOK, RunFirstOK, Hedge): what
// went wrong at each position, and what the call's own cancellations
// stopped. Its message has one line per failure, each naming the call and
// the argument:
//
//	task: Run3: f2: recs: 500 internal error
//	task: Run3: f3: stock: 503 unavailable
//
// [errors.Is] and [errors.As] reach every failure and the context error
// through Unwrap, but not Canceled and Unfinished: those positions did not
// fail, they were stopped.
type CallError struct {
	// Call is the name of the call: "Run3", "Await2", "Map", ...
	Call string

	// Failures holds one *PositionError per position that failed on its
	// own (an error, a panic, a Goexit), in argument order.
	Failures []*PositionError

	// Ctx is set when the caller's ctx ended the call while some positions
	// had not finished: the context's error, joined with its cause
	// ([context.Cause]) when the cause differs. It is nil otherwise.
	Ctx error

	// Unfinished lists, in argument order, the positions that the caller's
	// ctx stopped: a function that returned a cancellation after ctx was
	// done, with what it returned, or a task that had not completed when
	// an await gave up (Err is nil then). Set only when Ctx is.
	Unfinished []*PositionError

	// Canceled lists, in argument order, the functions that returned a
	// cancellation after the call itself canceled them (fail-fast after a
	// sibling's failure, or RunFirstOK's losers), with what they returned.
	// They are not failures, and the message leaves them out.
	Canceled []*PositionError
}

// maxUnfinishedLines bounds the lines of a CallError's message that list
// unfinished positions; the rest are counted.
const maxUnfinishedLines = 8

// Error returns one line per failure, then, when the caller's ctx ended the
// call, one line with the context's error and one per unfinished position.
func (e *CallError) Error() string {
	var b strings.Builder
	for i, f := range e.Failures {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(f.Error())
	}
	if e.Ctx == nil {
		return b.String()
	}
	if b.Len() > 0 {
		b.WriteByte('\n')
	}
	b.WriteString("task: " + e.Call + ": " + e.Ctx.Error())
	for i, u := range e.Unfinished {
		if i == maxUnfinishedLines {
			b.WriteString("\ntask: " + e.Call + ": " + strconv.Itoa(len(e.Unfinished)-i) + " more had not finished")
			break
		}
		b.WriteString("\ntask: " + e.Call + ": " + u.Arg + " had not finished")
		if u.Err != nil {
			b.WriteString(": " + u.Err.Error())
		}
	}
	return b.String()
}

// Unwrap returns the failures, then the context error if any.
func (e *CallError) Unwrap() []error {
	errs := make([]error, 0, len(e.Failures)+1)
	for _, f := range e.Failures {
		errs = append(errs, f)
	}
	if e.Ctx != nil {
		errs = append(errs, e.Ctx)
	}
	return errs
}

// A PositionError is what happened at one position of a call over several
// functions or tasks: Index counts from 0 (Index 0 is f1 or t1), Arg names
// the argument as the call's signature does ("f2", "t1", "inputs[3]",
// "tasks[7]"), and Err is the error, a *[PanicError] for a panic, or
// [ErrGoexit].
//
// It is also the cause ([context.Cause]) of the cancellation that a failure
// sends to the other functions of RunN, Map and Scope: errors.Is and
// errors.As reach the failure through it.
type PositionError struct {
	Call  string
	Index int
	Arg   string
	Err   error
}

// Error returns "task: Call: Arg: " and the message of Err, or, for a task
// an await gave up on (Err nil), "task: Call: Arg had not finished".
func (e *PositionError) Error() string {
	if e.Err == nil {
		return "task: " + e.Call + ": " + e.Arg + " had not finished"
	}
	return "task: " + e.Call + ": " + e.Arg + ": " + detail(e.Err)
}

// Unwrap returns Err.
func (e *PositionError) Unwrap() error { return e.Err }

// detail is the message of err without this package's own prefix.
func detail(err error) string {
	if pe, ok := err.(*PanicError); ok {
		return pe.message()
	}
	if err == ErrGoexit {
		return "called runtime.Goexit"
	}
	return err.Error()
}

// A PanicError is a panic recovered from a function, with the stack of the
// goroutine that panicked, taken where it panicked.
//
// Wait and TryWait raise the task's own PanicError. A call over several
// functions or tasks raises a copy of the PanicError of the first panicking
// position in argument order, with Call, Index and Arg saying where it was
// and Others holding everything else that went wrong in the call, so that
// the panic is raised as itself and nothing is lost.
type PanicError struct {
	// Value is the value passed to panic. For panic(nil) it is a
	// *runtime.PanicNilError, or nil when GODEBUG=panicnil=1.
	Value any

	// Stack is the stack of the panicking goroutine, taken during the
	// panic, in the format of [runtime/debug.Stack], starting at the frame
	// that panicked.
	Stack []byte

	// Call, Index and Arg locate the panic in the call that raised it, as
	// in a [PositionError]. Call is empty on a task's own PanicError.
	Call  string
	Index int
	Arg   string

	// Others holds the other failures of that call, its context error and
	// its canceled and unfinished positions; nil if there were none.
	// errors.Is and errors.As reach them.
	Others *CallError

	name string // of the function that panicked, if it was Named
}

// Error returns where the panic happened, its value, the original stack,
// then the other failures of the call, one per line.
func (p *PanicError) Error() string {
	s := "task: "
	switch {
	case p.Call != "":
		s += p.Call + ": " + p.Arg + ": "
	case p.name != "":
		s += p.name + ": "
	}
	s += p.message()
	if p.Others != nil {
		s += "\n\n" + p.Others.Error()
	}
	return s
}

// message is the panic value and the stack.
func (p *PanicError) message() string {
	return "panic: " + fmt.Sprint(p.Value) + "\n\n" + strings.TrimSuffix(string(p.Stack), "\n")
}

// Unwrap returns Value when it is an error, and Others when set, so that
// errors.Is and errors.As reach an error passed to panic and every other
// failure of the call.
func (p *PanicError) Unwrap() []error {
	var errs []error
	if err, ok := p.Value.(error); ok {
		errs = append(errs, err)
	}
	if p.Others != nil {
		errs = append(errs, p.Others)
	}
	return errs
}

// How a function that returned an error relates to a cancellation.
const (
	own      uint8 = iota // its own failure
	stopCall              // a cancellation after the call canceled it
	stopCtx               // a cancellation after the caller's ctx was done
)

// outcome is how one function or task ended.
type outcome struct {
	err   error
	state uint32
	stop  uint8 // for state failed: own, stopCall or stopCtx
}

// probed is the outcome as the probes see it.
func (o outcome) probed() probe.Outcome {
	switch o.state {
	case panicked:
		pe := o.err.(*PanicError)
		return probe.Outcome{Panicked: true, Value: pe.Value, Stack: pe.Stack}
	case exited:
		return probe.Outcome{Goexit: true}
	}
	return probe.Outcome{Err: o.err}
}

// failures collects outcomes in argument order into a CallError.
type failures struct {
	e      CallError
	arg    string         // how arguments are named: "f", "t" (1-based) or a slice ("tasks")
	panic  *PositionError // the first panic in argument order
	exited bool
}

func newFailures(call, arg string) failures {
	return failures{e: CallError{Call: call}, arg: arg}
}

// at returns a PositionError for position i, named after the function if
// it was Named.
func (f *failures) at(i int, err error) *PositionError {
	name, err := unname(err)
	if name == "" {
		name = argName(f.arg, i)
	}
	return &PositionError{Call: f.e.Call, Index: i, Arg: name, Err: err}
}

// fNames and tNames are the arguments of RunN and AwaitN, so that naming
// them costs nothing.
var fNames, tNames = func() (f, t [16]string) {
	for i := range f {
		f[i], t[i] = "f"+strconv.Itoa(i+1), "t"+strconv.Itoa(i+1)
	}
	return
}()

// argName names position i of a call whose arguments are named by arg.
func argName(arg string, i int) string {
	if i < 0 {
		return "body" // of a Scope
	}
	if arg == "f" || arg == "t" {
		if i < len(fNames) {
			if arg == "f" {
				return fNames[i]
			}
			return tNames[i]
		}
		return arg + strconv.Itoa(i+1)
	}
	return arg + "[" + strconv.Itoa(i) + "]"
}

// add adds the outcome of position i. pe, if not nil, is the PositionError
// already made for it (the cause sent to its siblings).
func (f *failures) add(i int, o outcome, pe *PositionError) {
	if o.state == succeeded || o.state == pending { // pending: never started (Map after a failure)
		return
	}
	if pe == nil {
		pe = f.at(i, o.err)
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
func (f *failures) addTask(i int, c *core) {
	o := c.outcome()
	if o.state == panicked || o.state == exited {
		c.observe()
	}
	f.add(i, o, nil)
}

// unfinished records that the task at position i had not completed when
// ctx ended the call.
func (f *failures) unfinished(i int) {
	f.e.Unfinished = append(f.e.Unfinished, f.at(i, nil))
}

// result returns the error and raises a panic or Goexit among the outcomes.
func (f *failures) result(ctx context.Context) error {
	err := f.err(ctx)
	f.raise()
	return err
}

// err returns a CallError, or nil when nothing failed and nothing was
// stopped. When ctx stopped positions, the context's error is added. The
// CallError is a copy, so that f stays on its caller's stack when nothing
// failed.
func (f *failures) err(ctx context.Context) error {
	switch {
	case len(f.e.Unfinished) > 0:
		f.e.Ctx = contextError(ctx)
	case len(f.e.Canceled) > 0 && len(f.e.Failures) == 0:
		// Stopped by the call with nothing failed: unreachable, as the call
		// cancels only after a failure or a success it returns, but a
		// cancellation must never read as success.
		f.e.Ctx = context.Canceled
	}
	if len(f.e.Failures) == 0 && f.e.Ctx == nil {
		return nil
	}
	e := f.e
	return &e
}

// raise passes a panic or a Goexit on to the caller. A panic outranks a
// Goexit: the first panic in argument order is raised as a *PanicError that
// holds everything else.
func (f *failures) raise() {
	if f.panic != nil {
		panic(f.panicError())
	}
	if f.exited {
		runtime.Goexit()
	}
}

// panicError is the first panic, located and holding the rest of the call.
func (f *failures) panicError() *PanicError {
	pe := *f.panic.Err.(*PanicError)
	pe.Call, pe.Index, pe.Arg = f.panic.Call, f.panic.Index, f.panic.Arg
	rest := f.e
	rest.Failures = nil
	for _, x := range f.e.Failures {
		if x != f.panic {
			rest.Failures = append(rest.Failures, x)
		}
	}
	if len(rest.Failures)+len(rest.Unfinished)+len(rest.Canceled) > 0 || rest.Ctx != nil {
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

// stoppedBy reports whether err says a function gave up because ctx was
// canceled: ctx's error, or its cause, is in err's tree.
func stoppedBy(err error, ctx context.Context) bool {
	cerr := ctx.Err()
	if cerr == nil {
		return false
	}
	if errors.Is(err, cerr) {
		return true
	}
	cause := context.Cause(ctx)
	return cause != cerr && cause != nil && errors.Is(err, cause)
}

// causeError is a context's error with its cause: errors.Is reaches both.
// (fmt.Errorf("%w: %w") would do, at the price of linking Errorf.)
type causeError struct{ err, cause error }

func (e *causeError) Error() string   { return e.err.Error() + ": " + e.cause.Error() }
func (e *causeError) Unwrap() []error { return []error{e.err, e.cause} }
