package task

import (
	"context"
	"sync"
	"sync/atomic"
)

// A Group is a set of children: functions started by [Group.Go] and
// [Spawn] (and their Try forms), which run in goroutines of their own under
// one set of rules, those of [Scope]. A Group is made by Scope, for its
// body, and valid until Scope returns; or by [NewGroup], and waited for
// with [Group.Wait]. A Group must not be copied once used.
//
// The zero Group is ready to use, as errgroup's is, and behaves as
// errgroup's zero Group: it is NewGroup(context.Background(), KeepGoing,
// FirstError), made by the first of its methods to be called. A failure
// cancels nothing and every child runs; Wait returns the first failure as
// its function returned it.
//
// A Group made by NewGroup, and the zero Group, can be used again after
// Wait, in rounds, as errgroup's: the rule is in [Group.Wait].
type Group struct {
	// Read by every child and every spawn, written seldom (at the start,
	// on a failure or a stop). The counters below, which every spawn and
	// every child's end write, are each at least 64 bytes (a cache line
	// on the machines Go runs on most) from these and from each other,
	// so that reading these does not wait for a line to come back from
	// another core, and a spawn and a child's end do not take a line
	// from each other. What lies between them is written only off the
	// success path, or once a call: it costs no bytes a pad would not
	// (TestGroupLayout).
	c          call                          // the context, fail-fast and the outcome rules, as for RunN
	limit      atomic.Int64                  // at most this many running; 0: no limit. Set before any Spawn
	parentDone <-chan struct{}               // the caller's ctx's Done, for open
	ctx        context.Context               // the children's context: c.ctx(), set by init
	quiet      atomic.Bool                   // no limit, no parentDone and no outer call: open looks no further than the flags
	made       atomic.Bool                   // the round takes children: set by init and reset, cleared by keep (see readyToSpawn)
	cause      atomic.Pointer[PositionError] // the failure of the first child that failed: fail-fast is under way (flagFailing)

	groupWait // a Group's (not a Scope's): the state of Wait and of the rounds

	// The count of children: spawned, on the spawners' line, and
	// returned, on the children's (see enter and leave).
	returned atomic.Int64   // children returned or refused, plus releasedBit once the body (or Wait) let go: every child's end
	done     sync.WaitGroup // 1 until the group (a Group's round) is over: no channel to allocate

	body outcome     // the body's; written by Scope's goroutine once it returns
	mu   sync.Mutex  // guards lim, ends, and groupWait's fields that say so
	ends *groupEnds  // the children that did not succeed or were refused; nil until one
	lim  groupLimit  // with a limit: the slots and the queue
	cs   cancelState // c's: its child context made once a call (at the start, or on first look), its cause on a failure

	spawned atomic.Int64 // children entered so far, the next one's index, plus overBit once the group is over (see enterNext): every spawn
}

// NewGroup returns a new Group and the context its children get:
// errgroup's WithContext, with the rules of [Scope]. It is the form for a
// group that outlives one function: kept in a struct field, passed to a
// function, or waited for in another goroutine. Where the children are
// started and waited for in one function, prefer Scope, which has no Wait
// to forget.
//
//	g, ctx := task.NewGroup(ctx)
//	for _, url := range urls {
//		g.Go(func(ctx context.Context) error { return fetch(ctx, url) })
//	}
//	err := g.Wait()
//
// ctx is derived from the caller's, and canceled when a child fails (not
// with [KeepGoing]) and when [Group.Wait] returns, as errgroup's.
// NewGroup takes Scope's options but [Settled], which panics, as every
// option a call does not take: Wait has no values to keep (the tasks of
// [Spawn] hold theirs).
//
// Until Wait is called, the group holds its context, and with [Grace] its
// timer, as errgroup's WithContext does. A child's panic in a group that
// is garbage collected without a Wait crashes the program, as for a task
// of [Go] nobody waits for.
//
// A nil ctx panics.
func NewGroup(ctx context.Context, opts ...Option) (*Group, context.Context) {
	if ctx == nil {
		nilArg("NewGroup", "ctx")
	}
	g := new(Group)
	g.callerCtx = ctx
	g.init(ctx, options("NewGroup", famGroup, opts), kindGroup)
	if g.c.runsEverything() {
		// KeepGoing: not the caller's ctx, which Wait could not cancel.
		g.ctx = &g.c
	}
	return g, g.ctx
}

// init prepares g for a call of kind (kindScope or kindGroup): the group
// is held until the body of a Scope returns, or the Wait of a Group is
// called (see release).
func (g *Group) init(ctx context.Context, o optSet, kind callKind) {
	g.done.Add(1)
	g.c.initKind(ctx, o, kind, nil, &g.cs)
	g.ctx = g.c.ctx()
	g.parentDone = g.c.parent.Done()
	g.c.countBacklog(g)
	g.c.watchOuter()
	g.quiet.Store(g.parentDone == nil && g.cs.outer == nil)
	g.made.Store(true)
}

// zeroOptions are the options of the zero Group: errgroup's zero Group.
const zeroOptions = keepGoing | firstError

// ready makes a zero Group usable, once, for the methods that start no
// child (Wait, Stop); it is the one test that the methods of a Group made
// by NewGroup or Scope pay for it. It begins no round (see readyToSpawn).
func (g *Group) ready() {
	if !g.made.Load() {
		g.makeZero()
	}
}

func (g *Group) makeZero() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.made.Load() && !g.waiting.Load() { // waiting: an ended round, which only a call that starts a child begins again
		g.initZero()
	}
}

// initZero makes the zero Group; g.mu is held.
func (g *Group) initZero() {
	g.callerCtx = context.Background()
	g.init(context.Background(), zeroOptions, kindGroup)
}
