package task

import (
	"context"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/tasktuple/task/internal/probe"
)

// Scope runs body with a new [Group] and returns what body returns, once
// body and every child spawned into the group ([Spawn]) have returned,
// whatever happened: no child outlives the call. It is the dynamic form of
// RunN, for a fan-out whose size is known only as it runs: a loop over
// inputs, a crawler that spawns the links it finds, a tree walk.
//
//	user, err := task.Scope(ctx, func(ctx context.Context, g *task.Group) (User, error) {
//		tu := task.Spawn(g, loadUser)
//		to := task.Spawn(g, loadOrders)
//		u, orders, err := task.Await2(ctx, tu, to)
//		...
//		return u, err
//	})
//
// The body returns the scope's result, as Java's and Swift's scopes do.
// The rules of cancellation, errors and panics are the package's, with the
// body as a function like the children (Arg "body", Index -1, reported
// first; children by spawn order, Arg "children[i]"). What differs: what
// the body received from a child through a wait is the body's to report,
// so a child's failure that the body's error wraps is not listed again,
// and a child's panic that an await raised is not raised a second time.
// With [Settled], the result is what body returned even with an error.
// A nil ctx or body panics before anything starts.
func Scope[R any](ctx context.Context, body func(context.Context, *Group) (R, error), opts ...Option) (R, error) {
	if ctx == nil {
		nilArg("Scope", "ctx")
	}
	if body == nil {
		nilArg("Scope", "body")
	}
	g := &Group{done: make(chan struct{})}
	g.live.Store(1) // the body
	g.c.initKind(ctx, options(opts), nil, kindScope, nil)
	g.c.countBacklog(g)
	g.c.watchOuter()
	var r R
	returned := false
	defer func() {
		if !returned {
			// body called Goexit (or panicked while a Goexit unwound): wait
			// for the children, then raise a panic if there is one, or let
			// the Goexit go on.
			g.bodyEnd()
			f, err := g.join()
			g.c.callEnd(err)
			f.raiseOverGoexit()
		}
	}()
	invoke(g.c.ctx(), site{&g.c, -1}, func(ctx context.Context) (R, error) { return body(ctx, g) }, &r, &g.body)
	returned = true
	g.bodyEnd()
	f, err := g.join()
	g.c.callEnd(err)
	f.raise()
	if err != nil && g.c.opts&Settled == 0 {
		var zero R
		return zero, err
	}
	return r, err
}

// A Group is the set of children of one [Scope] call, for [Spawn] and
// [TrySpawn]. It is made by Scope and valid until Scope returns; the zero
// Group is not usable, and a Group must not be copied.
type Group struct {
	c    call    // the context, fail-fast and the outcome rules, as for RunN
	body outcome // the body's; written by Scope's goroutine

	live       atomic.Int64  // the body, while it runs, plus the children not yet returned
	notStarted atomic.Int64  // children refused by a stop
	count      atomic.Int64  // children spawned so far: the next one's index
	limit      atomic.Int64  // at most this many running; 0: no limit. Set before any Spawn
	done       chan struct{} // closed when live drops to 0

	mu         sync.Mutex       // guards the fields below
	running    int64            // children holding a slot, in a limited group
	queued     int64            // children waiting for a slot
	queue      *node            // spawned at the limit, in spawn order: waiting, or taken by a wait
	queueEnd   *node            // the last of the queue
	ended      []child          // the children that did not succeed, in the order they ended
	endedFuncs []endedCall      // the same, for the children of Group.Go
	unqueued   map[*node]func() // with probes: ends the probes' record of a queued child
}

