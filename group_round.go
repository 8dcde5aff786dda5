package task

import (
	"context"
	"runtime"

	"github.com/tasktuple/task/internal/probe"
)

// readyToSpawn is ready for the methods that start children (and
// SetLimit): it also begins the next round of a group that has ended,
// whose Wait cleared made.
func (g *Group) readyToSpawn() {
	if !g.made.Load() {
		g.nextRound()
	}
}

// nextRound makes a group that has ended what it was before its first
// child, or makes the zero Group: errgroup's groups can be used again
// after Wait. The first Wait keeps the round's outcome before the group
// can be made again (kept); a spawn that finds the group ended while that
// Wait still collects yields until it has.
func (g *Group) nextRound() {
	for {
		g.mu.Lock()
		switch {
		case g.made.Load():
			// another spawn began it
		case !g.waiting.Load(): // never made: a zero Group
			g.zero = true
			g.init(context.Background(), zeroOptions, kindGroup)
		case g.kept.Load():
			g.reset()
		default:
			g.mu.Unlock()
			runtime.Gosched()
			continue
		}
		g.mu.Unlock()
		return
	}
}

// reset makes an ended group new, keeping its limit; g.mu is held. Every
// child has returned, so only spawns that found the group over and are
// taking their count back (see enterNext) touch it: the swap waits for them.
func (g *Group) reset() {
	n := g.returned.Load() &^ releasedBit
	for !g.spawned.CompareAndSwap(n|overBit, 0) {
		runtime.Gosched()
	}
	g.returned.Store(0)
	g.notStarted.Store(0)
	g.skipped.Store(0)
	g.cause.Store(nil)
	g.ended, g.left, g.endedFuncs = nil, nil, nil
	g.queueTold = false
	g.waiting.Store(false)
	g.final.Store(nil)
	g.orphan.Store(nil)
	g.kept.Store(false)
	if g.zero {
		g.c = call{}
		g.init(context.Background(), zeroOptions, kindGroup)
	} else {
		g.nextCall()
	}
	if n := g.limit.Load(); n > 0 {
		g.quiet.Store(false)
		g.limited(int(n))
	}
}

// nextCall begins a later round of a group made by NewGroup. Its call is
// its ctx, which the caller holds and may read at any time, and which
// Wait canceled: only the round's flags are cleared, no field that the
// Context methods read is written. The probes are told of the round as a
// call of its own (site), as they were of the first by init.
func (g *Group) nextCall() {
	g.later = true
	g.c.flags.And(^(flagHalted | flagFailing | ^uint32(0)>>firstShift<<firstShift))
	g.site = nil
	if p := probe.Load(); p != nil {
		ctx, end := p.Call(g.callerCtx, g.c.name())
		g.site = &call{parent: ctx, kind: kindGroup}
		g.c.end = end
	}
	g.done.Add(1)
	g.waitDone.Add(1)
	g.made.Store(true)
}

// enterNext is enter for a spawn (name) that found the group over: a
// Scope's has returned, and the spawn panics; a Group's round ended as the
// spawn came, and the spawn begins the next round, in which it counts its
// child and returns its index.
func (g *Group) enterNext(name string) int {
	for {
		g.spawned.Add(-1) // as if never asked: the count stays the children's
		if !g.rounds() {
			g.endedPanic(name)
		}
		g.awaitRound()
		if n := g.spawned.Add(1); n&overBit == 0 {
			return int(n - 1)
		}
	}
}

// rounds reports whether g is a Group, made by NewGroup or zero, which a
// spawn after its Wait uses again; a Scope's group ends with the Scope.
func (g *Group) rounds() bool { return g.zero || g.callerCtx != nil }

// awaitRound waits until the round of g, which is over, can begin again,
// and begins it: the Wait that ended it clears made once it has kept the
// round's outcome (see nextRound).
func (g *Group) awaitRound() {
	for g.isOver() {
		if !g.made.Load() {
			g.nextRound()
			return
		}
		runtime.Gosched()
	}
}

// checkLive is enter's test for a Try form that starts nothing: if the
// group is over, it panics, or, for a Group whose round is over, begins
// the next round and reports that the Try form must ask again.
func (g *Group) checkLive(name string) (again bool) {
	if !g.isOver() {
		return false
	}
	if !g.rounds() {
		g.endedPanic(name)
	}
	g.awaitRound()
	return true
}

// endedPanic is the panic of a child started into the group of a Scope
// that has returned (a Group's begins a new round instead).
func (g *Group) endedPanic(name string) {
	panic("task: " + name + ": the Scope of g has returned")
}

// probeCtx is the context the probes know the round's call by.
func (g *Group) probeCtx() context.Context {
	if g.site != nil {
		return g.site.parent
	}
	return g.c.parent
}

// at is the call a child of the round runs in, for the probes.
func (g *Group) at() *call {
	if g.site != nil {
		return g.site
	}
	return &g.c
}

// limited tells the probes, if any, of the round's limit.
func (g *Group) limited(n int) {
	if g.site != nil {
		if p, ok := probe.Load().(probe.Limiter); ok {
			p.Limit(g.site.parent, g.c.name(), n, -1)
		}
		return
	}
	g.c.limited(n, -1)
}

// causeAt is the group's cancellation if child i caused it: in a later
// round, the round's first failure, not the cancellation of ctx, which an
// earlier round made.
func (g *Group) causeAt(i int) *PositionError {
	if g.later {
		if pe := g.cause.Load(); pe != nil && pe.Index == i {
			return pe
		}
		return nil
	}
	return g.c.causeAt(i)
}
