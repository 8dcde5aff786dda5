package task

import (
	"context"
	"reflect"
	"runtime"
	"strings"
	"sync/atomic"

	"github.com/tasktuple/task/internal/probe"
)

// A status is how far a task, or a function of a call, has got: pending
// until it ends, then how it ended. It leaves pending once and never
// changes again.
type status uint32

const (
	pending   status = iota
	succeeded        // err == nil
	failed           // err != nil, an ordinary error
	panicked         // err is a *PanicError
	exited           // the function called runtime.Goexit; err is ErrGoexit
)

// atomicStatus is a task's status, read and written atomically, with a
// bit that a wait sets before it makes the task's Done channel or
// registers a link (see Task.succeed).
type atomicStatus struct{ v atomic.Uint32 }

// waitedBit is the bit of a wait in an atomicStatus.
const waitedBit = 1 << 8

func (a *atomicStatus) Load() status   { return status(a.v.Load() &^ waitedBit) }
func (a *atomicStatus) Store(s status) { a.v.Store(uint32(s)) }

// markWaited sets the bit of a wait and returns the status it found.
func (a *atomicStatus) markWaited() status { return status(a.v.Or(waitedBit) &^ waitedBit) }

// completeUnwaited moves the status from pending to s if no wait has set
// its bit, and reports whether it did.
func (a *atomicStatus) completeUnwaited(s status) bool {
	return a.v.CompareAndSwap(uint32(pending), uint32(s))
}

// A stopKind says how an error that a function returned relates to a
// cancellation (see [call.classify]).
type stopKind uint8

const (
	own      stopKind = iota // its own failure
	stopCall                 // a cancellation after the call canceled it
	stopCtx                  // a cancellation after the caller's ctx was done
)

// An outcome is how one function or task ended.
type outcome struct {
	err   error
	state status
	stop  stopKind // for state failed: own, stopCall or stopCtx
}

// The two tests of an outcome that every rule asks, once classified (see
// call.classify): did the function fail of its own, and did it return an
// error of its own. A stop (stopCall, stopCtx) is neither.

// ownFailure reports an error of its own, a panic or a Goexit: what
// fail-fast cancels the call for.
func (o *outcome) ownFailure() bool { return o.state != succeeded && o.stop == own }

// ownError reports an error of its own: what FirstError returns, and what
// a Scope's body can have received from a child.
func (o *outcome) ownError() bool { return o.state == failed && o.stop == own }

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

// invoke calls fn(ctx), stores its value in *v and records how it ended in
// o. Every function of the package's calls, tasks and groups runs through
// it, or through invokeErr, its form for a function that returns only an
// error, but on the most common paths, without probes: there runAt (a
// function of a RunN run in a goroutine), childTask.startFree (a child of
// Spawn in a group without a limit) and Group.goOpen (a child of Group.Go
// in an open group) do the same in their own frame, with recovered's work
// in their one deferred call, and the workers of Map, ForEach
// (mapping.work) and MapSeq (stream.goroutine) call the function of each
// input with none: their own deferred call recovers.
//
// Before calling fn, invoke records a Goexit (exited, [ErrGoexit]): if fn
// calls runtime.Goexit, invoke never returns, and that record is what the
// caller's deferred functions see, unless a deferred function of fn
// panicked while the Goexit unwound: the panic is recorded (it outranks the
// Goexit), and the Goexit goes on. (iter.Pull keeps "did it end by Goexit"
// the same way, in one flag set before the call.)
func invoke[T any](ctx context.Context, at site, fn func(context.Context) (T, error), v *T, o *outcome) {
	o.begin()
	if p := probe.Load(); p != nil {
		invokeProbed(p, ctx, at, fn, v, o)
		return
	}
	invokeFn(ctx, fn, v, o)
}

// invokeErr is invoke for a function that returns only an error: a
// function of Do, a call of ForEach, a child of Group.Go.
func invokeErr(ctx context.Context, at site, fn func(context.Context) error, o *outcome) {
	o.begin()
	if p := probe.Load(); p != nil {
		invokeErrProbed(p, ctx, at, fn, o)
		return
	}
	var none struct{}
	defer recovered(&none, o)
	o.err = fn(ctx)
	o.state = endState(o.err)
}

