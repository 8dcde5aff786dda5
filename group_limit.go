package task

import (
	"github.com/tasktuple/task/internal/probe"
)

// The limit of a group: its slots, the queue of the children that wait
// for one, a spawner blocked at the limit (BlockAtLimit), and the start of
// a queued child by a wait.

// A groupLimit is the state of a limited group's slots and queue; guarded
// by Group.mu.
type groupLimit struct {
	running   int64         // children holding a slot
	queued    int64         // children waiting for a slot
	queue     *extra        // spawned at the limit, in spawn order: waiting, or taken by a wait
	queueEnd  *extra        // the last of the queue
	slotFree  chan struct{} // BlockAtLimit: a wake for a spawner blocked at the limit (see wakeBlocked)
	blocked   int32         // BlockAtLimit: spawners waiting on slotFree
	queueTold bool          // a probe.Tracker has the queue (see enqueue)
}

// SetLimit limits the group to n children running at once, as errgroup's
// SetLimit; a negative n sets no limit. It panics if n is 0, or if a child
// was started already in the round (see [Group.Wait]).
//
// A child started at the limit does not block the caller: it waits, as a
// task with its function and no goroutine, and starts when a running
// child returns, in spawn order; after a failure that cancels the group,
// it never starts (its task completes as canceled). With [BlockAtLimit],
// Go and Spawn block the caller instead, and nothing waits; [MapSeq]
// bounds the memory of a stream, and [TrySpawn] starts nothing at the
// limit.
//
// A wait never needs a free slot: a wait ([Task.Wait], AwaitN, All) on a
// child still waiting for a slot starts it at once, on a goroutine of its
// own, in the waiter's place: children that spawn children and wait for
// them cannot deadlock. Such a child runs in its waiter's
// slot, or, if the waiter holds none (the body of a Scope), in addition
// to the n. [WhenEach] starts no waiting child, and nor does any blocking
// but such a wait (a channel a waiting sibling would fill).
func (g *Group) SetLimit(n int) {
	if n == 0 {
		panic("task: SetLimit: n is 0; want at least 1, or a negative n for no limit")
	}
	g.readyToSpawn()
	if g.isOver() && g.hasRounds() {
		// The round ended as SetLimit came: SetLimit begins the next.
		g.mu.Lock()
		g.awaitEnd()
		g.mu.Unlock()
	}
	if g.spawned.Load()&^overBit != 0 {
		panic("task: SetLimit: called after a child was started (Go or Spawn)")
	}
	if n < 0 || n == noLimit {
		g.limit.Store(0) // a round before may have had one
		return
	}
	g.limit.Store(int64(n))
	g.quiet.Store(false)
	g.limited(n)
}

// trySlot takes a slot of a limited group for TrySpawn, if one is free and
// no child waits for one.
func (g *Group) trySlot(name string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.lim.running >= g.limit.Load() || g.lim.queued > 0 {
		if g.isOver() && !g.hasRounds() { // never a Group's: an ended round runs and queues nothing
			g.endedPanic(name)
		}
		return false
	}
	g.lim.running++
	return true
}

// blockForSlot is admit at the limit with BlockAtLimit: it blocks until a
// slot is free and takes it, or until the group refuses children: a
// failure, a stop, or the end of the caller's ctx, which it watches too
// (unless the group starts every child whatever ctx does: KeepGoing or
// StartAll, without Grace). The caller holds mu; blockForSlot releases
// it. It waits on a channel, so that a spawner in a synctest bubble is
// durably blocked.
func (g *Group) blockForSlot(mk func() child) bool {
	if g.lim.slotFree == nil {
		g.lim.slotFree = make(chan struct{}, 1)
	}
	done := g.parentDone
	if g.c.startsAnyway() {
		done = nil
	}
	for g.lim.running >= g.limit.Load() {
		if g.refusal() != admitted {
			break
		}
		g.lim.blocked++
		g.mu.Unlock()
		select {
		case <-g.lim.slotFree:
		case <-done:
		case <-g.cs.outer:
		}
		g.mu.Lock()
		g.lim.blocked--
	}
	if r := g.refusal(); r != admitted {
		g.wakeBlocked() // the others are refused too
		g.mu.Unlock()
		g.refuse(mk(), r)
		g.leave()
		return false
	}
	g.lim.running++
	if g.lim.running < g.limit.Load() {
		g.wakeBlocked() // more than one slot freed
	}
	g.mu.Unlock()
	return true
}

