package task

import (
	"context"
	"reflect"
	"runtime"
	"slices"
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
	g := new(Group)
	g.init(ctx, options("Scope", famScope, opts), kindScope)
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
	g.settle()
	if g.body.state == succeeded && g.succeeded() {
		g.c.callEnd(nil)
		return r, nil // the success path: nothing to collect
	}
	f, err := g.collect()
	err = g.c.conclude(&f, err)
	if err != nil && !g.c.settled() {
		var zero R
		return zero, err
	}
	return r, err
}

// A Group is a set of children: functions started by [Group.Go] and
// [Spawn] (and their Try forms), which run in goroutines of their own under
// one set of rules (see [Scope]). A Group is made by [Scope], for its body,
// and valid until Scope returns; or by [NewGroup], and waited for with
// [Group.Wait]. A Group must not be copied once used.
//
// The zero Group is ready to use, as errgroup's is, and behaves as
// errgroup's zero Group: it is NewGroup(context.Background(), KeepGoing,
// FirstError), made by the first of its methods to be called. A failure
// cancels nothing and every child runs; Wait returns the first failure as
// its function returned it. It can be used again after Wait, in rounds,
// as any Group (see [Group.Wait]).
type Group struct {
	// Read by every child and every spawn, written seldom (at the start,
	// on a failure or a stop): apart from the counters below, which every
	// spawn and every child's end write, so that reading them does not
	// wait for those lines to come back from another core.
	c          call                          // the context, fail-fast and the outcome rules, as for RunN
	body       outcome                       // the body's; written by Scope's goroutine
	limit      atomic.Int64                  // at most this many running; 0: no limit. Set before any Spawn
	parentDone <-chan struct{}               // the caller's ctx's Done, for open
	ctx        context.Context               // the children's context: c.ctx(), set by init
	quiet      atomic.Bool                   // no limit, no parentDone and no outer call: open looks no further than the flags
	made       atomic.Bool                   // init has run (see ready)
	notStarted atomic.Int64                  // children refused by a stop
	skipped    atomic.Int64                  // children refused after a failure
	cause      atomic.Pointer[PositionError] // the failure of the first child that failed: fail-fast is under way (flagFailing)
	groupWait                                // NewGroup's: the state of Wait

	// The count of children: spawned, on the spawners' line, and
	// returned, on the children's, so that a spawn and a child's end do
	// not take a line from each other (see enter and leave).
	_        cacheLinePad
	returned atomic.Int64   // children returned or refused, plus releasedBit once the body (or Wait) let go: every child's end
	done     sync.WaitGroup // 1 until the group is over: no channel to allocate
	_        cacheLinePad
	spawned  atomic.Int64 // children entered so far, the next one's index, plus overBit once the group is over: every spawn
	_        cacheLinePad

	mu         sync.Mutex    // guards the fields below
	running    int64         // children holding a slot, in a limited group
	queued     int64         // children waiting for a slot
	queue      *node         // spawned at the limit, in spawn order: waiting, or taken by a wait
	queueEnd   *node         // the last of the queue
	ended      []child       // the children that did not succeed, in the order they ended
	left       []int         // the children refused (never started), in the order they were
	endedFuncs []endedCall   // the same, for the children of Group.Go
	queueTold  bool          // a probe.Tracker has the queue (see enqueue)
	slotFree   chan struct{} // BlockAtLimit: a wake for a spawner blocked at the limit (see wakeBlocked)
	blocked    int           // BlockAtLimit: spawners waiting on slotFree
}

// A cacheLinePad keeps the fields around it on cache lines of their own
// (64 bytes on the machines Go runs on most), so that a core writing one
// does not take from the others the line of those they read.
type cacheLinePad struct{ _ [64]byte }

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
	g.readyToSpawn()
	c := newChild(g, fn)
	if c.index = g.enter(); c.index < 0 {
		c.index = g.enterNext("Spawn")
	}
	if g.openQuiet() || g.open() || g.admit(false, func() child { return c }) {
		go g.run(c)
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
	if c.index = g.enter(); c.index < 0 {
		c.index = g.enterNext("TrySpawn")
	}
	if g.admit(true, func() child { return c }) {
		go g.run(c)
	}
	return &c.Task, true
}

