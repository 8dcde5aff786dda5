package task

import (
	"context"

	"github.com/tasktuple/task/internal/probe"
)

// Go starts fn as a child of g that returns only an error: errgroup's Go,
// in a Scope. The child has no task and no value; its failure, panic or
// Goexit is the scope's, at its position ("children[i]", counted with the
// children of Spawn), and the rest is as for [Spawn]: the group's context,
// its limit and queue, and no start after a failure that cancels the
// group.
//
// Go panics for a nil g or fn, and when the Scope of g has returned.
func (g *Group) Go(fn func(context.Context) error) {
	if g == nil {
		nilArg("Group.Go", "g")
	}
	if fn == nil {
		nilArg("Group.Go", "fn")
	}
	g.readyToSpawn()
	i := g.enter()
	if i < 0 {
		i = g.enterNext("Group.Go")
	}
	if g.openQuiet() || g.open() {
		go g.goOpen(fn, i)
	} else if g.admit(false, func() child { return newFuncChild(g, i, fn) }) {
		go g.goFunc(fn, i)
	}
}

// TryGo is Go if g is below its limit, or has none: it starts fn at once
// and returns true. At the limit, or while children wait for a slot, it
// starts nothing and returns false (errgroup's TryGo); so it does once g
// takes no new child: after [Group.Stop] or the stop of the caller's ctx,
// and after a failure that cancels the group. It panics as Go does.
func (g *Group) TryGo(fn func(context.Context) error) bool {
	if g == nil {
		nilArg("Group.TryGo", "g")
	}
	if fn == nil {
		nilArg("Group.TryGo", "fn")
	}
	g.readyToSpawn()
	if g.refusal() != admitted {
		if g.checkLive("Group.TryGo") {
			return g.TryGo(fn)
		}
		return false
	}
	if g.limit.Load() > 0 && !g.trySlot("Group.TryGo") {
		return false
	}
	i := g.enter()
	if i < 0 {
		i = g.enterNext("Group.TryGo")
	}
	if g.admit(true, func() child { return newFuncChild(g, i, fn) }) {
		go g.goFunc(fn, i)
	}
	return true
}

// goOpen runs child i of Group.Go started with no slot, in an open group
// (see Group.open): callGo without the slot and the queue. invokeErr
// records how the child ended; the deferred end runs on a Goexit too.
func (g *Group) goOpen(fn func(context.Context) error, i int) {
	var o outcome
	defer g.openEnded(i, &o)
	invokeErr(g.ctx, site{g.at(), i}, fn, &o)
}

// openEnded ends child i of goOpen, which ended with o, and counts it out.
func (g *Group) openEnded(i int, o *outcome) {
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
	if g.callGo(fn, i, slot, w) && slot {
		if next := g.nextQueued(); next != nil {
			g.runIn(next, slot, w)
		}
	}
}

// callGo runs child i of Group.Go, ends it and counts it out. It reports
// whether it returned; if the child called runtime.Goexit, it does not,
// and, as this goroutine unwinds, the waiting children start on another.
func (g *Group) callGo(fn func(context.Context) error, i int, slot bool, w *probe.Worker) (returned bool) {
	var o outcome
	defer func() {
		if o.state != succeeded {
			g.childEnded(i, &o, slot, nil, nil)
		} else if slot {
			g.releaseSlot()
		}
		g.leave()
		returned = o.state != exited
		if !returned && slot {
			g.runQueued()
		}
	}()
	invokeErrIn(w, g.ctx, site{g.at(), i}, fn, &o)
	return
}

// A funcChild is a child of Group.Go waiting for a slot.
type funcChild struct {
	node
	fn func(context.Context) error
}

func newFuncChild(g *Group, i int, fn func(context.Context) error) *funcChild {
	c := &funcChild{fn: fn}
	c.g, c.index, c.child = g, i, c
	return c
}

func (c *funcChild) task() *core { return nil }

func (c *funcChild) start(g *Group, slot bool, w *probe.Worker) bool {
	return g.callGo(c.fn, c.index, slot, w)
}

func (c *funcChild) cancel(g *Group, err error) {
	if g != nil {
		g.addEndedFunc(c.index, outcome{state: failed, err: err, stop: stopCall})
	}
}
