package task

import (
	"context"

	"github.com/tasktuple/task/internal/probe"
)

// A Task is a value of type T and an error that become available once,
// when the work that produces them ends. Tasks are made by [Go], [Promise]
// and [Spawn]; the zero Task is not usable, and a Task must not be copied.
//
// Any number of goroutines may wait for a Task, any number of times; all of
// them see the same value and error. The completion of a task synchronizes
// before the return of every Wait or await that observes it.
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
	t := &Task[T]{core: core{made: true}}
	if name := nameOf(fn); name != "" {
		t.x.Store(&extra{name: name})
	}
	var end func(error)
	if p := probe.Load(); p != nil {
		ctx, end = p.Call(ctx, "Go")
	}
	go t.run(ctx, fn, end)
	return t
}

func (t *Task[T]) run(ctx context.Context, fn func(context.Context) (T, error), end func(error)) {
	var v T
	var o outcome
	defer func() {
		if o.state == panicked {
			t.x.Store(watchOrphan(t, o.err.(*PanicError)))
		}
		if end != nil {
			// Before the task completes, so that whoever waits for it
			// sees the call ended.
			end(o.err)
		}
		if o.state == succeeded {
			t.succeed(v)
			return
		}
		t.complete(v, o)
	}()
	invoke(ctx, site{}, fn, &v, &o)
}

// complete records o and v, unless the task has completed already, and
// reports whether it did.
func (t *Task[T]) complete(v T, o outcome) bool {
	t.mu.Lock()
	if t.state.Load() != pending {
		t.mu.Unlock()
		return false
	}
	if o.state == succeeded || o.state == failed {
		t.val = v
	}
	if o.err != nil {
		// A child has its extra already (see childTask.shareExtra): for
		// a task of Go or a Promise, nothing else stores one while it
		// is pending but Go's run, on this goroutine, before complete.
		x := t.x.Load()
		if x == nil {
			x = new(extra)
			t.x.Store(x)
		}
		if ne, ok := o.err.(*namedError); ok {
			// The task holds the function's own error, as RunN returns
			// it; the name is kept for the report of an await.
			if x.name == "" {
				x.name = ne.name // guarded by mu: see core.pendingName
			}
			o.err = ne.err
		}
		x.err = o.err
	}
	t.finish(o.state)
	return true
}

// succeed is complete for a function that returned v and a nil error,
// called by the goroutine that ran it (of Go, or of a Spawn child): nothing
// else completes the task. It takes the lock only if a wait has made the
// Done channel or registered a link. Such a wait first sets the bit of a
// wait in the state, under the lock, and goes on only if the task was
// pending; the state moves to succeeded here only if the bit is not set.
// Both are atomic updates of the one word: either the wait finds the task
// complete, or succeed finds the bit and completes the task under the
// lock, waking the wait.
func (t *Task[T]) succeed(v T) {
	t.val = v
	if t.state.completeUnwaited(succeeded) {
		return
	}
	t.mu.Lock()
	t.finish(succeeded)
}

// Wait waits for t to complete and returns its value and error.
//
// If ctx is done first, Wait returns the zero value and the context's
// error, with its cause (see [context.Cause]) reachable through
// [errors.Is] and [errors.As]; t is not affected, and a later Wait still
// gets the real result. If the function of t panicked, Wait panics with the
// *[PanicError]; if it called [runtime.Goexit], Wait calls runtime.Goexit.
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
	return t.val, t.failure()
}

// Done returns a channel that is closed when t completes, for use in a
// select statement.
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