// SetLimit limits the group to n children running at once (errgroup's
// SetLimit; [NoLimit] sets none). It panics if n is less than 1, or if a child was spawned
// already. A child spawned at the limit does not block the spawner: it
// waits, as a task with its function and no goroutine, and starts when a
// running child returns, in spawn order; after a failure that cancels the
// group, it never starts (it completes as canceled). The memory of the
// waiting children is their tasks: to stream a large input with bounded
// memory, use [MapSeq], or [TrySpawn] to decide what to do at the limit.
//
// A wait never needs a free slot: a wait (Wait, AwaitN, All, AllSeq,
// WhenAll) on a child still waiting for a slot runs that child itself,
// inline, on the waiting goroutine. So children that spawn children and
// wait for them cannot deadlock, however deep the tree. A child run inline
// by a waiting child runs in its parent's slot; one run inline by the body
// runs in addition to the n children. Not covered: WhenAny, WhenEach and
// FirstOK, which wait for whichever task comes first, do not run queued
// children; nor does anything that blocks other than a wait on the queued
// child's task (a child blocked on a channel that a queued sibling would
// fill still needs a slot to free up).
func (g *Group) SetLimit(n int) {
	if n < 1 {
		panic("task: SetLimit: n is " + strconv.Itoa(n) + "; want at least 1")
	}
	if g.count.Load() != 0 {
		panic("task: SetLimit: called after Spawn")
	}
	if n == NoLimit {
		return
	}
	g.limit.Store(int64(n))
}

// Spawn starts fn as a child of g and returns its task, which the body or
// other children may wait for. A child may spawn more children into the
// same group. When g has a limit and is at it, fn waits and starts when a
// running child returns (see [Group.SetLimit]); Spawn never blocks.
//
// fn gets the group's context (see [Scope]); its failure, panic or Goexit
// is the scope's, as for a function of RunN. Spawn costs what [Go] costs:
// two allocations (one when the child waits for a slot).
//
// Spawn panics for a nil g or fn, and when the Scope of g has returned.
func Spawn[T any](g *Group, fn func(context.Context) (T, error)) *Task[T] {
	if g == nil {
		nilArg("Spawn", "g")
	}
	if fn == nil {
		nilArg("Spawn", "fn")
	}
	c := newChild(g, fn)
	c.index = g.enter("Spawn")
	if g.admit(false, func() child { return c }) {
		go g.run(c)
	}
	return &c.Task
}

// TrySpawn is Spawn if g is below its limit, or has none: it starts fn at
// once and returns its task and true. At the limit, or while children wait
// for a slot, it starts nothing and returns nil and false (errgroup's
// TryGo). A slot is free again as soon as the task of the child that held
// it has completed. It panics as Spawn does.
func TrySpawn[T any](g *Group, fn func(context.Context) (T, error)) (*Task[T], bool) {
	if g == nil {
		nilArg("TrySpawn", "g")
	}
	if fn == nil {
		nilArg("TrySpawn", "fn")
	}
	if g.limit.Load() > 0 && !g.trySlot("TrySpawn") {
		return nil, false
	}
	c := newChild(g, fn)
	c.index = g.enter("TrySpawn")
	if g.admit(true, func() child { return c }) {
		go g.run(c)
	}
	return &c.Task, true
}

// newChild makes the child of g that runs fn.
func newChild[T any](g *Group, fn func(context.Context) (T, error)) *childTask[T] {
	c := &childTask[T]{fn: fn}
	c.g = g
	c.name = nameOf(fn)
	c.child = c
	c.x.Store(&c.extra)
	c.wg.Add(1)
	return c
}

// trySlot takes a slot of a limited group for TrySpawn, if one is free and
// no child waits for one.
func (g *Group) trySlot(name string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.running >= g.limit.Load() || g.queued > 0 {
		if g.live.Load() == 0 {
			panic("task: " + name + ": the Scope of g has returned")
		}
		return false
	}
	g.running++
	return true
}

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
		if g.running >= g.limit.Load() || g.queued > 0 {
			g.enqueue(mk())
			g.mu.Unlock()
			return false
		}
		g.running++
		g.mu.Unlock()
	}
	return true
}

// A refusal says why a child may not start.
type refusal uint8

const (
	admitted      refusal = iota
	refusedFailed         // a failure canceled the group (fail-fast)
	refusedStop           // the call stopped taking new work (the caller's ctx, Grace, Group.Stop)
)