// invokeErrProbed is invokeErr with the installed probes told of the
// function. Out of line: its frame would be on every function's path.
//
//go:noinline
func invokeErrProbed(p probe.Probe, ctx context.Context, at site, fn func(context.Context) error, o *outcome) {
	var none struct{}
	if t := probe.LoadTracker(); t != nil && at.c != nil {
		var e probe.Ender
		ctx, e = t.Start(ctx, at.c.parent, at.c.name(), kindNames[at.c.kind].arg, at.i)
		defer tracked(e, o) // runs on a Goexit too
	} else {
		callName, arg := at.names()
		var end func(probe.Outcome)
		ctx, end = p.Func(ctx, callName, arg)
		defer func() { end(o.probed()) }()
	}
	defer recovered(&none, o)
	o.err = fn(ctx)
	o.state = endState(o.err)
}

// invokeProbed is invoke with the installed probes told of the function.
// A Tracker is told the argument's name and position apart, and nothing
// of a success, so that following a function formats and copies nothing.
func invokeProbed[T any](p probe.Probe, ctx context.Context, at site, fn func(context.Context) (T, error), v *T, o *outcome) {
	if t := probe.LoadTracker(); t != nil && at.c != nil {
		var e probe.Ender
		ctx, e = t.Start(ctx, at.c.parent, at.c.name(), kindNames[at.c.kind].arg, at.i)
		defer tracked(e, o) // runs on a Goexit too
		invokeFn(ctx, fn, v, o)
		return
	}
	callName, arg := at.names()
	ctx, end := p.Func(ctx, callName, arg)
	defer func() { end(o.probed()) }() // runs on a Goexit too
	invokeFn(ctx, fn, v, o)
}

// invokeIn is invoke for a goroutine that runs functions of one call one
// after another, in w, the Worker of a probe.Tracker (nil: none).
func invokeIn[T any](w *probe.Worker, ctx context.Context, at site, fn func(context.Context) (T, error), v *T, o *outcome) {
	if w == nil {
		invoke(ctx, at, fn, v, o)
		return
	}
	o.begin()
	w.Begin(at.i)
	defer workerEnd(w, o) // runs on a Goexit too
	invokeFn(w.Ctx, fn, v, o)
}

// invokeErrIn is invokeIn for a function that returns only an error.
func invokeErrIn(w *probe.Worker, ctx context.Context, at site, fn func(context.Context) error, o *outcome) {
	if w == nil {
		invokeErr(ctx, at, fn, o)
		return
	}
	o.begin()
	w.Begin(at.i)
	defer workerEnd(w, o) // runs on a Goexit too
	var none struct{}
	defer recovered(&none, o)
	o.err = fn(w.Ctx)
	o.state = endState(o.err)
}

// workerEnd is tracked for a Worker, called without an interface: it is on
// the path of every function of Map's workers.
func workerEnd(w *probe.Worker, o *outcome) {
	if o.state == succeeded {
		w.End(nil)
		return
	}
	out := o.probed()
	w.End(&out)
}

// tracked tells e, a Tracker's Ender, how the function ended.
func tracked(e probe.Ender, o *outcome) {
	if o.state == succeeded {
		e.End(nil)
		return
	}
	out := o.probed()
	e.End(&out)
}

// invokeFn is invoke without the probes, for a caller that has recorded a
// Goexit in o. One deferred call and no closure: it is on the path of
// every function.
func invokeFn[T any](ctx context.Context, fn func(context.Context) (T, error), v *T, o *outcome) {
	defer recovered(v, o)
	*v, o.err = fn(ctx)
	o.state = endState(o.err)
}

// endState is the state of a function that returned err.
func endState(err error) status {
	if err == nil {
		return succeeded
	}
	return failed
}

// recovered, deferred by invokeFn and its forms, records how the function
// ended if it did not return: a panic, or a Goexit, which o records
// already. recover stops a panic, even one raised while a Goexit unwinds,
// after which the Goexit goes on and the code after the call of invokeFn
// never runs: so the panic is recorded here.
func recovered[T any](v *T, o *outcome) {
	if o.state == exited {
		settleExit(v, o, recover())
	}
}

