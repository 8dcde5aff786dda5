package task

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/tasktuple/task/internal/probe"
)

// NewGroup returns a new Group and the context its children get: errgroup's
// WithContext, with the rules of a [Scope]. Start children with [Group.Go],
// [Spawn] and their Try forms, then call [Group.Wait], which returns once
// every child has returned. It is the form for a group that outlives one
// function: kept in a struct field, passed to a function, or waited for in
// another goroutine; where the children are spawned and waited for in one
// function, a Scope says the same with no Wait to forget.
//
//	g, ctx := task.NewGroup(ctx)
//	for _, url := range urls {
//		g.Go(func(ctx context.Context) error { return fetch(ctx, url) })
//	}
//	err := g.Wait()
//
// The rules are a Scope's with no body: a child's failure cancels ctx and
// the children not started yet ([KeepGoing]: it cancels nothing;
// [StartAll]: it cancels ctx and every child still starts, as errgroup's
// WithContext), Wait
// returns every failure in a *[CallError] ("task: Group: children[i]: ...";
// [FirstError]: the first failure as its function returned it, errgroup's
// error), a child's panic or Goexit is raised in Wait once every child has
// returned, and the limit, [Group.Stop], [Grace] and [Stopping], names and
// probes are as in a Scope. ctx is a new context, derived from the
// caller's, canceled when a child fails (unless KeepGoing) and when Wait
// returns, as errgroup's, with KeepGoing too. [Settled] has no effect: Wait
// has no values (the tasks of Spawn hold theirs).
//
// Until Wait is called, the group holds its context, and, with Grace, its
// timer, as errgroup's WithContext does: call Wait. A child's panic in a
// group that is garbage collected without a Wait crashes the program, as
// for a task of [Go] nobody waits for. After Wait, a Go begins a new
// round (see [Group.Wait]).
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
	if kind == kindGroup {
		g.waitDone.Add(1)
	}
	g.c.initKind(ctx, o, nil, kind, nil)
	g.ctx = g.c.ctx()
	g.parentDone = g.c.parent.Done()
	g.c.countBacklog(g)
	g.c.watchOuter()
	g.quiet.Store(g.parentDone == nil && g.c.outer == nil)
	g.made.Store(true)
}

// zeroOptions are the options of the zero Group: errgroup's zero Group.
const zeroOptions = keepGoing | firstError

// ready makes a zero Group usable, once; it is the one test that the
// methods of a Group made by NewGroup or Scope pay for it.
func (g *Group) ready() {
	if !g.made.Load() {
		g.makeZero()
	}
}

func (g *Group) makeZero() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.made.Load() && !g.waiting.Load() { // waiting: an ended round, which only a spawn begins again
		g.zero = true
		g.init(context.Background(), zeroOptions, kindGroup)
	}
}

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

// Wait waits for every child of g to return, children started while it
// waits included, and returns their failures, as [Scope] does: nil, a
// *[CallError] (the first failure with [FirstError]), or, if a child
// panicked or called [runtime.Goexit], that panic or Goexit raised here.
// It then cancels the group's context and releases what the group holds.
//
// Wait may be called more than once, and from several goroutines: each
// call returns once every child has returned, with the same error, and
// raises the same panic. Until every child has returned, a child, or any
// goroutine, may start more children, and Wait waits for them too. A child
// of g must not call Wait: it would wait for itself.
//
// Once a Wait has been called and every child has returned, the round
// has ended. A Go, TryGo, Spawn, TrySpawn or SetLimit after that begins a
// new round, as errgroup's: the group takes children again, with its
// options and limit, and the next Wait waits for them and returns that
// round's failures (errgroup's returns the first failure of every round).
// The ctx of a group made by NewGroup stays canceled: the children of a
// later round get it, done, and are refused only by that round's own
// failure (fail-fast) or a stop, as in the first round. The zero Group
// begins each round as a new zero Group. As when a sync.WaitGroup is used
// again, the call that begins a round must come after every Wait of the
// round before has returned.
func (g *Group) Wait() error {
	if g == nil {
		nilArg("Group.Wait", "g")
	}
	g.ready()
	if g.c.kind != kindGroup {
		panic("task: Group.Wait: g is a Scope's: Scope waits for its children")
	}
	if g.waiting.CompareAndSwap(false, true) {
		g.waitFirst()
	} else {
		g.waitDone.Wait() // a WaitGroup, not a mutex: durably blocking in a synctest bubble
	}
	w := g.final.Load()
	if w == nil {
		return nil // every child succeeded: nothing kept
	}
	if w.pe != nil {
		panic(w.pe)
	}
	w.f.raise()
	return g.c.firstError(&w.f, w.err)
}

// waitFirst is the work of the first Wait: it settles the group and keeps
// its outcome in final for every Wait, then lets the others return.
func (g *Group) waitFirst() {
	defer g.kept.Store(true) // after Done: a next round may Add to waitDone
	defer g.waitDone.Done()
	defer g.made.Store(false) // before Done, so that a spawn after any Wait begins the next round
	g.settle()
	if g.succeeded() {
		g.c.callEnd(nil)
		return
	}
	f, err := g.collect()
	g.c.callEnd(err)
	if err != nil || f.panic != nil || f.exited {
		w := &waited{f: f, err: err}
		if f.panic != nil {
			w.pe = f.panicError()
		}
		g.final.Store(w)
	}
	if w := g.orphan.Load(); w != nil {
		w.observed.Store(true)
	}
}

// succeeded reports whether every child of a settled group succeeded, and
// none was refused: with the body's success for a Scope, there is nothing
// to collect.
func (g *Group) succeeded() bool {
	return len(g.ended) == 0 && len(g.endedFuncs) == 0 && g.notStarted.Load() == 0 && g.skipped.Load() == 0
}

// A waited is the outcome of a Group's Wait, for every call of it, unless
// every child succeeded.
type waited struct {
	f   report
	err error
	pe  *PanicError // the panic raised, made once: each Wait raises this value
}

// watchPanic makes sure that the panic of a child of a Group made by
// NewGroup, or the zero Group, is not lost if nobody calls Wait: the first
// such panic crashes the program when the group is garbage collected
// unwaited (see watchOrphan). A Scope always waits.
func (g *Group) watchPanic(o *outcome) {
	if g.c.kind != kindGroup || o.state != panicked || g.orphan.Load() != nil {
		return
	}
	w := &orphanWatch{pe: o.err.(*PanicError), call: "Group"}
	if g.orphan.CompareAndSwap(nil, w) {
		runtime.AddCleanup(g, crashIfUnobserved, w)
	}
}

// groupWait is the state of a Group's Wait.
type groupWait struct {
	waiting   atomic.Bool                 // the first Wait was called
	waitDone  sync.WaitGroup              // 1 until the first Wait has set final (see init)
	final     atomic.Pointer[waited]      // set by the first Wait; nil if every child succeeded
	kept      atomic.Bool                 // the first Wait has set final and let the others go
	orphan    atomic.Pointer[orphanWatch] // the first panic of a child, until a Wait passes it on
	zero      bool                        // a zero Group, made by its first method; set before made
	later     bool                        // a round after the first of a group made by NewGroup (see nextCall)
	site      *call                       // in a later round, with probes installed: the round's call, as the probes know it
	callerCtx context.Context             // NewGroup's ctx, the parent of a later round's call for the probes
}