// wakeBlocked wakes one spawner blocked at the limit, if any, to look
// again; each woken passes the wake on while slots are free or the group
// refuses children. The caller holds mu.
func (g *Group) wakeBlocked() {
	if g.lim.blocked > 0 {
		select {
		case g.lim.slotFree <- struct{}{}:
		default: // a wake is pending already
		}
	}
}

// backlog is the number of children waiting for a slot, for the probes'
// Stop of a Scope with Grace.
func (g *Group) backlog() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return int(g.lim.queued)
}

// A waitState says where a child of a limited group is in the queue.
type waitState uint8

const (
	notQueued waitState = iota // never queued, or taken from the queue by the goroutine of a slot
	queued                     // waiting for a slot
	taken                      // taken from the queue by a wait, which starts it or cancels it; still linked
)

// cancelQueue cancels every child waiting for a slot, after a failure
// canceled the group.
func (g *Group) cancelQueue() {
	r := g.refusal()
	g.mu.Lock()
	g.wakeBlocked() // BlockAtLimit: the spawners blocked at the limit see the refusal
	round := g.round
	g.mu.Unlock()
	for {
		g.mu.Lock()
		var c child
		if g.round == round { // the last child refused may end the round, and a call begin the next
			c = g.dequeue()
		}
		if c != nil {
			c.links().waiting = taken
		}
		g.mu.Unlock()
		if c == nil {
			return
		}
		g.refuse(c, r)
		g.leave()
	}
}

// enqueue makes c wait for a slot; the caller holds mu.
func (g *Group) enqueue(c child) {
	n := c.links()
	n.waiting = queued
	if g.lim.queueEnd == nil {
		g.lim.queue = n
	} else {
		g.lim.queueEnd.next = n
	}
	g.lim.queueEnd = n
	g.lim.queued++
	if !g.lim.queueTold {
		g.lim.queueTold = true
		if t := probe.LoadTracker(); t != nil {
			t.Queue(g.probeCtx(), (*queueView)(g))
		}
	}
}

// queueLeft takes the queue back from a probe.Tracker once none waits, so
// that the Tracker holds no group nobody waits for; the caller holds mu.
func (g *Group) queueLeft() {
	if g.lim.queued == 0 && g.lim.queueTold {
		g.lim.queueTold = false
		if t := probe.LoadTracker(); t != nil {
			t.Queue(g.probeCtx(), nil)
		}
	}
}

// A queueView is a Group as a probe.Tracker sees its queue: a type of its
// own, so that Waiting is no method of Group.
type queueView Group

// Waiting lists the children waiting for a slot (see probe.Queue).
func (q *queueView) Waiting(most int, yield func(arg string, i int, name string)) int {
	g := (*Group)(q)
	g.mu.Lock()
	defer g.mu.Unlock()
	listed := 0
	for n := g.lim.queue; n != nil && listed < most; n = n.next {
		if n.waiting != queued {
			continue
		}
		name := n.name
		if c, ok := n.child.(*funcChild); ok {
			name = nameOfFunc(c.fn)
		}
		yield("children", n.child.mem().index, name)
		listed++
	}
	return int(g.lim.queued)
}

// dequeue takes the first child still waiting from the queue, or returns
// nil; the caller holds mu. The children a wait took are dropped on the way.
func (g *Group) dequeue() child {
	for n := g.lim.queue; n != nil; n = g.lim.queue {
		g.lim.queue = n.next
		n.next = nil
		if g.lim.queue == nil {
			g.lim.queueEnd = nil
		}
		if n.waiting == queued {
			n.waiting = notQueued
			g.lim.queued--
			g.queueLeft()
			return n.child
		}
	}
	return nil
}

