package task

import (
	"context"
	"math"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/tasktuple/task/internal/probe"
)

// Map calls fn on every element of inputs, with at most limit calls running
// at once (a negative limit: no limit), and returns the results in the
// order of inputs.
//
// Cancellation, errors ("task: Map: inputs[3]: ..."), panics, limits and
// the options follow the package documentation. The results of inputs
// never started are zero; with [KeepGoing] every input is processed, even
// when a call calls runtime.Goexit. With no inputs Map returns an empty
// slice and nil at once. A nil ctx or fn, or a limit of 0, panics at once.
func Map[In, Out any](ctx context.Context, inputs []In, limit int, fn func(context.Context, In) (Out, error), opts ...Option) ([]Out, error) {
	if ctx == nil {
		nilArg("Map", "ctx")
	}
	if fn == nil {
		nilArg("Map", "fn")
	}
	limit = checkLimit("Map", limit)
	return mapN(kindMap, ctx, inputs, limit, fn, nil, options("Map", famMap, opts), nil, 0)
}

// noLimit is a limit that limits nothing: what a negative limit means.
const noLimit = math.MaxInt

// checkLimit returns the limit of a call: a negative limit is none, as
// errgroup's SetLimit(-1). It panics for 0, which would start nothing.
func checkLimit(name string, limit int) int {
	if limit < 0 {
		return noLimit
	}
	if limit == 0 {
		panic("task: " + name + ": limit is 0; want at least 1, or a negative limit for none")
	}
	return limit
}

// mapN is Map, named after the call of kind. With left, it is MapWithin:
// the call runs under a budget (its ctx is a budgetCtx), whose end is not
// a failure: see budgetLeft.
func mapN[In, Out any](kind callKind, ctx context.Context, inputs []In, limit int, fn func(context.Context, In) (Out, error), each func(context.Context, In) error, o optSet, left *[]int, budget time.Duration) ([]Out, error) {
	out := make([]Out, len(inputs))
	if len(inputs) == 0 {
		return out, nil
	}
	var s *mapping[In, Out]
	var b *budgetCtx
	workers := min(limit, len(inputs))
	if left == nil {
		s = &mapping[In, Out]{in: inputs, fn: fn, each: each, out: out}
	} else {
		// MapWithin: the budget in the same allocation.
		w := &struct {
			mapping[In, Out]
			budget budgetCtx
		}{mapping: mapping[In, Out]{in: inputs, fn: fn, out: out}}
		s, b = &w.mapping, &w.budget
		b.init(ctx, budget, &s.call, workers)
		ctx = b
	}
	s.initKind(ctx, o, kind, s, &s.cs)
	s.limited(limit, len(inputs))
	s.watchOuter()
	s.wg.Add(workers)
	startN(s, workers)
	if b == nil {
		s.settle()
	} else {
		// The workers' first turn, as settle gives it; a budget whose
		// inputs are not all taken by then needs its timer.
		runtime.Gosched()
		if b.timer == nil && int(s.next.Load()) < len(inputs) {
			b.arm()
		}
		s.settleNow()
	}
	f := s.report()
	for _, e := range s.notOK {
		s.add(&f, e.i, e.o)
	}
	err := f.err(s.parent)
	if taken := int(s.next.Load()); taken < len(inputs) && (s.stopped.Load() || err != nil) {
		// Inputs were left, by a stop or by a failure, whichever came
		// first (a stop: stopped; a failure: failedFirst, and err holds
		// it; with KeepGoing nothing is left but by a stop).
		err = s.notStarted(err, len(inputs)-taken, span{taken, len(inputs)}, s.stopped.Load() && !s.failedFirst.Load())
		f.e = *err.(*CallError) // a panic raised holds it too
	}
	if left != nil {
		var zero Out
		for _, e := range s.notOK {
			out[e.i] = zero // MapWithin: results of the calls that succeeded only
		}
		err = s.budgetLeft(&f, err, left)
		b.release()
	}
	err = s.conclude(&f, err)
	if err != nil && !s.settled() {
		return nil, err
	}
	return out, err
}

// mapping is the state of one Map call.
type mapping[In, Out any] struct {
	call
	cs   cancelState
	in   []In
	fn   func(context.Context, In) (Out, error)
	each func(context.Context, In) error // ForEach's function, which fn wraps: called directly where no probe is told
	out  []Out
	next atomic.Int64 // the next input to take

	notOK       []endedCall // the calls that did not succeed, in the order they ended; guarded by cs.mu
	stopped     atomic.Bool // a worker stopped taking inputs because the call stopped
	failedFirst atomic.Bool // a failure came before any stop
}

// An endedCall is a call of Map that did not succeed. Map keeps no outcome
// for a call that succeeds: an outcome per input would be 24 bytes of
// memory traffic an input, which at 10^5 inputs no longer fits in the
// caches.
type endedCall struct {
	i int
	o outcome
}