// refusal says whether children may start now: not after a failure
// (unless the group keeps going), nor after the call stopped taking new
// work (see call.stopping).
func (g *Group) refusal() refusal {
	switch {
	case g.c.opts&KeepGoing == 0 && g.c.failed.Load():
		return refusedFailed
	case g.c.stopping():
		return refusedStop
	}
	return admitted
}

// refuse records a child that will never start, for reason r: after a
// failure, it completes as canceled with the failure as the cause, and is
// listed with the cancellations; after a stop, it completes with
// [context.Canceled] and is counted in CallError.NotStarted.
func (g *Group) refuse(c child, r refusal) {
	if r == refusedFailed {
		c.cancel(g, contextError(&g.c))
		return
	}
	g.notStarted.Add(1)
	c.cancel(nil, notStarted)
}

// Stop makes the group take no new child, as the end of the caller's ctx
// does for a Scope with [Grace]: the children waiting for a slot, and
// those spawned from now on, never start (they are counted in
// CallError.NotStarted, and their tasks fail with [context.Canceled]); the
// children running go on, and with Grace they see [Stopping] closed. It is
// for a body whose source of work has ended, an accept loop that closed.
// Stop does not cancel anything; Scope returns as always, once the body
// and the running children have returned.
func (g *Group) Stop() {
	if g == nil {
		nilArg("Group.Stop", "g")
	}
	g.c.halt()
	g.cancelQueue()
}

// backlog is the number of children waiting for a slot, for the probes'
// Stop of a Scope with Grace.
func (g *Group) backlog() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return int(g.queued)
}

// enter counts a new child in, unless the scope has ended, and returns
// its index.
func (g *Group) enter(name string) int {
	if g.live.Add(1) == 1 {
		// The body and every child had returned: the scope is over, and
		// done is closed. Undo without closing it again.
		g.live.Add(-1)
		panic("task: " + name + ": the Scope of g has returned")
	}
	return int(g.count.Add(1) - 1)
}

// A child is a task spawned into a group.
type child interface {
	links() *node
	task() *core
	start(g *Group, slot bool)  // runs the function on the calling goroutine and completes the task
	cancel(g *Group, err error) // completes the child, never started, with err; with g, listed as canceled
}

// node is the part of a child that the group links.
type node struct {
	extra             // the task's (see core.x); child is the child itself
	g       *Group    // the group of the child
	next    *node     // the next in the queue; guarded by g.mu
	index   int       // spawn order, from 0
	stop    stopKind  // own, stopCall or stopCtx: set before the task completes
	waiting waitState // guarded by g.mu
}

// A waitState says where a child of a limited group is in the queue.
type waitState uint8

const (
	notQueued waitState = iota // never queued, or taken from the queue by the goroutine of a slot
	queued                     // waiting for a slot
	taken                      // taken from the queue by a wait, which runs it inline or cancels it; still linked
)

func (n *node) links() *node { return n }

func (c *childTask[T]) task() *core { return &c.core }

// childTask is a child of type T: its task, its function and its links,
// in one allocation.
type childTask[T any] struct {
	node
	Task[T]
	fn func(context.Context) (T, error)
}

// start runs the function of c. slot says whether c holds a slot of a
// limited group, which it frees before its task completes, so that a
// TrySpawn that sees the task completed finds the slot free.
func (c *childTask[T]) start(g *Group, slot bool) {
	var v T
	var o outcome
	defer g.childEnded(c.index, &o, slot, func() {
		c.stop = o.stop
		c.complete(v, o)
	}, c)
	invoke(g.c.ctx(), site{&g.c, c.index}, c.fn, &v, &o)
}

