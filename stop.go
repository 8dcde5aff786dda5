package task

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tasktuple/task/internal/probe"
)

// Stopping returns a channel that is closed when the call with [Grace]
// that gave ctx to a function stops taking new work: when its caller's ctx
// is done, or its [Group.Stop] is called. The functions running then have
// the grace period to finish before their context is canceled; Stopping
// is the signal to finish quickly (take nothing new, flush, return what is
// done). It is closed for the functions of calls nested in such a
// function too. For a ctx that no call with Grace gave, it is ctx.Done():
// without a grace period, the stop and the cancellation are one, and
// Group.Stop, which cancels nothing, leaves it open.
//
// Stopping is not a cancellation: a function that takes work waits on
// both, and on its source of work. A select chooses at random among the
// cases that are ready, so it may take work as the stop comes: look at
// Stopping again before starting what was taken, as the example does.
func Stopping(ctx context.Context) <-chan struct{} {
	if ctx == nil {
		nilArg("Stopping", "ctx")
	}
	if ch, ok := ctx.Value(stoppingKey{}).(chan struct{}); ok {
		return ch
	}
	return ctx.Done()
}

// stoppingKey is the context key of a stopping channel.
type stoppingKey struct{}

// Stop makes the group take no new child, in this round and every later
// one (see [Group.Wait]), as the end of the caller's ctx does with
// [Grace]: the children waiting for a slot, and those started from now on,
// never start (they are counted in CallError.NotStarted, and their tasks
// fail with [ErrStopped] and [context.Canceled]); the children running go
// on, and with Grace they see [Stopping] closed. It is for a group whose
// source of work has ended, an accept loop that closed. Stop cancels
// nothing: Scope and Wait return as always, once the running children
// have returned.
func (g *Group) Stop() {
	if g == nil {
		nilArg("Group.Stop", "g")
	}
	g.ready()
	g.c.halt()
	g.cancelQueue()
}

// A graceful is the grace period of a call with Grace.
type graceful struct {
	d        time.Duration
	stopping chan struct{} // closed when the stop begins
	once     sync.Once     // begins the stop
	cut      atomic.Bool   // the grace period ended: the functions' context is canceled with the caller's cause
	mu       sync.Mutex    // guards timer, done and work
	timer    *time.Timer   // ends the grace period
	done     bool          // the call has returned: no timer starts
	work     backlog       // counts the work not started, for the probes; nil if the call cannot
	unwatch  func() bool   // drops the watch of the caller's ctx
}

// A backlog counts the work a call has not started, for the probes' Stop:
// the inputs of Map not taken, the children of a Scope waiting for a slot.
type backlog interface{ backlog() int }

// startGrace prepares the two phases of a call with a grace period d: its
// functions get a child of the caller's ctx that the caller's cancellation
// does not reach, and that carries the stopping channel; when the caller's
// ctx is done, the stop begins.
func (c *call) startGrace(d time.Duration, st starter) {
	g := &graceful{d: d, stopping: make(chan struct{})}
	g.work, _ = st.(backlog) // Map's: set before the watch starts
	x := c.cancels()
	x.gr = g
	base := context.WithValue(context.WithoutCancel(c.parent), stoppingKey{}, g.stopping)
	x.child, x.cancel = context.WithCancelCause(base)
	c.setFlag(flagReady)
	g.unwatch = context.AfterFunc(c.parent, c.ctxDone)
}

// countBacklog gives a call with Grace whose starter does not count its
// work not started (Scope's group) what does, for the probes' Stop.
func (c *call) countBacklog(b backlog) {
	if g := c.grace(); g != nil {
		g.mu.Lock()
		g.work = b
		g.mu.Unlock()
	}
}

// halt makes the call stop taking new work, once: the caller's ctx is
// done (with or without Grace), or Group.Stop was called. With a grace
// period, the functions then see Stopping closed.
func (c *call) halt() {
	c.setFlag(flagHalted)
	if g := c.grace(); g != nil {
		g.once.Do(func() { c.stop(0) })
	}
}

// stop begins the stop of a call with Grace: Stopping closes, and the
// probes are told, with the grace period if it starts now.
func (c *call) stop(grace time.Duration) {
	close(c.grace().stopping)
	if p, ok := probe.Load().(probe.Stopper); ok {
		p.Stop(c.parent, c.report().e.Call, c.unstartedWork(), grace)
	}
}

// unstartedWork is the work the call has not started, for the probes'
// Stop: 0 for RunN, which starts every function at once, -1 if the call
// cannot tell (MapSeq).
func (c *call) unstartedWork() int {
	g := c.grace()
	g.mu.Lock()
	work := g.work
	g.mu.Unlock()
	switch {
	case work != nil:
		return work.backlog()
	case c.kind == kindRunN, c.kind == kindScope, c.kind == kindGroup:
		// A Scope stopped before countBacklog: its body has not run.
		return 0
	}
	return -1
}