// goroutine runs a worker: the positions of Map's goroutines are not its
// inputs'.
func (s *mapping[In, Out]) goroutine(int) { s.work() }

// backlog is the number of inputs not taken yet, for the probes' Stop of a
// Map with Grace.
func (s *mapping[In, Out]) backlog() int { return max(0, len(s.in)-int(s.next.Load())) }

// work takes inputs until there are none left, or until a failure or the
// end of ctx stops the call (unless it keeps going).
//
// Without probes it calls fn itself, with recovered's work and end's in
// its one deferred call (for cur, the input whose call runs), and none an
// input: a call that panics or calls runtime.Goexit ends the worker.
//
// If a call of fn calls runtime.Goexit, or panics, this goroutine is
// unwinding: it starts a worker to take its place before it goes (the new
// worker stops at once if nothing is left), so that every input is still
// processed with KeepGoing, however small the limit.
func (s *mapping[In, Out]) work() {
	exiting := true
	cur := -1     // the input whose call, made here, runs
	var o outcome // how the call of cur ended
	defer func() {
		if cur >= 0 {
			// The call of input cur did not return: it panicked (recovered
			// here), or called Goexit.
			if s.each != nil {
				var none struct{}
				settleExit(&none, &o, recover())
			} else {
				settleExit(&s.out[cur], &o, recover())
			}
			s.end(cur, &o, nil)
			exiting = true
		}
		s.workerDone(s, exiting)
	}()
	// The caller's ctx stops the call unless it runs every input whatever
	// happens (KeepGoing without Grace); see call.stopping. Under a budget
	// the workers poll the budget's parent, as Map's poll the caller's ctx,
	// and the budget itself only once it says to (flagBudget): it costs
	// them nothing more until then.
	polled := s.parent
	if b, ok := polled.(*budgetCtx); ok {
		polled = b.parent
	}
	var done <-chan struct{}
	if !s.keepGoing() || s.cs.gr != nil {
		done = polled.Done()
	}
	outer := s.cs.outer // set before the workers start, as gr
	failFast := !s.keepGoing()
	// A Tracker follows this worker's calls in one Worker.
	var w *probe.Worker
	if t := probe.LoadTracker(); t != nil {
		if w = t.Worker(s.ctx(), s.parent, kindNames[s.kind].arg); w != nil {
			defer t.Free(w)
		}
	}
	for {
		// Whichever came first leaves the inputs not taken: a failure
		// (fail-fast), or a stop (see call.stopped). A failure records
		// whether the call had stopped before it (failedFirst).
		if failFast && s.failedFirst.Load() {
			break
		}
		if f := s.flags.Load(); f&flagHalted != 0 || f&flagBudget != 0 && s.parent.Err() != nil ||
			isDone(polled, done) || closedChan(outer) {
			s.stopped.Store(true)
			exiting = false
			return
		}
		if failFast && s.hasFailed() {
			break
		}
		i := int(s.next.Add(1) - 1)
		if i >= len(s.in) {
			break
		}
		if w != nil || probe.Load() != nil {
			s.callAt(i, w)
			continue
		}
		o = outcome{}
		o.begin()
		cur = i
		if s.each != nil {
			o.err = s.each(s.ctx(), s.in[i])
		} else {
			s.out[i], o.err = s.fn(s.ctx(), s.in[i])
		}
		cur = -1
		o.state = endState(o.err)
		s.end(i, &o, nil)
	}
	exiting = false
}

// callAt runs fn on input i with probes: for w, a Tracker's, or through
// invoke. If fn calls runtime.Goexit, the deferred record still runs, then
// work's deferred function.
func (s *mapping[In, Out]) callAt(i int, w *probe.Worker) {
	var o outcome
	defer s.end(i, &o, w)
	in := s.in[i]
	if w != nil {
		// invokeIn, w told of the end by end, in the deferred call there
		// is already.
		o.begin()
		w.Begin(i)
		invokeFn(w.Ctx, func(ctx context.Context) (Out, error) { return s.fn(ctx, in) }, &s.out[i], &o)
		return
	}
	if s.each != nil {
		invokeErr(s.ctx(), site{&s.call, i}, func(ctx context.Context) error { return s.each(ctx, in) }, &o)
		return
	}
	invoke(s.ctx(), site{&s.call, i}, func(ctx context.Context) (Out, error) { return s.fn(ctx, in) }, &s.out[i], &o)
}

// end records the end of the call on input i, which ended with o, and
// tells w, if not nil.
func (s *mapping[In, Out]) end(i int, o *outcome, w *probe.Worker) {
	if w != nil {
		workerEnd(w, o)
	}
	s.ended(i, o)
	if o.state != succeeded {
		if s.leftBy(s.call.stopping()) == refusedFailed {
			s.failedFirst.Store(true)
		}
		s.cs.mu.Lock()
		s.notOK = append(s.notOK, endedCall{i, *o})
		s.cs.mu.Unlock()
	}
}