// childEnded applies the rules to the end of child i, which ended with o:
// it frees the child's slot (if slot), then completes its task (complete),
// then, for a failure, cancels the group and the children waiting for a
// slot unless it keeps going, and keeps the outcome for the report (c is
// the child, or nil for a child of Group.Go, which has no task). The task
// is completed before the group is canceled, so that a waiter gets the
// failure itself, not the cancellation it causes (a completed task wins
// over a done ctx).
func (g *Group) childEnded(i int, o *outcome, slot bool, complete func(), c child) {
	g.c.classify(o)
	if slot {
		g.releaseSlot()
	}
	if complete != nil {
		complete()
	}
	if o.state == succeeded {
		return
	}
	g.c.trigger(i, o)
	if c != nil {
		g.addEnded(c)
	} else {
		g.addEndedFunc(i, *o)
	}
	if g.refusal() != admitted {
		g.cancelQueue()
	}
}

// cancel completes the task of c, which never started, with err; with g,
// as a cancellation the scope caused, listed in CallError.Canceled.
func (c *childTask[T]) cancel(g *Group, err error) {
	c.stop = stopCall
	c.complete(*new(T), outcome{state: failed, err: err, stop: stopCall})
	if g != nil {
		g.addEnded(c)
	}
}

// addEnded records a child that did not succeed.
func (g *Group) addEnded(c child) {
	g.mu.Lock()
	g.ended = append(g.ended, c)
	g.mu.Unlock()
}

// addEndedFunc records a child of Group.Go that did not succeed.
func (g *Group) addEndedFunc(i int, o outcome) {
	g.mu.Lock()
	g.endedFuncs = append(g.endedFuncs, endedCall{i, o})
	g.mu.Unlock()
}