// run runs c, which holds a slot if the group is limited, then the waiting
// children, one after another, on this goroutine, until none waits. It is
// not generic, so neither is the function its goroutines start at (see
// call.startN). If a child calls runtime.Goexit, this goroutine is
// unwinding: the child's start hands the queue to another (handOff).
//
// A probe.Tracker follows the children it runs in one Worker.
func (g *Group) run(c child) {
	slot := g.limit.Load() > 0
	w, t := g.worker(slot)
	if w != nil {
		defer t.Free(w)
	}
	g.runIn(c, slot, w)
}

// runIn is run in w, if not nil.
func (g *Group) runIn(c child, slot bool, w *probe.Worker) {
	for c != nil {
		c = c.start(g, slot, w)
	}
}

// worker returns a probe.Tracker's Worker for a goroutine of a limited
// group (slot), which runs children one after another, or nil.
func (g *Group) worker(slot bool) (*probe.Worker, probe.Tracker) {
	if slot {
		if t := probe.LoadTracker(); t != nil {
			return t.Worker(g.ctx, g.probeCtx(), kindNames[g.c.kind].arg), t
		}
	}
	return nil, nil
}

// handOff takes the slot a child of a limited group has freed for the
// first child waiting for one, and returns it, for the goroutine of the
// child that ended to run next; if that child called runtime.Goexit
// (exited), this goroutine is unwinding, and the next child runs on
// another. It is called before the child that ended is counted out: once
// it is, the round may end and the next begin, whose queue and state are
// not this goroutine's to take or refuse.
func (g *Group) handOff(exited bool) child {
	next := g.nextQueued()
	if exited && next != nil {
		go g.run(next)
		return nil
	}
	return next
}

// releaseSlot frees the slot of a child of a limited group.
func (g *Group) releaseSlot() {
	g.mu.Lock()
	g.lim.running--
	g.wakeBlocked()
	g.mu.Unlock()
}

// nextQueued takes a free slot for the first child waiting for one, and
// returns it; or nil, if none waits or no slot is free. After a failure
// that canceled the group, the waiting children are canceled instead.
func (g *Group) nextQueued() child {
	if g.limit.Load() == 0 {
		return nil
	}
	g.mu.Lock()
	// Under mu, where a failing child frees its slot only after it has
	// noted the failure (see refusedSince).
	if g.refusal() != admitted {
		g.mu.Unlock()
		g.cancelQueue()
		return nil
	}
	defer g.mu.Unlock()
	if g.lim.running >= g.limit.Load() {
		return nil
	}
	c := g.dequeue()
	if c != nil {
		g.lim.running++
	}
	return c
}

// startWaited starts a queued child c at once, for a goroutine that is
// about to wait for its task: the child takes the waiter's place rather
// than a slot, on a goroutine of its own. Nothing happens if c is no longer
// queued.
//
// Rejected design: running c on the waiting goroutine itself, as .NET's
// scheduler inlines a task that has not started. A Goexit of c (t.FailNow)
// would then end the waiter at once, before the wait has waited for its
// other tasks, and the waiter's own Goexit would be reported next to c's.
func (g *Group) startWaited(c child) {
	g.mu.Lock()
	n := c.links()
	if n.waiting != queued {
		g.mu.Unlock()
		return
	}
	n.waiting = taken
	g.lim.queued--
	g.queueLeft()
	g.mu.Unlock()
	if r := g.refusal(); r != admitted {
		g.refuse(c, r)
		g.leave()
		return
	}
	go g.runWaited(c)
}

// runWaited runs a child that a wait started (see startWaited). It is not
// generic (see call.startN).
func (g *Group) runWaited(c child) {
	c.start(g, false, nil)
}
