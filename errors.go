package task

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrGoexit is the error recorded for a function that called
// [runtime.Goexit]. Siblings canceled because of it see it (in a
// *[PositionError]) as the cause of their context's cancellation, and it
// appears in an error next to a panic; on its own, a Goexit is passed on by
// calling runtime.Goexit.
var ErrGoexit = errors.New("task: function called runtime.Goexit")

// ErrLost is the cause of the cancellation that [Hedge] sends to the
// functions still running once one has succeeded, [Quorum] once k have,
// and [Until] once its predicate said enough.
var ErrLost = errors.New("task: another function succeeded first")

// ErrNotEnough says that a call did not get the successes it needs though
// no function failed: [Until]'s enough never returned true, or [Hedge],
// [Quorum] or Until had fewer functions than it needs (none, or fewer than
// Quorum's k). The call's error names the call and wraps ErrNotEnough:
// "task: Hedge: no functions: not enough succeeded".
var ErrNotEnough = errors.New("task: not enough succeeded")

// ErrStopped says that a call stopped taking new work (see [Grace] and
// [Group.Stop]): errors.Is finds it in the error of a call that left
// inputs or children not started (CallError.NotStarted), and in the error
// of the task of a child that never started. A function of an outer call
// that returns it after that call stopped was stopped, not failed: it is
// kept in CallError.Unfinished.
var ErrStopped = errors.New("task: the call stopped taking new work")

// A CallError is the error of a call over several functions or tasks
// (AwaitN, RunN, Do, All, Map, ForEach, MapWithin, MapSeq,
// MapSeqUnordered, Scope, a Group's Wait, Hedge, Quorum, Until): what went
// wrong at each position, and what the call's own cancellations stopped.
// Its message has one line per failure, each naming the call and the
// argument:
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
	// ([context.Cause]) when the cause differs. When the call stopped
	// taking new work with ctx not done ([Group.Stop], or the stop of a
	// call it is nested in) and a function returned [ErrStopped], Ctx is
	// ErrStopped. It is nil otherwise.
	Ctx error

	// Unfinished lists, in argument order, the positions that a stop
	// ended: a function that returned a cancellation after the caller's
	// ctx was done, or ErrStopped after the call stopped taking new work,
	// with what it returned; or a task that had not completed when an
	// await gave up (Err is nil then). Set only when Ctx is.
	Unfinished []*PositionError

	// Canceled lists, in argument order, the functions that returned a
	// cancellation after the call itself canceled them (fail-fast after a
	// sibling's failure, or the losers of a race), with what they
	// returned. They are not failures, and the message leaves them out.
	Canceled []*PositionError

	// NotStarted counts the inputs (Map, ForEach, MapWithin) or children
	// (Scope, a Group) that never started: a failure canceled the call
	// (fail-fast starts nothing after a failure), or the call stopped
	// taking new work (the caller's ctx was done, see [Grace];
	// [Group.Stop]; or a call it is nested in stopped), whichever came
	// first. errors.Is(err, [ErrStopped]) is true when it was a stop. The
	// tasks of children of Spawn that never started hold the cancellation.
	// A stream's inputs are not counted: MapSeq and MapSeqUnordered yield
	// each failure as it comes.
	NotStarted int

	// stopped says that a stop, not a failure, left the work counted in
	// NotStarted.
	stopped bool

	// left holds the positions of the work counted in NotStarted, where
	// the call knows them: spans, so that a Map that left a million inputs
	// keeps one.
	left []span
}

// A span is the positions from, from+1, ..., to-1.
type span struct{ from, to int }

// NotStartedAt returns, in ascending order, the positions of the work
// counted in NotStarted, where the call knows them: the inputs of
// Map and ForEach (inputs[i]), and the children of a Scope or a Group
// (children[i]); so that a service can requeue what never ran. It returns
// nil for the other calls (a stream's inputs pulled and not called are
// counted only). Each call makes a new slice.
func (e *CallError) NotStartedAt() []int {
	var out []int
	for _, s := range e.left {
		for i := s.from; i < s.to; i++ {
			out = append(out, i)
		}
	}
	return out
}

// maxUnfinishedLines bounds the lines of a CallError's message that list
// unfinished positions; the rest are counted.
const maxUnfinishedLines = 8

// Error returns one line per failure, then, when the caller's ctx ended the
// call, one line with the context's error and one per unfinished position
// (at most 8, then a count), then one line that counts the inputs or
// children not started, if any.
func (e *CallError) Error() string {
	var b strings.Builder
	line := func(s string) {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(s)
	}
	for _, f := range e.Failures {
		line(f.Error())
	}
	if e.Ctx != nil {
		line("task: " + e.Call + ": " + strings.TrimPrefix(e.Ctx.Error(), "task: "))
		for i, u := range e.Unfinished {
			if i == maxUnfinishedLines {
				line("task: " + e.Call + ": " + strconv.Itoa(len(e.Unfinished)-i) + " more had not finished")
				break
			}
			s := "task: " + e.Call + ": " + u.Arg + " had not finished"
			if u.Err != nil {
				s += ": " + u.Err.Error()
			}
			line(s)
		}
	}
	if e.NotStarted > 0 {
		why := "a failure canceled the call"
		if e.stopped {
			why = "the call stopped taking new work"
		}
		line("task: " + e.Call + ": " + strconv.Itoa(e.NotStarted) + " not started: " + why)
	}
	return b.String()
}

// Unwrap returns the failures, then the context error if any, then
// [ErrStopped] if a stop left inputs or children not started.
func (e *CallError) Unwrap() []error {
	errs := make([]error, 0, len(e.Failures)+2)
	for _, f := range e.Failures {
		errs = append(errs, f)
	}
	if e.Ctx != nil {
		errs = append(errs, e.Ctx)
	}
	if e.stopped {
		errs = append(errs, ErrStopped)
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
// Wait raises the task's own PanicError. A call over several functions or
// tasks raises a copy of the PanicError of the first panicking
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

	name   string // of the function that panicked, if it was Named
	orphan string // "Go" or "Group": the crash of a panic nobody waited for
}

// Error returns where the panic happened, its value, the original stack,
// then the other failures of the call, one per line.
func (p *PanicError) Error() string {
	s := p.where() + p.message()
	if p.Others != nil {
		s += "\n\n" + p.Others.Error()
	}
	return s
}

// where is the start of the panic's message: "task: Call: Arg: ", or, for
// a task's own, "task: name: " or "task: ".
func (p *PanicError) where() string {
	switch {
	case p.orphan != "":
		return "task: " + p.orphan + ": never waited for: "
	case p.Call != "":
		return "task: " + p.Call + ": " + p.Arg + ": "
	case p.name != "":
		return "task: " + p.name + ": "
	}
	return "task: "
}

// message is the panic value and the stack. A PanicError passed on as the
// value keeps its whole message, its own stack included: a crash prints
// Error, and the stack where the first panic happened must be in it.
func (p *PanicError) message() string {
	v := fmt.Sprint(p.Value)
	if inner, ok := p.Value.(*PanicError); ok {
		v = inner.Error()
	}
	return "panic: " + v + "\n\n" + strings.TrimSuffix(string(p.Stack), "\n")
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
