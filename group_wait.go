package task

import (
	"context"
	"runtime"
	"slices"
	"sync/atomic"
)

// Wait waits for every child of g to return, children started while it
// waits included, and returns their failures, as [Scope] does: nil, a
// *[CallError] (the first failure with [FirstError]), or a child's panic
// or [runtime.Goexit], raised here. It then cancels the group's context.
// Wait may be called more than once, from several goroutines, but not by
// a child of g.
//
// A group is used in rounds, as errgroup's. A round ends once a Wait has
// been called and every child has returned: every Wait of the round, and
// any Wait before the next round, returns its outcome. A Go, TryGo, Spawn, TrySpawn or SetLimit after that begins a new
// round, with the group's options and limit, which the next Wait waits
// for. A call that starts a child as a round ends starts it in that round
// or as the first of the next: never lost. A failure refuses children
// only in its own round: the context of NewGroup stays canceled, and a
// later round's children get it, done; a child that returns its error
// makes Wait return an error holding [context.Canceled], as errgroup's.
// A stop is the group's: after [Group.Stop], no round takes a child.
func (g *Group) Wait() error {
	if g == nil {
		nilArg("Group.Wait", "g")
	}
	g.ready()
	if g.c.kind != kindGroup {
		panic("task: Group.Wait: g is a Scope's: Scope waits for its children")
	}
	var w *waited
	if g.waiting.CompareAndSwap(false, true) {
		w = g.waitFirst()
	} else {
		w = g.waitNext()
	}
	if w == nil {
		return nil // every child succeeded: nothing kept
	}
	if w.pe != nil {
		panic(w.pe)
	}
	w.f.raise()
	return g.c.firstError(&w.f, w.err)
}

// waitFirst is the work of the round's first Wait: it settles the group,
// and keeps the round's outcome for every Wait of it (keep), which ends
// the round.
func (g *Group) waitFirst() (w *waited) {
	defer func() { g.keep(w) }()
	g.settle()
	if g.succeeded() {
		g.c.callEnd(nil)
		return nil
	}
	f, err := g.collect()
	g.c.callEnd(err)
	if err != nil || f.panic != nil || f.exited {
		w = &waited{f: f, err: err}
		if f.panic != nil {
			w.pe = f.panicError()
		}
	}
	if o := g.orphan.Load(); o != nil {
		o.observed.Store(true)
	}
	return w
}

// waitNext is Wait for a call that is not the first of its round: it
// returns the round's outcome once the first Wait has kept it, on the
// round's end (a channel, so that it is durably blocked in a synctest
// bubble). If the round it found ended has been followed by another that
// no Wait has waited for yet, it is that round's first Wait.
func (g *Group) waitNext() *waited {
	g.mu.Lock()
	switch {
	case g.waiting.CompareAndSwap(false, true):
		g.mu.Unlock()
		return g.waitFirst()
	case g.kept:
		w := g.final
		g.mu.Unlock()
		return w
	}
	e := g.roundEnd()
	g.mu.Unlock()
	<-e.kept
	return e.w
}

// succeeded reports whether every child of a settled group succeeded, and
// none was refused: with the body's success for a Scope, there is nothing
// to collect.
func (g *Group) succeeded() bool {
	return g.ends == nil
}

// A waited is the outcome of a Group's Wait, for every call of it, unless
// every child succeeded.
type waited struct {
	f   report
	err error
	pe  *PanicError // the panic raised, made once: each Wait raises this value
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
	var ends groupEnds
	if g.ends != nil {
		ends = *g.ends
	}
	slices.SortFunc(ends.ended, func(a, b child) int { return a.mem().index - b.mem().index })
	for _, c := range ends.ended {
		n, t, i := c.links(), c.task(), c.mem().index
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
			f.keepFirst(i, err)
			continue
		}
		f.add(i, o, pe(i))
	}
	for _, e := range ends.endedFuncs {
		f.add(e.i, e.o, pe(e.i))
	}
	err := f.err(g.c.parent)
	if ns, sk := ends.notStarted, ends.skipped; ns > 0 || sk > 0 {
		slices.Sort(ends.left)
		if ns > 0 {
			err = g.c.notStarted(err, ns, span{}, true)
		}
		if sk > 0 {
			err = g.c.notStarted(err, sk, span{}, false)
		}
		ce := err.(*CallError)
		for _, i := range ends.left {
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

// groupWait is the state of a Group's Wait and rounds.
type groupWait struct {
	waiting   atomic.Bool                 // the round's first Wait was called
	later     atomic.Bool                 // a round after the first (see reset)
	kept      bool                        // the round's first Wait has kept its outcome: the round has ended; guarded by Group.mu
	orphan    atomic.Pointer[orphanWatch] // the first panic of a child, until a Wait passes it on
	site      *call                       // in a later round, with probes installed: the round's call, as the probes know it; written by reset
	callerCtx context.Context             // NewGroup's ctx, or the zero Group's: the parent of a later round's call for the probes; nil for a Scope's group

	// Guarded by Group.mu.
	final *waited   // the outcome of the round that ended; nil if every child succeeded
	end   *roundEnd // the hand-off of the round's end, made by the first call that waits for it; nil until then
	round int64     // the rounds begun after the first
	base  int64     // the children of the round before this one (see enterNext)
}
