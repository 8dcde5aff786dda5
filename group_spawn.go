package task

import (
	"context"
)

// Go starts fn as a child of g that returns only an error: errgroup's Go.
// The child has no task and no value; its failure, panic or Goexit is the
// group's, at its position ("children[i]", counted with the children of
// Spawn), and the rest is as for [Spawn]: the group's context, its limit,
// and no start after a failure that cancels the group.
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
	n := g.enter()
	if n&overBit != 0 {
		n = g.enterNext("Group.Go", n)
	}
	i := int(n)
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
	n := g.enter()
	if n&overBit != 0 {
		n = g.enterNext("Group.TryGo", n)
	}
	i := int(n)
	if g.admit(true, func() child { return newFuncChild(g, i, fn) }) {
		go g.goFunc(fn, i)
	}
	return true
}

// Spawn starts fn as a child of g and returns its task, which the body or
// other children may wait for. A child may spawn more children into the
// same group. When g has a limit and is at it, fn waits for a slot and
// Spawn returns (see [Group.SetLimit]); with [BlockAtLimit], Spawn blocks
// instead, until a slot is free or the group takes no new child.
//
// fn gets the group's context (see [Scope]); its failure, panic or Goexit
// is the group's, as for a function of RunN.
//
// Spawn panics for a nil g or fn, and when the Scope of g has returned.
func Spawn[T any](g *Group, fn func(context.Context) (T, error)) *Task[T] {
	if g == nil {
		nilArg("Spawn", "g")
	}
	if fn == nil {
		nilArg("Spawn", "fn")
	}
	g.readyToSpawn()
	c := newChild(g, fn)
	n := g.enter()
	if n&overBit != 0 {
		n = g.enterNext("Spawn", n)
	}
	c.index = int(n)
	if g.openQuiet() || g.open() || g.admit(false, func() child { return c }) {
		go c.goRun()
	}
	return &c.Task
}

// TrySpawn is Spawn if g is below its limit, or has none: it starts fn at
// once and returns its task and true. At the limit, or while children wait
// for a slot, it starts nothing and returns nil and false (errgroup's
// TryGo); so it does once g takes no new child: after [Group.Stop] or the
// stop of the caller's ctx, and after a failure that cancels the group. A
// slot is free again as soon as the task of the child that held it has
// completed. It panics as Spawn does.
func TrySpawn[T any](g *Group, fn func(context.Context) (T, error)) (*Task[T], bool) {
	if g == nil {
		nilArg("TrySpawn", "g")
	}
	if fn == nil {
		nilArg("TrySpawn", "fn")
	}
	g.readyToSpawn()
	if g.refusal() != admitted {
		if g.checkLive("TrySpawn") {
			return TrySpawn(g, fn)
		}
		return nil, false
	}
	if g.limit.Load() > 0 && !g.trySlot("TrySpawn") {
		return nil, false
	}
	c := newChild(g, fn)
	n := g.enter()
	if n&overBit != 0 {
		n = g.enterNext("TrySpawn", n)
	}
	c.index = int(n)
	if g.admit(true, func() child { return c }) {
		go c.goRun()
	}
	return &c.Task, true
}

// newChild makes the child of g that runs fn.
func newChild[T any](g *Group, fn func(context.Context) (T, error)) *childTask[T] {
	var name string
	if namedPCs.Load() != nil { // no function was ever Named: no look-up
		name = nameOf(fn)
	}
	var c *childTask[T]
	if name != "" || g.limit.Load() > 0 {
		// A wait looks up the name of a pending task, and starts a
		// queued one, through x; so x is set from the start, in the
		// child's allocation. Otherwise x is made only when a child ends
		// otherwise than by a success, or is refused (shareExtra).
		ce := &childExtra[T]{}
		c = &ce.childTask
		ce.ex.name, ce.ex.child = name, c
		c.x.Store(&ce.ex)
	} else {
		c = new(childTask[T])
	}
	c.fn, c.g = fn, g
	c.made = true
	return c
}

// shareExtra returns the extra of the task of c (see core.x), made if the
// task has none: by the goroutine that completes the task otherwise than
// by a success, before it does, or by the group that lists or queues the
// child.
func (c *childTask[T]) shareExtra() *extra {
	if x := c.x.Load(); x != nil {
		return x
	}
	x := &extra{child: c}
	if c.x.CompareAndSwap(nil, x) {
		return x
	}
	return c.x.Load()
}

// The group's two counts, spawned and returned: a group is over once the
// body (or Wait) has let go (released) and every child spawned has
// returned. Each spawn adds one to spawned, each child's end (or refusal)
// one to returned: one atomic operation each, as a WaitGroup's, but on two
// lines, so that the spawner and children running on other cores do not
// pass one line back and forth for every child.
//
// Who sees the group end: the body's or Wait's release sets releasedBit
// in returned, and every child's end after it gets the bit back from its
// own addition. Both are operations on returned, so the last of them (the
// release, or the end of the last child) sees every end before it, and
// calls over with the count of ends it saw. over ends the group if spawned
// holds exactly that count: then no child is running, so none can spawn,
// and overBit, set by a compare-and-swap with that count, refuses any
// later spawn (enter panics). A spawn that came in between makes the swap
// fail, and its child's end is the one that ends the group.
const (
	releasedBit = 1 << 62 // in returned: the body (or Wait) has let go
	overBit     = 1 << 62 // in spawned: the group is over
)

