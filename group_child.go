package task

import (
	"context"

	"github.com/tasktuple/task/internal/probe"
)

// A child is a task spawned into a group.
type child interface {
	mem() *member
	links() *extra // the child's extra, made if it has none (see shareExtra)
	task() *core
	start(g *Group, slot bool, w *probe.Worker) child // runs the function on the calling goroutine (in w, if not nil), ends the child and counts it out; returns the child that takes its slot next, if any (see handOff)
	cancel(g *Group, err error)                       // completes the child, never started, with err; with g, listed as canceled
}

// member is where a child belongs: its group and its position.
type member struct {
	g     *Group // the group of the child
	index int    // spawn order, from 0
}

func (m *member) mem() *member { return m }

// childTask is a child of type T: its task and its function, in one
// allocation; a child of a limited group, or of a Named function, has its
// extra in it too (childExtra). The rest of what the group keeps of a child
// is in its extra, made when the child ends otherwise than by a success.
type childTask[T any] struct {
	member
	Task[T]
	fn func(context.Context) (T, error)
}

// childExtra is a child that has its extra from its spawn, in the same
// allocation.
type childExtra[T any] struct {
	childTask[T]
	ex extra
}

func (c *childTask[T]) task() *core   { return &c.core }
func (c *childTask[T]) links() *extra { return c.shareExtra() }

// goRun runs c in the goroutine Spawn starts (see Group.run): a go
// statement that holds c alone. Without a limit, the child holds no slot
// and no child waits for one: c is all the goroutine runs.
func (c *childTask[T]) goRun() {
	g := c.g
	if g.limit.Load() > 0 {
		g.run(c)
		return
	}
	if probe.Load() != nil {
		c.start(g, false, nil)
		return
	}
	c.startFree(g)
}

// startFree is start for a child that holds no slot, without probes: it
// calls the function itself, with one deferred call (freeEnded) for
// invokeFn's and start's. Out of goRun so that the frames of the other
// paths stay as small as they were (see TestChildFrames).
func (c *childTask[T]) startFree(g *Group) {
	var v T
	var o outcome
	o.begin()
	defer c.freeEnded(g, &v, &o)
	v, o.err = c.fn(g.ctx)
	o.state = endState(o.err)
}

// freeEnded, deferred by startFree, is recovered, then start's end.
func (c *childTask[T]) freeEnded(g *Group, v *T, o *outcome) {
	if o.state == exited {
		settleExit(v, o, recover())
	}
	c.end(g, *v, o, false)
	g.leave()
}

// start runs the function of c, ends c and counts it out. slot says
// whether c holds a slot of a limited group, which it frees before its
// task completes, so that a TrySpawn that sees the task completed finds
// the slot free; it then returns the child waiting for a slot that this
// goroutine runs next, if any (see handOff).
func (c *childTask[T]) start(g *Group, slot bool, w *probe.Worker) (next child) {
	var v T
	var o outcome
	defer func() {
		c.end(g, v, &o, slot)
		if slot {
			next = g.handOff(o.state == exited)
		}
		g.leave()
	}()
	invokeIn(w, g.ctx, site{g.at(), c.index}, c.fn, &v, &o)
	return
}

// end completes the task of c with v and o, and applies the rules
// (childEnded) unless the child succeeded.
func (c *childTask[T]) end(g *Group, v T, o *outcome, slot bool) {
	if o.state == succeeded {
		if slot {
			g.releaseSlot()
		}
		c.succeed(v)
		return
	}
	g.childEnded(c.index, o, slot, func() {
		c.shareExtra().stop = o.stop // a waiter records there too that it passed a panic on
		c.complete(v, *o)
	}, c)
}

// childEnded applies the rules to the end of child i, which did not
// succeed but ended with o (a success only frees its slot and completes,
// in its caller): it frees the child's slot (if slot), then completes its
// task (complete), then cancels the group and the children waiting for a
// slot unless it keeps going, and keeps the outcome for the report (c is
// the child, or nil for a child of Group.Go, which has no task). The task
// is completed before the group is canceled, so that a waiter gets the
// failure itself, not the cancellation it causes (a completed task wins
// over a done ctx).
func (g *Group) childEnded(i int, o *outcome, slot bool, complete func(), c child) {
	g.c.classify(o)
	g.c.noteFirst(i, o)
	g.watchPanic(o)
	failFast := g.c.failsFast(o)
	if failFast {
		g.noteCause(i, o)
	}
	if slot {
		g.releaseSlot()
	}
	if complete != nil {
		complete()
	}
	if failFast {
		g.c.fail(g.cause.Load()) // trigger's rule, with the cause given to the refused
	}
	if c != nil {
		g.addEnded(c)
	} else {
		g.addEndedFunc(i, *o)
	}
	if g.refusal() != admitted {
		g.cancelQueue()
	}
}