// ctxDone is the stop of a call with Grace when the caller's ctx is done:
// the grace period starts.
func (c *call) ctxDone() {
	c.setFlag(flagHalted)
	g := c.grace()
	first := false
	g.once.Do(func() { c.stop(g.d); first = true })
	if !first {
		// Group.Stop stopped the call before; its grace period starts now.
		if p, ok := probe.Load().(probe.Stopper); ok {
			p.GraceStart(c.parent, c.report().e.Call, g.d)
		}
	}
	g.mu.Lock()
	if !g.done && g.timer == nil {
		g.timer = time.AfterFunc(g.d, c.endGrace)
	}
	g.mu.Unlock()
}

// endGrace ends the grace period: the functions still running get their
// context canceled with the caller's cause.
func (c *call) endGrace() {
	x := c.cs.Load() // made by startGrace
	x.mu.Lock()
	if x.child.Err() == nil {
		x.gr.cut.Store(true)
		x.cancel(context.Cause(c.parent))
	}
	x.mu.Unlock()
	if p, ok := probe.Load().(probe.Stopper); ok {
		p.GraceEnd(c.parent, c.report().e.Call)
	}
}

// releaseGrace drops the watch and the timer when the call returns.
func (c *call) releaseGrace() {
	g := c.grace()
	g.unwatch()
	g.mu.Lock()
	g.done = true
	if g.timer != nil {
		g.timer.Stop()
	}
	g.mu.Unlock()
}

// stopping reports whether the call has stopped taking new work: it was
// stopped (Grace, Group.Stop), or a call it is nested in stops, or the
// caller's ctx is done. A call that runs every function whatever happens
// (KeepGoing without Grace) does not stop for the caller's ctx alone, and
// nor does a group that starts every child (StartAll without Grace).
func (c *call) stopping() bool {
	if c.stopped() {
		return true
	}
	if c.startsAnyway() {
		return false
	}
	return closedChan(c.parent.Done())
}

// startsAnyway reports whether the call starts its functions whatever the
// caller's ctx does: it runs everything, or it starts all (StartAll), as
// errgroup calls every function given to Go; Grace makes the end of ctx a
// stop for both.
func (c *call) startsAnyway() bool {
	return (c.startsAll() || c.keepGoing() && c.kind != kindMapSeq && c.kind != kindMapSeqUnordered) && c.grace() == nil
}

// stopped reports whether the call was stopped, by Grace's stop, by
// Group.Stop or by a call it is nested in: a stop that is known at once,
// unlike the caller's ctx ending without Grace, which a call notices when
// it looks.
func (c *call) stopped() bool {
	return c.isHalted() || closedChan(c.outer())
}

// watchOuter makes a call that starts work over time (Map, ForEach, Scope,
// MapSeq) stop taking new work when the call it is nested in stops. A call
// started after that stop is not stopped by it: it is the function's
// wrap-up (a flush on Stopping), and runs all its work.
func (c *call) watchOuter() {
	if ch, ok := c.parent.Value(stoppingKey{}).(chan struct{}); ok && !closedChan(ch) {
		c.cs.Load().outer = ch // such a call holds its cancelState from the start
	}
}

// isDone reports whether ctx, whose Done channel is done (nil: ctx is
// never done), is done. It asks ctx.Err, an atomic load in the standard
// contexts, rather than receiving from done, a call into the runtime:
// Map's workers, a group's Go and the streams ask for every input or
// child. A Context's Err is non-nil once, and only once, Done is closed.
func isDone(ctx context.Context, done <-chan struct{}) bool {
	return done != nil && ctx.Err() != nil
}

// closedChan reports whether ch is closed; a nil ch never is.
func closedChan(ch <-chan struct{}) bool {
	if ch == nil {
		return false
	}
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// notStarted is the error of a child's task that never started because the
// call stopped taking new work. It is a [context.Canceled].
var notStarted error = notStartedError{}

type notStartedError struct{}

func (notStartedError) Error() string   { return "task: not started: the call stopped taking new work" }
func (notStartedError) Unwrap() []error { return []error{ErrStopped, context.Canceled} }

// stopError is why a call stopped taking new work: the caller's ctx's
// error, or, for a stop that came from elsewhere (a call it is nested in),
// the error of work not started.
func (c *call) stopError() error {
	if c.parent.Err() != nil {
		return contextError(c.parent)
	}
	return notStarted
}
