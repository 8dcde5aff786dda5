package task

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// closed is returned by Done for every completed task, so Done on a
// completed task allocates nothing.
var closed = func() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}()

// core is the part of a task that does not depend on its value type.
type core struct {
	state atomicStatus          // pending until the value (and the error, in x) are written; then fixed, but for the bit of a wait (see atomicStatus)
	made  bool                  // set by Go, Promise and Spawn before the task is shared: the zero Task is not
	mu    sync.Mutex            // guards ch, links, and the transition out of pending but a success's (see Task.succeed)
	ch    chan struct{}         // made by the first Done or blocking wait while pending; closed on completion
	links *link                 // calls waiting for completion; guarded by mu
	x     atomic.Pointer[extra] // nil for most tasks; see extra
}

// finish publishes the outcome. The caller holds c.mu and has written the
// value, and the error in c.x; finish releases c.mu.
func (c *core) finish(st status) {
	c.state.Store(st)
	if c.ch != nil {
		close(c.ch)
	}
	c.wake()
	c.mu.Unlock()
}

// doneChan is the slow path of Done.
func (c *core) doneChan() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state.markWaited() != pending { // see Task.succeed
		return closed
	}
	if c.ch == nil {
		c.ch = make(chan struct{})
	}
	return c.ch
}

// block waits until the task completes or ctx is done, and returns the
// context's error in the second case. A completed task wins over a done ctx.
func (c *core) block(ctx context.Context) error {
	if c.state.Load() != pending {
		return nil
	}
	c.startQueued()
	d := ctx.Done()
	if d == nil {
		c.waitForever()
		return nil
	}
	select {
	case <-c.doneChan():
	case <-d:
		if c.state.Load() == pending {
			return contextError(ctx)
		}
	}
	return nil
}

// pendingName is the name of the Named function of a task that may be
// pending, or "".
func (c *core) pendingName() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if x := c.x.Load(); x != nil {
		return x.name
	}
	return ""
}

// startQueued starts the function of c at once, if c is a child of a
// Scope still queued for a slot: a wait never needs a free slot (see
// [Group.SetLimit]).
func (c *core) startQueued() {
	if x := c.x.Load(); x != nil && x.child != nil {
		if g := x.child.mem().g; g.limit.Load() > 0 { // with no limit, none is queued
			g.startWaited(x.child)
		}
	}
}

// waitForever waits for a ctx that can never be done, on the channel
// Done returns.
func (c *core) waitForever() {
	if !c.made {
		panic(errZeroTask)
	}
	<-c.doneChan()
}

// errZeroTask is the panic for waiting, with a ctx that can never be done,
// on a Task that was declared rather than made: nothing would complete it.
const errZeroTask = "task: wait on a Task that was not made by Go, Promise or Spawn"

// outcome reports how a completed task ended, for joining with others:
// the error of a Named function carries its name again, for the report.
func (c *core) outcome() outcome {
	o := outcome{state: c.state.Load()}
	x := c.x.Load()
	if o.state == succeeded || x == nil {
		return o
	}
	o.err = x.err
	if x.name != "" && o.state == failed {
		o.err = &namedError{name: x.name, err: o.err}
	}
	return o
}

// failure is the error of a task: nil for a success or a pending task,
// otherwise in its extra, which a task that did not succeed always has.
func (c *core) failure() error {
	if c.state.Load() == succeeded {
		return nil
	}
	if x := c.x.Load(); x != nil {
		return x.err
	}
	return nil
}

// raise reproduces an abnormal end of a completed task in the caller:
// it re-panics with the *PanicError or calls runtime.Goexit.
func (c *core) raise() {
	switch c.state.Load() {
	case panicked:
		c.observe()
		panic(c.failure())
	case exited:
		c.observe()
		runtime.Goexit()
	}
}

// observe records that a panic, or a Goexit, has been passed on to a
// waiter.
func (c *core) observe() {
	if x := c.x.Load(); x != nil {
		x.observed.Store(true)
	}
}
