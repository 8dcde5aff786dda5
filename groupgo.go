package task

import "context"

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
	i := g.enter("Group.Go")
	if g.admit(false, func() child { return newFuncChild(g, i, fn) }) {
		go g.goFunc(fn, i)
	}
}

// TryGo is Go if g is below its limit, or has none: it starts fn at once
// and returns true. At the limit, or while children wait for a slot, it
// starts nothing and returns false (errgroup's TryGo). It panics as Go
// does.
func (g *Group) TryGo(fn func(context.Context) error) bool {
	if g == nil {
		nilArg("Group.TryGo", "g")
	}
	if fn == nil {
		nilArg("Group.TryGo", "fn")
	}
	if g.limit.Load() > 0 && !g.trySlot("Group.TryGo") {
		return false
	}
	i := g.enter("Group.TryGo")
	if g.admit(true, func() child { return newFuncChild(g, i, fn) }) {
		go g.goFunc(fn, i)
	}
	return true
}

// goFunc runs child i of Group.Go, which holds a slot if the group is
// limited, then the waiting children, on this goroutine (see Group.run).
// It is not generic.
func (g *Group) goFunc(fn func(context.Context) error, i int) {
	exiting := true
	defer func() {
		if exiting {
			g.leave()
			if next := g.nextQueued(); next != nil {
				go g.run(next)
			}
		}
	}()
	g.callFunc(fn, i, g.limit.Load() > 0)
	exiting = false
	g.leave()
	if next := g.nextQueued(); next != nil {
		g.run(next)
	}
}

// callFunc runs child i of Group.Go on the calling goroutine.
func (g *Group) callFunc(fn func(context.Context) error, i int, slot bool) {
	var o outcome
	defer g.childEnded(i, &o, slot, nil, nil)
	invokeErr(g.c.ctx(), site{&g.c, i}, fn, &o)
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

func (c *funcChild) start(g *Group, slot bool) { g.callFunc(c.fn, c.index, slot) }

func (c *funcChild) cancel(g *Group, err error) {
	if g != nil {
		g.addEndedFunc(c.index, outcome{state: failed, err: err, stop: stopCall})
	}
}
