package task

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// A group runs the functions of one RunN, Map or RunFirstOK call. Unless
// the call keeps going, it is also the context those functions get: a child
// of the caller's ctx that is canceled when the first function fails (for
// RunFirstOK: succeeds), and when the call returns.
//
// The child is made only when a function first looks at it (Done, Value, or
// Err once canceled), so functions that never look cost no allocation for it.
type group struct {
	wg      sync.WaitGroup
	parent  context.Context
	outs    []outcome // one per function; outs[i] written only by function i, read after wg.Wait
	opts    Option
	race    bool         // RunFirstOK: the first success cancels the others; failures do not
	winner  atomic.Int32 // RunFirstOK: 1 + the position of the first success, or 0
	running atomic.Int32 // functions not yet finished, when counted by wg per function

	ready  atomic.Bool // child and cancel are set
	failed atomic.Bool // first is set
	mu     sync.Mutex  // guards child, cancel and first
	child  context.Context
	cancel context.CancelCauseFunc
	first  error // the cause of cancellation: the first failure, or context.Canceled once RunN returns
}

// init prepares g for functions whose outcomes go to outs. The caller adds
// to g.wg one count per goroutine that calls finish.
func (g *group) init(parent context.Context, o Option, outs []outcome) {
	g.parent = parent
	g.opts = o
	g.outs = outs
}

// ctx is the context the functions get.
func (g *group) ctx() context.Context {
	if g.opts&KeepGoing != 0 {
		return g.parent
	}
	return g
}

// spawned runs function i of the group in a goroutine that RunN started.
func spawned[T any](g *group, i int, fn func(context.Context) (T, error), v *T) {
	g.outs[i].state = exited // stays so if fn calls runtime.Goexit
	defer g.finish(i)
	invoke(g.ctx(), fn, v, &g.outs[i])
}

// local runs the last function on the caller's goroutine. If that function
// calls runtime.Goexit, the caller's goroutine is unwinding: local still
// waits for the other functions before letting it go on, and raises their
// panics if any.
func local[T any](g *group, i int, fn func(context.Context) (T, error), v *T) {
	g.outs[i].state = exited
	defer func() {
		if g.outs[i].state == exited {
			g.finish(i)
			// Raise a sibling's panic; otherwise let the Goexit go on.
			if f, err := g.join(); f.panicked {
				panic(err)
			}
		}
	}()
	invoke(g.ctx(), fn, v, &g.outs[i])
	g.finish(i)
}

// finish records the end of function i and counts it as done.
func (g *group) finish(i int) {
	g.record(i)
	g.running.Add(-1)
	g.wg.Done()
}

// record records the end of function i: marks a cancellation induced by
// the group or by the parent, and starts the fail-fast cancellation.
func (g *group) record(i int) {
	o := &g.outs[i]
	switch o.state {
	case exited:
		o.err = ErrGoexit
	case failed:
		// A cancellation error after the group canceled the child, or after
		// the parent was canceled, was caused by that cancellation.
		if g.failed.Load() && isCancellation(o.err, g.first) { // first is written before failed is set
			o.induced = true
		} else if g.parent.Err() != nil && isCancellation(o.err, context.Cause(g.parent)) {
			o.induced = true
		}
	}
	switch {
	case g.race && o.state == succeeded:
		if g.winner.CompareAndSwap(0, int32(i)+1) {
			g.fail(ErrLost)
		}
	case g.race && o.state == failed:
		// A failure does not end a race.
	case o.state != succeeded && g.opts&KeepGoing == 0:
		g.fail(o.err)
	}
}

// fail cancels the child context with cause, if this is the first failure.
func (g *group) fail(cause error) {
	if g.failed.Load() {
		return
	}
	g.mu.Lock()
	if g.first == nil {
		g.first = cause
		g.failed.Store(true)
		if g.cancel != nil {
			g.cancel(cause)
		}
	}
	g.mu.Unlock()
}

// wait waits for every function, cancels the child context, and returns the
// joined error, raising panics and Goexit.
func (g *group) wait() error {
	f, err := g.join()
	f.raise(err)
	return err
}

// join waits for every function, cancels the child context, and joins the
// outcomes.
func (g *group) join() (failures, error) {
	if g.running.Load() != 0 {
		// The goroutines just started are usually in this P's run queue,
		// not yet running: yielding once lets them run here, which is far
		// cheaper than parking on the WaitGroup and being woken by another
		// thread.
		runtime.Gosched()
	}
	g.wg.Wait()
	if g.opts&KeepGoing == 0 {
		g.fail(context.Canceled)
	}
	var f failures
	for i, o := range g.outs {
		f.add(i, o)
	}
	return f, f.err(g.parent)
}

// childCtx returns the child context, making it on first use.
func (g *group) childCtx() context.Context {
	if g.ready.Load() {
		return g.child
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.child == nil {
		g.child, g.cancel = context.WithCancelCause(g.parent)
		if g.first != nil {
			g.cancel(g.first)
		}
		g.ready.Store(true)
	}
	return g.child
}

// Deadline is the parent's deadline.
func (g *group) Deadline() (time.Time, bool) { return g.parent.Deadline() }

// Done returns the child context's Done channel.
func (g *group) Done() <-chan struct{} { return g.childCtx().Done() }

// Err is the child context's error. Until a function has failed it is the
// parent's, and no child is made for it.
func (g *group) Err() error {
	if g.ready.Load() || g.failed.Load() {
		return g.childCtx().Err()
	}
	return g.parent.Err()
}

// Value looks key up in the child context, which also answers
// [context.Cause] with the first failure.
func (g *group) Value(key any) any { return g.childCtx().Value(key) }

// String names the context for debugging.
func (g *group) String() string { return "task.RunN context" }
