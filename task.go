package task

import (
	"context"
	"runtime"
	"strings"

	"github.com/tasktuple/task/internal/probe"
)

// A Task is a value of type T and an error that become available once,
// when the work that produces them ends. Tasks are made by [Go],
// [FromResult], [FromError] and [NewSource]; the zero Task is not usable,
// and a Task must not be copied.
//
// Any number of goroutines may wait for a Task, any number of times; all of
// them see the same value and error. The completion of a task synchronizes
// before the return of every Wait, TryWait or await that observes it.
type Task[T any] struct {
	core
	val T // written once, before state leaves pending
}

// Go starts fn(ctx) in a new goroutine and returns the Task that completes
// with its results. A panic in fn, or a call to [runtime.Goexit], completes
// the task too: see the package documentation on panics.
//
// Go does not cancel ctx: fn sees ctx unchanged and is expected to give up
// when it is done.
func Go[T any](ctx context.Context, fn func(context.Context) (T, error)) *Task[T] {
	if ctx == nil {
		panic("task: Go: ctx is nil")
	}
	if fn == nil {
		panic("task: Go: fn is nil")
	}
	t := new(Task[T])
	t.wg.Add(1)
	var end func(error)
	if p := probe.Load(); p != nil {
		ctx, end = p.Call(ctx, "Go")
	}
	go t.run(ctx, fn, end)
	return t
}

func (t *Task[T]) run(ctx context.Context, fn func(context.Context) (T, error), end func(error)) {
	var v T
	o := outcome{state: exited} // stays so if fn calls runtime.Goexit
	defer func() {
		if o.state == panicked {
			t.orph = watchOrphan(t, o.err.(*PanicError))
		}
		if end != nil {
			// Before the task completes, so that whoever waits for it
			// sees the call ended.
			err := o.err
			if o.state == exited {
				err = ErrGoexit
			}
			end(err)
		}
		t.complete(v, o)
	}()
	invoke(ctx, site{}, fn, &v, &o)
}

// FromResult returns a Task that has already completed with v.
func FromResult[T any](v T) *Task[T] {
	t := &Task[T]{val: v}
	t.state.Store(succeeded)
	return t
}

// FromError returns a Task that has already failed with err. It panics if
// err is nil.
func FromError[T any](err error) *Task[T] {
	if err == nil {
		panic("task: FromError: err is nil")
	}
	t := &Task[T]{}
	t.err = err
	t.state.Store(failed)
	return t
}

// complete records o and v, unless the task has completed already, and
// reports whether it did.
func (t *Task[T]) complete(v T, o outcome) bool {
	t.mu.Lock()
	if t.state.Load() != pending {
		t.mu.Unlock()
		return false
	}
	if o.state == exited {
		o.err = ErrGoexit
	}
	if o.state == succeeded || o.state == failed {
		t.val = v
	}
	t.err = o.err
	t.finish(o.state)
	return true
}

// Wait waits for t to complete and returns its value and error.
//
// If ctx is done first, Wait returns the zero value and the context's
// error, with its cause (see [context.Cause]) reachable through
// [errors.Is] and [errors.As]; t is not affected, and a later Wait still
// gets the real result. If the function of t panicked, Wait panics with the
// *[PanicError]; if it called [runtime.Goexit], Wait calls runtime.Goexit.
//
// Wait on a completed task does not allocate.
func (t *Task[T]) Wait(ctx context.Context) (T, error) {
	if t != nil && ctx != nil && t.state.Load() == succeeded {
		return t.val, nil
	}
	return t.wait(ctx)
}

func (t *Task[T]) wait(ctx context.Context) (T, error) {
	if t == nil {
		panic("task: Wait: t is nil")
	}
	if ctx == nil {
		panic("task: Wait: ctx is nil")
	}
	if err := t.block(ctx); err != nil {
		var zero T
		return zero, err
	}
	t.raise()
	return t.val, t.err
}

// TryWait is the non-blocking form of Wait: if t has completed, it reports
// its value and error as Wait does, with ok true; otherwise it returns at
// once with ok false.
//
// The results are Wait's, in Wait's order, with ok after them: Go has two
// conventions for the last result, the error and the comma-ok flag, and
// they meet here. ok comes last because it says whether the others mean
// anything at all (as in v, ok := m[k]), while err is part of the value
// read; golang.org/x/sync/singleflight's Do returns (v, err, shared) for
// the same reason. So `v, err, ok := t.TryWait()` reads as Wait plus "was
// it there".
func (t *Task[T]) TryWait() (v T, err error, ok bool) {
	if t == nil {
		panic("task: TryWait: t is nil")
	}
	if t.state.Load() == pending {
		return v, nil, false
	}
	t.raise()
	return t.val, t.err, true
}

// Done returns a channel that is closed when t completes, for use in a
// select statement. The channel is made on the first call while t is
// pending; a completed task returns a shared closed channel.
func (t *Task[T]) Done() <-chan struct{} {
	if t == nil {
		panic("task: Done: t is nil")
	}
	if t.state.Load() != pending {
		return closed
	}
	return t.doneChan()
}

// ok reports whether t has completed with a nil error: the fast path of
// every await.
func (t *Task[T]) ok() bool {
	return t != nil && t.state.Load() == succeeded
}

// awaiter implements [Awaiter]. It returns nil for a nil *Task.
func (t *Task[T]) awaiter() *core {
	if t == nil {
		return nil
	}
	return &t.core
}

// invoke calls fn(ctx), stores its value in *v and records how it ended in
// o. If fn calls runtime.Goexit, invoke never returns and o.state is left as
// the caller set it (exited), for the caller's deferred functions to see,
// unless a deferred function of fn panicked while the Goexit unwound: the
// panic is recorded (it outranks the Goexit), and the Goexit goes on.
func invoke[T any](ctx context.Context, at site, fn func(context.Context) (T, error), v *T, o *outcome) {
	if p := probe.Load(); p != nil {
		invokeProbed(p, ctx, at, fn, v, o)
		return
	}
	invokeFn(ctx, fn, v, o)
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