// noteCause publishes the failure of child i as the cause of the group's
// coming cancellation. A waiter woken by the task's completion must not
// start a queued child before the group is canceled: from here on no child
// starts, and a child refused before the cancellation is given the cause
// the cancellation will carry (failedError).
//
// It is out of line on purpose: a report is over 400 bytes, and in
// childEnded's frame it made every child's goroutine outgrow its first
// stack, on the success path too (a copy of the stack per child; see
// TestChildFrames).
//
//go:noinline
func (g *Group) noteCause(i int, o *outcome) {
	r := g.c.report()
	if g.cause.CompareAndSwap(nil, r.at(i, o.err)) {
		g.c.setFlag(flagFailing)
	}
}

// cancel completes the task of c, which never started, with err; with g,
// as a cancellation the scope caused, listed in CallError.Canceled.
func (c *childTask[T]) cancel(g *Group, err error) {
	c.shareExtra().stop = stopCall
	c.complete(*new(T), outcome{state: failed, err: err, stop: stopCall})
	if g != nil {
		g.addEnded(c)
	}
}

// A groupEnds lists the children of a round that did not succeed, or were
// refused, for Wait's or Scope's report: made by the first of them, so
// that a round whose children all succeed has none. Guarded by Group.mu
// until the group is over.
type groupEnds struct {
	ended      []child     // the children that did not succeed, in the order they ended
	left       []int       // the children refused (never started), in the order they were
	notStarted int         // of left, those refused by a stop
	skipped    int         // of left, those refused after a failure
	endedFuncs []endedCall // the same as ended, for the children of Group.Go
}

// endsLocked returns the round's list of ends, making it; g.mu is held.
func (g *Group) endsLocked() *groupEnds {
	if g.ends == nil {
		g.ends = new(groupEnds)
	}
	return g.ends
}

// addEnded records a child that did not succeed.
func (g *Group) addEnded(c child) {
	g.mu.Lock()
	e := g.endsLocked()
	e.ended = append(e.ended, c)
	g.mu.Unlock()
}

// addEndedFunc records a child of Group.Go that did not succeed.
func (g *Group) addEndedFunc(i int, o outcome) {
	g.mu.Lock()
	e := g.endsLocked()
	e.endedFuncs = append(e.endedFuncs, endedCall{i, o})
	g.mu.Unlock()
}

// goOpen runs child i of Group.Go started with no slot, in an open group
// (see Group.open): callGo without the slot and the queue. Without probes
// it calls fn itself, as startFree does; the deferred end runs on a Goexit
// too.
func (g *Group) goOpen(fn func(context.Context) error, i int) {
	var o outcome
	if probe.Load() != nil {
		defer g.openEnded(i, &o, false)
		invokeErr(g.ctx, site{g.at(), i}, fn, &o)
		return
	}
	o.begin()
	defer g.openEnded(i, &o, true)
	o.err = fn(g.ctx)
	o.state = endState(o.err)
}

// openEnded ends child i of goOpen, which ended with o, and counts it out.
// called says that goOpen called fn itself, without probes: openEnded then
// does recovered's work first. With probes, invokeErr did, and a panic of
// a probe's own is not the child's: it goes on.
func (g *Group) openEnded(i int, o *outcome, called bool) {
	if called && o.state == exited {
		var none struct{}
		settleExit(&none, o, recover())
	}
	if o.state != succeeded {
		g.childEnded(i, o, false, nil, nil)
	}
	g.leave()
}

// goFunc runs child i of Group.Go, which holds a slot if the group is
// limited, then the waiting children, on this goroutine (see Group.run).
// It is not generic.
func (g *Group) goFunc(fn func(context.Context) error, i int) {
	slot := g.limit.Load() > 0
	w, t := g.worker(slot)
	if w != nil {
		defer t.Free(w)
	}
	if next := g.callGo(fn, i, slot, w); next != nil {
		g.runIn(next, slot, w)
	}
}

// callGo runs child i of Group.Go, ends it and counts it out. With a slot,
// it returns the child waiting for a slot that this goroutine runs next,
// if any (see handOff).
func (g *Group) callGo(fn func(context.Context) error, i int, slot bool, w *probe.Worker) (next child) {
	var o outcome
	defer func() {
		if o.state != succeeded {
			g.childEnded(i, &o, slot, nil, nil)
		} else if slot {
			g.releaseSlot()
		}
		if slot {
			next = g.handOff(o.state == exited)
		}
		g.leave()
	}()
	invokeErrIn(w, g.ctx, site{g.at(), i}, fn, &o)
	return
}

// A funcChild is a child of Group.Go waiting for a slot.
type funcChild struct {
	member
	ex extra
	fn func(context.Context) error
}

func newFuncChild(g *Group, i int, fn func(context.Context) error) *funcChild {
	c := &funcChild{member: member{g, i}, fn: fn}
	c.ex.child = c
	return c
}

func (c *funcChild) task() *core   { return nil }
func (c *funcChild) links() *extra { return &c.ex }

func (c *funcChild) start(g *Group, slot bool, w *probe.Worker) child {
	return g.callGo(c.fn, c.index, slot, w)
}

func (c *funcChild) cancel(g *Group, err error) {
	if g != nil {
		g.addEndedFunc(c.index, outcome{state: failed, err: err, stop: stopCall})
	}
}