// settleExit records in o how a function that did not return ended, for
// a deferred function that called recover for it, which returned pv: a
// panic, or a Goexit, which o records already. recover returns nil for a
// Goexit and for panic(nil) under GODEBUG=panicnil=1, told apart by the
// frame that runs the deferred call (see goexiting).
func settleExit[T any](v *T, o *outcome, pv any) {
	if pv != nil || !goexiting() {
		recordPanic(v, o, pv)
	}
}

// goexiting reports, in a deferred call, whether it runs for a Goexit
// rather than a panic: whichever of runtime.Goexit and runtime.gopanic is
// nearer on the stack runs it. Only for recover's nil, a rare end.
func goexiting() bool {
	pcs := make([]uintptr, 32)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
	for {
		f, more := frames.Next()
		switch f.Function {
		case "runtime.Goexit":
			return true
		case "runtime.gopanic":
			return false
		}
		if !more {
			return true
		}
	}
}

// recordPanic records a panic with value pv, from the deferred function that
// recovered it.
func recordPanic[T any](v *T, o *outcome, pv any) {
	var zero T
	*v = zero
	o.state = panicked
	pe := &PanicError{Value: pv, Stack: panicStack()}
	if np, ok := pv.(*namedPanic); ok {
		pe.Value, pe.name = np.value, np.name
	}
	o.err = pe
}

// panicStack is the stack of the calling goroutine, as runtime/debug.Stack
// returns it, without linking runtime/debug into every program that uses
// this package (about 100 kB), and starting at the frame that panicked: the
// frames of the recovery, down to the runtime's panic frame, are cut.
func panicStack() []byte {
	buf := make([]byte, 4096)
	for {
		n := runtime.Stack(buf, false)
		if n < len(buf) {
			return trimPanicFrames(buf[:n])
		}
		buf = make([]byte, 2*len(buf))
	}
}

// trimPanicFrames removes the frames of the recovery from the top of a
// stack taken while a panic is recovered, keeping the goroutine header
// line, so that the stack starts at the frame that panicked. Everything
// above the runtime's first panic frame is the recovery; a panic frame
// reached through frames of this package only is a panic raised again by
// the package (a Named function's), and the runtime's frames just below
// the last panic frame raise a runtime error (sigpanic, goPanicIndex).
// The frames are told apart by their package, not by a list of names. A
// stack of another shape is returned as it is.
func trimPanicFrames(stack []byte) []byte {
	header, body, ok := strings.Cut(string(stack), "\n")
	if !ok {
		return stack
	}
	lines := strings.Split(body, "\n")
	// Frames are two lines: the function, then a tab and its file.
	cut := -1 // the frame line after which the stack starts
	for i := 0; i+1 < len(lines); i += 2 {
		fn := lines[i]
		switch {
		case strings.HasPrefix(fn, "panic("):
			cut = i
		case cut >= 0 && strings.HasPrefix(fn, "runtime."):
			// A runtime error raised below the panic: still the recovery.
			cut = i
		case cut >= 0 && !strings.HasPrefix(fn, ownPackage):
			return []byte(header + "\n" + strings.Join(lines[cut+2:], "\n"))
		case cut >= 0:
			// A frame of this package between two panics: look for the
			// next panic frame; if none comes, the stack starts at cut.
			if !panicBelow(lines[i:]) {
				return []byte(header + "\n" + strings.Join(lines[cut+2:], "\n"))
			}
		}
	}
	return stack
}

// panicBelow reports whether a panic frame comes in lines before a frame
// of another package than this one and the runtime.
func panicBelow(lines []string) bool {
	for i := 0; i < len(lines); i += 2 {
		switch fn := lines[i]; {
		case strings.HasPrefix(fn, "panic("):
			return true
		case !strings.HasPrefix(fn, ownPackage) && !strings.HasPrefix(fn, "runtime."):
			return false
		}
	}
	return false
}

// ownPackage is the prefix of the names of this package's functions in a
// stack: "github.com/tasktuple/task.".
var ownPackage = func() string {
	name := runtime.FuncForPC(reflect.ValueOf(endState).Pointer()).Name()
	return name[:strings.LastIndex(name, ".")+1]
}()

// begin records a Goexit in o before a function is called: if the
// function calls runtime.Goexit, the call never returns, and the record
// stays (see invoke).
func (o *outcome) begin() { o.state, o.err = exited, ErrGoexit }