// newChild makes the child of g that runs fn.
func newChild[T any](g *Group, fn func(context.Context) (T, error)) *childTask[T] {
	c := &childTask[T]{fn: fn}
	c.g = g
	if namedPCs.Load() != nil { // no function was ever Named: no look-up
		c.name = nameOf(fn)
	}
	c.child = c
	c.x.Store(&c.extra)
	c.wg.Add(1)
	return c
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

// enter counts a new child in, unless the group is over, and returns its
// index; -1 if the group is over, for enterNext, with the count to take
// back. The spawns call enterNext themselves, so that enter is inlined.
func (g *Group) enter() int {
	n := g.spawned.Add(1)
	if n&overBit != 0 {
		return -1
	}
	return int(n - 1)
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

// A child is a task spawned into a group.
type child interface {
	links() *node
	task() *core
	start(g *Group, slot bool, w *probe.Worker) bool // runs the function on the calling goroutine (in w, if not nil), ends the child and counts it out; false on a Goexit
	cancel(g *Group, err error)                      // completes the child, never started, with err; with g, listed as canceled
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

func (n *node) links() *node { return n }

func (c *childTask[T]) task() *core { return &c.core }

// childTask is a child of type T: its task, its function and its links,
// in one allocation.
type childTask[T any] struct {
	node
	Task[T]
	fn func(context.Context) (T, error)
}

// start runs the function of c, ends c and counts it out. slot says
// whether c holds a slot of a limited group, which it frees before its
// task completes, so that a TrySpawn that sees the task completed finds
// the slot free. It reports whether the function returned; if it called
// runtime.Goexit, it does not, and, as this goroutine unwinds, the waiting
// children start on another.
func (c *childTask[T]) start(g *Group, slot bool, w *probe.Worker) (returned bool) {
	var v T
	var o outcome
	defer func() {
		c.end(g, v, &o, slot)
		g.leave()
		returned = o.state != exited
		if !returned && slot {
			g.runQueued()
		}
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
		c.stop = o.stop
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

// bodyEnd records the end of the body; settle then lets go of the group.
func (g *Group) bodyEnd() {
	g.c.ended(-1, &g.body)
}

// join waits for every child, cancels the group's context and collects the
// outcomes (call.join's settle and collect, for a group): the body's first,
// then the children's in spawn order.
func (g *Group) join() (report, error) {
	g.settle()
	return g.collect()
}

// settle lets go of the group, once the body has returned or Wait was
// called, waits for every child, and cancels the group's context, as
// call.settle does for a call's functions.
func (g *Group) settle() {
	if g.spawned.Load() != g.returned.Load() {
		// Children just spawned are usually in this P's run queue: let
		// them run here before blocking, as RunN does, and before the
		// release, so that their ends need not look at spawned. To
		// another goroutine the yield is part of the call of Wait, which
		// no goroutine can tell the start of without a race: a spawn
		// until the release is waited for, as one before the call.
		runtime.Gosched()
	}
	g.release()
	g.done.Wait()
	if !g.c.keepGoing() || g.ctx == context.Context(&g.c) {
		g.c.fail(context.Canceled)
	}
}

// collect gathers the outcomes of a settled group into a CallError.
func (g *Group) collect() (report, error) {
	f := g.c.report()
	pe := g.causeAt
	var received *occurrenceCount
	if g.c.kind == kindScope {
		body := g.body
		f.add(-1, body, pe(-1))
		if body.ownError() {
			received = occurrences(body.err)
		}
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
		case o.ownError() && received.take(o.err):
			// The body received this failure and returned it: each
			// occurrence in the body's error accounts for one child, in
			// spawn order.
			_, err := unname(o.err)
			f.keepFirst(n.index, err)
			continue
		}
		f.add(n.index, o, pe(n.index))
	}
	for _, e := range g.endedFuncs {
		f.add(e.i, e.o, pe(e.i))
	}
	err := f.err(g.c.parent)
	if ns, sk := g.notStarted.Load(), g.skipped.Load(); ns > 0 || sk > 0 {
		slices.Sort(g.left)
		if ns > 0 {
			err = g.c.notStarted(err, int(ns), span{}, true)
		}
		if sk > 0 {
			err = g.c.notStarted(err, int(sk), span{}, false)
		}
		ce := err.(*CallError)
		for _, i := range g.left {
			if n := len(ce.left); n > 0 && ce.left[n-1].to == i {
				ce.left[n-1].to++
			} else {
				ce.left = append(ce.left, span{i, i + 1})
			}
		}
		f.e = *ce
	}
	return f, err
}

// hashable reports whether err can be a map key: its type is comparable
// and so is what it holds (an interface field may hold a slice).
func hashable(err error) bool { return reflect.ValueOf(err).Comparable() }

// An occurrenceCount counts the errors in the tree of an error: by value
// those that can be compared, the others in a list (see sameUncomparable).
type occurrenceCount struct {
	hashable map[error]int
	others   []occurrence
}

type occurrence struct {
	err error
	n   int
}

func (m *occurrenceCount) add(err error) {
	if hashable(err) {
		m.hashable[err]++
		return
	}
	for i := range m.others {
		if sameUncomparable(m.others[i].err, err) {
			m.others[i].n++
			return
		}
	}
	m.others = append(m.others, occurrence{err, 1})
}

// take reports whether err, without the name of a Named function, has an
// occurrence left, and uses it.
func (m *occurrenceCount) take(err error) bool {
	if m == nil {
		return false
	}
	_, err = unname(err)
	if hashable(err) {
		if m.hashable[err] == 0 {
			return false
		}
		m.hashable[err]--
		return true
	}
	for i := range m.others {
		if o := &m.others[i]; o.n > 0 && sameUncomparable(o.err, err) {
			o.n--
			return true
		}
	}
	return false
}

// sameUncomparable reports whether two errors that cannot be compared with
// == are the same failure: values of the same type whose slices, maps and
// channels are the same ones (not only equal: an equal slice another child
// made is another failure), whose funcs have the same code, and whose
// other parts are equal.
// A failure that a child returned and the body received through a wait is
// the same interface value, copied, so it is the same.
func sameUncomparable(a, b error) bool {
	return sameValue(reflect.ValueOf(a), reflect.ValueOf(b))
}

func sameValue(a, b reflect.Value) bool {
	if a.Kind() == reflect.Interface {
		if a.IsNil() || b.IsNil() {
			return a.IsNil() && b.IsNil()
		}
		a, b = a.Elem(), b.Elem()
	}
	if a.Type() != b.Type() {
		return false
	}
	if a.Comparable() && b.Comparable() {
		return a.Equal(b)
	}
	switch a.Kind() {
	case reflect.Slice:
		return a.Pointer() == b.Pointer() && a.Len() == b.Len()
	case reflect.Map, reflect.Func, reflect.Chan:
		return a.Pointer() == b.Pointer()
	case reflect.Struct:
		for i := range a.NumField() {
			if !sameValue(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Array:
		for i := range a.Len() {
			if !sameValue(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	}
	return false
}

// occurrences counts the errors in the tree of err, err itself included.
func occurrences(err error) *occurrenceCount {
	m := &occurrenceCount{hashable: map[error]int{}}
	var walk func(error)
	walk = func(e error) {
		if e == nil {
			return
		}
		m.add(e)
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
