package task

import (
	"context"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
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
// The body returns the scope's result, as Java's and Swift's scopes do, so
// that results flow out through typed tasks and return values rather than
// captured variables.
//
// The rules are RunN's. Body and children get a child of ctx that is
// canceled as soon as one of them fails, panics or calls runtime.Goexit
// (with that failure's *[PositionError] as the cause), and when Scope
// returns; with [KeepGoing], nothing is canceled and they get ctx itself.
// The error is a *[CallError] whose failures are the body's (Arg "body",
// Index -1), first, then the children's in spawn order (Arg "children[i]",
// Index i); cancellations the scope caused are kept in CallError.Canceled,
// and the rest of the cancellation rule is the package's. What the body
// received from a child through a wait is the body's to report: a child's
// failure that the body's error wraps is not listed again, and a child's
// panic that an await raised in the body (or in another child) is raised
// by that await, not a second time by Scope. Any other panic is raised
// once everything has returned: the first, body first then in spawn order,
// as a *[PanicError] holding the rest; a Goexit is repeated. By default
// the result is the zero value when the error is not nil; with [Settled]
// it is what body returned.
//
// A nil ctx or body panics before anything starts. Scope allocates the
// group and a channel; see [Spawn] for the children's cost.
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

	live    atomic.Int64  // the body, while it runs, plus the children not yet returned
	count   atomic.Int64  // children spawned so far: the next one's index
	running atomic.Int64  // children running
	limit   atomic.Int64  // at most this many running; 0: no limit. Set before any Spawn
	done    chan struct{} // closed when live drops to 0

	mu       sync.Mutex // guards the fields below
	queue    child      // spawned at the limit, waiting for a slot, in spawn order
	queueEnd child      // the last of the queue
	ended    []child    // the children that did not succeed, in the order they ended
}

