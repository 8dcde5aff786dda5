package task

import (
	"context"

	"github.com/tasktuple/task/internal/probe"
)

// The rounds of a Group (their rule is in Group.Wait's doc). A round
// ends when its first Wait keeps its outcome (keep): made is cleared then,
// so that the next call that starts a child (readyToSpawn) begins the next
// round (reset). A call that comes while the round ends, its children all
// returned and its outcome not yet kept, finds the group over (overBit in
// spawned) and waits for the outcome on the round's end, a channel.
//
// Rejected design: a loop of runtime.Gosched until the outcome is kept. It
// burns a core while the Wait collects, and a spinning goroutine is not
// durably blocked in a testing/synctest bubble, which then never settles
// (TestSynctestRoundEnd).

// readyToSpawn is ready for the methods that start children (and
// SetLimit): it also begins the next round of a group whose round has
// ended.
func (g *Group) readyToSpawn() {
	if !g.made.Load() {
		g.nextRound()
	}
}

// nextRound makes the zero Group, or begins the next round of a group
// whose round has ended, unless another call did first. made is cleared
// only with kept set, under mu: an ended round has kept its outcome.
func (g *Group) nextRound() {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case g.made.Load(): // another call began it
	case !g.waiting.Load(): // never made: a zero Group
		g.initZero()
	default:
		g.reset()
	}
}

// A roundEnd is the hand-off of the end of a round to the calls that wait
// for it: the Waits after the first, and a call that starts a child while
// the round ends. Made by the first of them, so that a round nobody waits
// for the end of costs nothing.
type roundEnd struct {
	kept chan struct{} // closed by the round's first Wait once it has kept the outcome
	w    *waited       // the round's outcome, set before kept is closed; nil if every child succeeded
}

// roundEnd returns the hand-off of the round's end; g.mu is held.
func (g *Group) roundEnd() *roundEnd {
	if g.end == nil {
		g.end = &roundEnd{kept: make(chan struct{})}
	}
	return g.end
}

// keep ends the round with its outcome w, for the first Wait: the other
// Waits of the round return it, and the next call that starts a child
// begins the next round.
func (g *Group) keep(w *waited) {
	g.mu.Lock()
	g.final, g.kept = w, true
	g.made.Store(false)
	if e := g.end; e != nil {
		e.w = w
		close(e.kept)
	}
	g.mu.Unlock()
}

// awaitEnd waits, for a call that found the round over, until the round
// has kept its outcome, and begins the next round unless another call did;
// g.mu is held, and is held again when it returns.
func (g *Group) awaitEnd() {
	for g.isOver() {
		if g.kept {
			g.reset()
			return
		}
		e := g.roundEnd()
		g.mu.Unlock()
		<-e.kept
		g.mu.Lock()
	}
}

// reset begins the next round of g, whose round has ended, with the
// group's options and limit; g.mu is held. The group's call is its ctx,
// which the caller of NewGroup holds and may read at any time, and which
// Wait canceled: only the round's flags are cleared (not flagHalted: a
// stop is the group's), and no field that the Context methods read, or
// that the goroutines of the round that ended read after their last child
// (nextQueued), is written but atomically or under mu. The probes are told
// of the round as a call of its own (site), as they were of the first by
// init.
//
// The round is published last, by clearing overBit: a call that counted a
// child in while the group was over (see enterNext) keeps it counted, as
// the new round's, and base tells it its index.
func (g *Group) reset() {
	n := g.returned.Load() &^ releasedBit // every child of the round that ended
	g.returned.Store(0)
	g.cause.Store(nil)
	g.ends = nil
	g.lim.queueTold = false
	g.orphan.Store(nil)
	g.later.Store(true)
	g.c.flags.And(^(flagFailing | ^uint32(0)>>firstShift<<firstShift))
	g.site = nil
	if p := probe.Load(); p != nil {
		ctx, end := p.Call(g.callerCtx, g.c.name())
		g.site = &call{parent: ctx, kind: kindGroup}
		g.c.end = end
	}
	if n := g.limit.Load(); n > 0 {
		g.quiet.Store(false)
		g.limited(int(n))
	}
	g.done.Add(1)
	g.kept, g.final, g.end = false, nil, nil
	g.round++
	g.base = n
	g.made.Store(true)
	g.spawned.Add(-(n | overBit))
	g.waiting.Store(false)
}

// enterNext is enter for a call (name) that found the group over, n being
// what enter returned: a Scope's group has returned, and the call panics;
// a Group's round has ended, or is ending, and the child is the next
// round's: enterNext waits for the round to end if it must, begins the
// next one unless another call did, and returns the child's index in it.
func (g *Group) enterNext(name string, n int64) int64 {
	if !g.hasRounds() {
		g.spawned.Add(-1) // as if never asked: the count stays the children's
		g.endedPanic(name)
	}
	g.mu.Lock()
	g.awaitEnd()
	i := n&^overBit - g.base
	g.mu.Unlock()
	return i
}

// hasRounds reports whether g is a Group, made by NewGroup or zero, which
// a call after its Wait uses again; a Scope's group ends with the Scope.
func (g *Group) hasRounds() bool { return g.callerCtx != nil }

// checkLive is enter's test for a Try form that starts nothing: if the
// group is over, it panics, or, for a Group whose round is over, begins
// the next round and reports that the Try form must ask again.
func (g *Group) checkLive(name string) (again bool) {
	if !g.isOver() {
		return false
	}
	if !g.hasRounds() {
		g.endedPanic(name)
	}
	g.mu.Lock()
	g.awaitEnd()
	g.mu.Unlock()
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
	if g.later.Load() {
		if pe := g.cause.Load(); pe != nil && pe.Index == i {
			return pe
		}
		return nil
	}
	return g.c.causeAt(i)
}
