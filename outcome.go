package task

import (
	"context"
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

// atomicStatus is a status read and written atomically.
type atomicStatus struct{ v atomic.Uint32 }

func (a *atomicStatus) Load() status   { return status(a.v.Load()) }
func (a *atomicStatus) Store(s status) { a.v.Store(uint32(s)) }

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
// o: the one place that does. Every function of the package's calls and
// tasks runs through it.
//
// Before calling fn, invoke records a Goexit (exited, [ErrGoexit]): if fn
// calls runtime.Goexit, invoke never returns, and that record is what the
// caller's deferred functions see, unless a deferred function of fn
// panicked while the Goexit unwound: the panic is recorded (it outranks the
// Goexit), and the Goexit goes on. (iter.Pull keeps "did it end by Goexit"
// the same way, in one flag set before the call.)
func invoke[T any](ctx context.Context, at site, fn func(context.Context) (T, error), v *T, o *outcome) {
	o.state, o.err = exited, ErrGoexit
	if p := probe.Load(); p != nil {
		invokeProbed(p, ctx, at, fn, v, o)
		return
	}
	invokeFn(ctx, fn, v, o)
}

// invokeErr is invoke for a function that returns only an error: a child
// of Group.Go, a function of Do, a call of ForEach.
func invokeErr(ctx context.Context, at site, fn func(context.Context) error, o *outcome) {
	var none struct{}
	invoke(ctx, at, func(ctx context.Context) (struct{}, error) { return none, fn(ctx) }, &none, o)
}

// invokeProbed is invoke with the installed probes told of the function.
func invokeProbed[T any](p probe.Probe, ctx context.Context, at site, fn func(context.Context) (T, error), v *T, o *outcome) {
	callName, arg := at.names()
	ctx, end := p.Func(ctx, callName, arg)
	defer func() { end(o.probed()) }() // runs on a Goexit too
	invokeFn(ctx, fn, v, o)
}

// invokeFn is invoke without the probes.
func invokeFn[T any](ctx context.Context, fn func(context.Context) (T, error), v *T, o *outcome) {
	normal := false
	func() {
		defer func() {
			if normal {
				return
			}
			// A panic or a Goexit. recover stops a panic, even one raised
			// while a Goexit unwinds, after which the Goexit goes on and
			// the code after this closure never runs: so record the panic
			// here. recover returns nil for a Goexit, and for panic(nil)
			// under GODEBUG=panicnil=1, recorded below.
			if pv := recover(); pv != nil {
				recordPanic(v, o, pv)
			}
		}()
		*v, o.err = fn(ctx)
		normal = true
	}()
	switch {
	case normal && o.err == nil:
		o.state = succeeded
	case normal:
		o.state = failed
	case o.state != panicked:
		// A recovered panic(nil) under GODEBUG=panicnil=1: a Goexit never
		// gets here.
		recordPanic(v, o, nil)
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
// stack taken in a deferred function of invoke: invoke's own frames, the
// runtime's panic frames, and those of a Named wrapper that raised the
// panic again, keeping the goroutine header line. The stack then starts at
// the frame that panicked. A stack of another shape is returned as it is.
func trimPanicFrames(stack []byte) []byte {
	s := string(stack)
	header, rest, ok := strings.Cut(s, "\n")
	if !ok {
		return stack
	}
	trimmed := false
	for {
		fn, _, _ := strings.Cut(rest, "\n")
		if !recoveryFrame(fn) {
			break
		}
		// Frames are two lines: the function, then a tab and its file.
		for range 2 {
			if _, rest, ok = strings.Cut(rest, "\n"); !ok {
				return stack
			}
		}
		trimmed = true
	}
	if !trimmed {
		return stack
	}
	return []byte(header + "\n" + rest)
}

// recoveryFrame reports whether the function line of a frame is part of
// the recovery of a panic rather than of the code that panicked.
func recoveryFrame(fn string) bool {
	if strings.HasPrefix(fn, "panic(") {
		return true
	}
	// The closure of a Named function is named after the package that
	// instantiates it: "main.handler.Named[...].1()".
	if strings.Contains(fn, ".Named[...].") {
		return true
	}
	name, ok := strings.CutPrefix(fn, "github.com/tasktuple/task.")
	if !ok {
		return false
	}
	for _, p := range [...]string{"panicStack(", "recordPanic[", "invokeFn["} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}