// enter counts a new child in and returns its index, with overBit if the
// group is over: the caller then asks enterNext, so that enter is inlined.
func (g *Group) enter() int64 { return g.spawned.Add(1) - 1 }

// leave counts a child out: it returned, or was refused.
func (g *Group) leave() {
	if n := g.returned.Add(1); n > releasedBit { // the bit is set: the count is below it
		g.over(n - releasedBit)
	}
}

// release lets the group end once every child has returned: the body has
// returned, or Wait was called.
func (g *Group) release() {
	g.over(g.returned.Or(releasedBit))
}

// over ends the group if the children spawned are the returned ones
// counted, and nothing ended it before. Out of line, so that leave is
// inlined in every child's end.
//
//go:noinline
func (g *Group) over(returned int64) {
	if g.spawned.Load() == returned && g.spawned.CompareAndSwap(returned, returned|overBit) {
		g.done.Done()
	}
}

// isOver reports whether the group is over.
func (g *Group) isOver() bool { return g.spawned.Load()&overBit != 0 }

// admit decides what becomes of a child that has entered the group, and
// reports whether the caller starts it now, in a new goroutine: it may if
// it has a slot (hasSlot) or can take one. Otherwise it waits in the queue,
// as the child mk returns; after a failure that cancels the group, it
// never starts: it is canceled. mk is called only then, so that a child of
// Group.Go that starts at once costs no record.
func (g *Group) admit(hasSlot bool, mk func() child) bool {
	if r := g.refusal(); r != admitted {
		if hasSlot {
			g.releaseSlot()
		}
		g.refuse(mk(), r)
		g.leave()
		return false
	}
	if !hasSlot && g.limit.Load() > 0 {
		g.mu.Lock()
		if g.lim.running >= g.limit.Load() || g.lim.queued > 0 {
			if g.c.blocks() {
				return g.blockForSlot(mk)
			}
			g.enqueue(mk())
			g.mu.Unlock()
			return false
		}
		if r := g.refusedSince(); r != admitted {
			g.mu.Unlock()
			g.refuse(mk(), r)
			g.leave()
			return false
		}
		g.lim.running++
		g.mu.Unlock()
	}
	return true
}

// refusedSince is refusal, under mu, once admit's first look has admitted
// a child: a failing child frees its slot (under mu) after it notes the
// failure (flagFailing), so a spawner that finds that slot free finds the
// failure too, and must not start a child in it. Without a failure it
// tests one word: a stop frees no slot. The caller holds mu.
func (g *Group) refusedSince() refusal {
	if g.c.flags.Load()&(flagFailed|flagFailing) == 0 {
		return admitted
	}
	return g.refusal()
}

// open reports whether a child may start at once, with no look at the
// queue: the group has no limit, and nothing has failed or stopped it (see
// refusal). It is the success path's one test; when it says no, admit
// decides.
func (g *Group) open() bool {
	return g.limit.Load() == 0 &&
		g.c.flags.Load()&(flagHalted|flagFailed|flagFailing) == 0 &&
		!closedChan(g.cs.outer) && !isDone(g.c.parent, g.parentDone)
}

// openQuiet is open for a group with no limit, under a ctx that is never
// done and outside a call with Grace (quiet): it has no channel to look
// at. It is inlined and tests two words; when it says no, ask open.
func (g *Group) openQuiet() bool {
	return g.quiet.Load() && g.c.flags.Load()&(flagHalted|flagFailed|flagFailing) == 0
}

// A refusal says why a child may not start.
type refusal uint8

const (
	admitted      refusal = iota
	refusedFailed         // a failure canceled the group (fail-fast)
	refusedStop           // the call stopped taking new work (the caller's ctx, Grace, Group.Stop)
)

// refusal says whether children may start now: not after a failure
// (unless the group keeps going, or starts all), nor after the call
// stopped taking new work (see call.stopping).
func (g *Group) refusal() refusal {
	// A failure that came first drained the queue when it happened
	// (childEnded). With KeepGoing nothing fails the group before it
	// ends; with StartAll a failure refuses nothing.
	r := g.c.leftBy(g.c.stopping())
	if r == refusedFailed && (g.c.startsAll() || g.later.Load() && !g.c.isFailing()) {
		// In a later round, the cancellation of ctx by an earlier one's
		// Wait refuses nothing: only the round's own failure does.
		return admitted
	}
	return r
}

// refuse records a child that will never start, for reason r, and its
// position, counted in CallError.NotStarted: after a failure, its task
// completes as canceled with the failure as the cause; after a stop, with
// [context.Canceled].
func (g *Group) refuse(c child, r refusal) {
	g.mu.Lock()
	e := g.endsLocked()
	e.left = append(e.left, c.mem().index)
	if r == refusedFailed {
		e.skipped++
	} else {
		e.notStarted++
	}
	g.mu.Unlock()
	if r == refusedFailed {
		c.cancel(nil, g.failedError())
		return
	}
	c.cancel(nil, notStarted)
}

// failedError is the error of a child refused after a failure: the
// cancellation of the group with the failure as its cause, made here
// rather than read from the group's context, which a refusal may read
// between the failure and the cancellation (a wait woken by the failed
// task's completion, a Spawn; see childEnded and call.fail). In a later
// round, the cause is the round's own failure, not the cancellation of
// ctx by an earlier round's Wait.
func (g *Group) failedError() error {
	cause := error(g.cause.Load())
	if g.c.hasFailed() && !g.later.Load() {
		cause = g.c.first() // written before flagFailed is set (call.fail)
	}
	return &causeError{err: context.Canceled, cause: cause}
}