// cancelQueue cancels every child waiting for a slot, after a failure
// canceled the group.
func (g *Group) cancelQueue() {
	r := g.refusal()
	for {
		g.mu.Lock()
		c := g.dequeue()
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
	if g.queueEnd == nil {
		g.queue = n
	} else {
		g.queueEnd.next = n
	}
	g.queueEnd = n
	g.queued++
	if q, ok := probe.Load().(probe.Queuer); ok {
		if g.unqueued == nil {
			g.unqueued = map[*node]func(){}
		}
		g.unqueued[n] = q.Queued(g.c.parent, "Scope", argName("children", n.index))
	}
}

// leftQueue tells the probes, if any, that n no longer waits; the caller
// holds mu.
func (g *Group) leftQueue(n *node) {
	if end, ok := g.unqueued[n]; ok {
		delete(g.unqueued, n)
		end()
	}
}

// dequeue takes the first child still waiting from the queue, or returns
// nil; the caller holds mu. The children a wait took are dropped on the way.
func (g *Group) dequeue() child {
	for n := g.queue; n != nil; n = g.queue {
		g.queue = n.next
		n.next = nil
		if g.queue == nil {
			g.queueEnd = nil
		}
		if n.waiting == queued {
			n.waiting = notQueued
			g.queued--
			g.leftQueue(n)
			return n.child
		}
	}
	return nil
}

// run runs c, which holds a slot if the group is limited, then the waiting
// children, one after another, on this goroutine, until none waits. It is
// not generic, so neither is the function its goroutines start at (see
// call.startN). If a child calls runtime.Goexit, this goroutine is
// unwinding: it starts another to take over the queue.
func (g *Group) run(c child) {
	exiting := true
	defer func() {
		if exiting {
			g.leave()
			if next := g.nextQueued(); next != nil {
				go g.run(next)
			}
		}
	}()
	for c != nil {
		c.start(g, g.limit.Load() > 0)
		g.leave()
		c = g.nextQueued()
	}
	exiting = false
}

// releaseSlot frees the slot of a child of a limited group.
func (g *Group) releaseSlot() {
	g.mu.Lock()
	g.running--
	g.mu.Unlock()
}

// nextQueued takes a free slot for the first child waiting for one, and
// returns it; or nil, if none waits or no slot is free. After a failure
// that canceled the group, the waiting children are canceled instead.
func (g *Group) nextQueued() child {
	if g.limit.Load() == 0 {
		return nil
	}
	if g.refusal() != admitted {
		g.cancelQueue()
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.running >= g.limit.Load() {
		return nil
	}
	c := g.dequeue()
	if c != nil {
		g.running++
	}
	return c
}

// runInline runs a queued child c on the calling goroutine, which waits for
// its task, and reports whether it did; false if c was no longer queued.
// The child runs in the waiter's place: it takes no slot.
func (g *Group) runInline(c child) bool {
	g.mu.Lock()
	n := c.links()
	if n.waiting != queued {
		g.mu.Unlock()
		return false
	}
	n.waiting = taken
	g.queued--
	g.leftQueue(n)
	g.mu.Unlock()
	defer g.leave() // runs on a Goexit of the child too
	if r := g.refusal(); r != admitted {
		g.refuse(c, r)
		return true
	}
	c.start(g, false)
	return true
}

// leave counts the body or a child out.
func (g *Group) leave() {
	if g.live.Add(-1) == 0 {
		close(g.done)
	}
}

// bodyEnd records the end of the body.
func (g *Group) bodyEnd() {
	g.c.ended(-1, &g.body)
	g.leave()
}

// join waits for every child and collects the outcomes: the body's first,
// then the children's in spawn order.
func (g *Group) join() (report, error) {
	if g.live.Load() != 0 {
		// Children just spawned are usually in this P's run queue: let
		// them run here before blocking, as RunN does.
		runtime.Gosched()
	}
	<-g.done
	if g.c.opts&KeepGoing == 0 {
		g.c.fail(context.Canceled)
	}
	f := g.c.report()
	pe := g.c.causeAt
	body := g.body
	f.add(-1, body, pe(-1))
	var received occurrenceCount
	if body.state == failed && body.stop == own {
		received = occurrences(body.err)
	}
	slices.SortFunc(g.ended, func(a, b child) int { return a.links().index - b.links().index })
	for _, c := range g.ended {
		n, t := c.links(), c.task()
		o := t.outcome()
		o.stop = n.stop
		switch {
		case (o.state == panicked || o.state == exited) && n.observed.Load():
			// Passed on by an await, which raised it: not raised again,
			// and not listed: the panic (or Goexit) that await raised
			// stands for it.
			continue
		case o.state == failed && o.stop == own && received.take(o.err):
			// The body received this failure and returned it: each
			// occurrence in the body's error accounts for one child, in
			// spawn order.
			continue
		}
		f.add(n.index, o, pe(n.index))
	}
	for _, e := range g.endedFuncs {
		f.add(e.i, e.o, pe(e.i))
	}
	err := f.err(g.c.parent)
	if n := g.notStarted.Load(); n > 0 {
		err = g.c.notStarted(err, int(n))
		f.e = *err.(*CallError)
	}
	return f, err
}

// hashable reports whether err can be a map key: its type is comparable
// and so is what it holds (an interface field may hold a slice).
func hashable(err error) (ok bool) {
	if !reflect.TypeOf(err).Comparable() {
		return false
	}
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	_ = map[error]bool{err: true}
	return true
}

// An occurrenceCount counts the errors in the tree of an error that can be
// compared.
type occurrenceCount map[error]int

// take reports whether err, without the name of a Named function, has an
// occurrence left, and uses it. An error that cannot be compared has none.
func (m occurrenceCount) take(err error) bool {
	_, err = unname(err)
	if m == nil || !hashable(err) || m[err] == 0 {
		return false
	}
	m[err]--
	return true
}

// occurrences counts the errors in the tree of err that can be compared,
// err itself included.
func occurrences(err error) occurrenceCount {
	m := occurrenceCount{}
	var walk func(error)
	walk = func(e error) {
		if e == nil {
			return
		}
		if hashable(e) {
			m[e]++
		}
		switch u := e.(type) {
		case interface{ Unwrap() error }:
			walk(u.Unwrap())
		case interface{ Unwrap() []error }:
			for _, x := range u.Unwrap() {
				walk(x)
			}
		}
	}
	walk(err)
	return m
}