// SetLimit limits the group to n children running at once (errgroup's
// SetLimit). It must be called before the first Spawn, and panics
// otherwise. A child spawned at the limit does not block the spawner: it
// waits, as a task with its function and no goroutine, and starts when a
// running child returns, in spawn order. So children that spawn cannot
// deadlock however the limit is reached, and the memory of the waiting
// children is their tasks: a body that spawns a million children holds a
// million tasks; to stream a large input with bounded memory, use
// [MapSeq], or [TrySpawn] to decide what to do at the limit. n must be at
// least 1.
func (g *Group) SetLimit(n int) {
	if n < 1 {
		panic("task: SetLimit: n is " + strconv.Itoa(n) + "; want at least 1")
	}
	if g.count.Load() != 0 {
		panic("task: SetLimit: called after Spawn")
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
	c := &childTask[T]{fn: fn}
	c.wg.Add(1)
	g.enter("Spawn", c)
	if limit := g.limit.Load(); limit > 0 {
		g.mu.Lock()
		if g.running.Load() >= limit {
			g.enqueue(c)
			g.mu.Unlock()
			return &c.Task
		}
		g.running.Add(1)
		g.mu.Unlock()
	} else {
		g.running.Add(1)
	}
	g.start(c)
	return &c.Task
}

// TrySpawn is Spawn if g is below its limit, or has none: it starts fn at
// once and returns its task and true. At the limit it starts nothing and
// returns nil and false (errgroup's TryGo). It panics as Spawn does.
func TrySpawn[T any](g *Group, fn func(context.Context) (T, error)) (*Task[T], bool) {
	if g == nil {
		nilArg("TrySpawn", "g")
	}
	if fn == nil {
		nilArg("TrySpawn", "fn")
	}
	if limit := g.limit.Load(); limit > 0 {
		g.mu.Lock()
		defer g.mu.Unlock()
		if g.running.Load() >= limit {
			if g.live.Load() == 0 {
				panic("task: TrySpawn: the Scope of g has returned")
			}
			return nil, false
		}
	}
	c := &childTask[T]{fn: fn}
	c.wg.Add(1)
	g.enter("TrySpawn", c)
	g.running.Add(1)
	g.start(c)
	return &c.Task, true
}

// enter counts a new child in, unless the scope has ended, and gives it
// its index.
func (g *Group) enter(name string, c child) {
	for {
		n := g.live.Load()
		if n == 0 {
			// The body and every child had returned: the scope is over,
			// and live never leaves 0 again.
			panic("task: " + name + ": the Scope of g has returned")
		}
		if g.live.CompareAndSwap(n, n+1) {
			break
		}
	}
	c.links().index = int(g.count.Add(1) - 1)
}

// A child is a task spawned into a group.
type child interface {
	links() *node
	task() *core
	start(g *Group) // runs the function on the calling goroutine and completes the task
}

// node is the part of a child that the group links.
type node struct {
	queued child    // the next in the queue; guarded by the group's mu
	index  int      // spawn order, from 0
	stop   stopKind // own, stopCall or stopCtx: set before the task completes
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

func (c *childTask[T]) start(g *Group) {
	var v T
	var o outcome
	defer func() {
		g.c.classify(&o)
		c.stop = o.stop
		if o.state == panicked || o.state == exited {
			// Watched for an await that passes it on (see Scope), not
			// for the garbage collector: Scope raises it otherwise.
			c.orph = &orphan{}
		}
		// Complete the task before canceling the group, so that a
		// waiter gets the failure itself, not the cancellation it causes
		// (a completed task wins over a done ctx).
		c.complete(v, o)
		if o.state != succeeded {
			g.c.trigger(c.index, &o)
			g.mu.Lock()
			g.ended = append(g.ended, c)
			g.mu.Unlock()
		}
	}()
	invoke(g.c.ctx(), site{&g.c, c.index}, c.fn, &v, &o)
}

// enqueue makes c wait for a slot; the caller holds mu.
func (g *Group) enqueue(c child) {
	if g.queueEnd == nil {
		g.queue = c
	} else {
		g.queueEnd.links().queued = c
	}
	g.queueEnd = c
}

// start runs c in a new goroutine. It is not generic, so neither is the
// function the goroutine starts at (see group.startN).
func (g *Group) start(c child) {
	go g.run(c)
}

// run runs c, then the waiting children, one after another, on this
// goroutine, until none waits. If a child calls runtime.Goexit, this
// goroutine is unwinding: it starts another to take over the queue.
func (g *Group) run(c child) {
	exiting := true
	defer func() {
		if exiting {
			if next := g.next(); next != nil {
				go g.run(next)
			}
		}
	}()
	for c != nil {
		c.start(g)
		c = g.next()
	}
	exiting = false
}

// next ends a child: it returns the next waiting child, which takes the
// slot, or frees the slot and returns nil.
func (g *Group) next() child {
	var c child
	if g.limit.Load() > 0 {
		g.mu.Lock()
		if c = g.queue; c != nil {
			g.queue = c.links().queued
			c.links().queued = nil
			if g.queue == nil {
				g.queueEnd = nil
			}
		} else {
			g.running.Add(-1)
		}
		g.mu.Unlock()
	} else {
		g.running.Add(-1)
	}
	g.leave()
	return c
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
	var received map[error]int
	if body.state == failed && body.stop == own {
		received = occurrences(body.err)
	}
	slices.SortFunc(g.ended, func(a, b child) int { return a.links().index - b.links().index })
	for _, c := range g.ended {
		n, t := c.links(), c.task()
		o := t.outcome()
		o.stop = n.stop
		switch {
		case (o.state == panicked || o.state == exited) && t.orph.observed.Load():
			// Passed on by an await, which raised it: not raised again,
			// and not listed: the panic (or Goexit) that await raised
			// stands for it.
			continue
		case o.state == failed && o.stop == own && received[o.err] > 0:
			// The body received this failure and returned it: each
			// occurrence in the body's error accounts for one child, in
			// spawn order.
			received[o.err]--
			continue
		}
		f.add(n.index, o, pe(n.index))
	}
	return f, f.err(g.c.parent)
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

// occurrences counts the errors in the tree of err that can be compared,
// err itself included.
func occurrences(err error) map[error]int {
	m := map[error]int{}
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
