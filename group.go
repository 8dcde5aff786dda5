package task

import (
	"context"
	"errors"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tasktuple/task/internal/probe"
)

// A group runs the functions of one RunN, Map or RunFirstOK call. Unless
// the call keeps going, it is also the context those functions get: a child
// of the caller's ctx that is canceled when the first function fails (for
// RunFirstOK: succeeds), and when the call returns.
//
// The child is made only when a function first looks at it (Done, Value, or
// Err once canceled), so functions that never look cost no allocation for it.
type group struct {
	wg     sync.WaitGroup
	parent context.Context
	outs   []outcome // one per function; outs[i] written only by function i, read after wg.Wait
	opts   Option
	kind   uint8        // runN, mapN or race: names the call in errors
	winner atomic.Int32 // RunFirstOK: 1 + the position of the first success, or 0

	ready  atomic.Bool // child and cancel are set
	failed atomic.Bool // first is set
	mu     sync.Mutex  // guards child, cancel and first
	child  context.Context
	cancel context.CancelCauseFunc
	first  error // the cause of cancellation: the first failure's *PositionError, ErrLost, or context.Canceled once the call returns

	end func(error) // the probes' end of the call, when probes are installed
	st  starter     // runs the functions by position, in the goroutines startN and startAt start
}

// A site is where a function runs, for the probes, which alone ask for its
// names: g is nil for a task of Go, i is -1 for the body of a Scope.
type site struct {
	g *group
	i int
}

// names returns the call's name and the argument's.
func (s site) names() (call, arg string) {
	if s.g == nil {
		return "Go", "fn"
	}
	f := s.g.failures()
	return f.e.Call, argName(f.arg, s.i)
}

// begin tells the probes, if any, that the call starts; its functions then
// derive their context from the probes'. The caller has set g.kind.
func (g *group) begin() {
	if p := probe.Load(); p != nil {
		g.parent, g.end = p.Call(g.parent, g.failures().e.Call)
	}
}

// callEnd tells the probes, if any, that the call returns with err.
func (g *group) callEnd(err error) {
	if g.end != nil {
		end := g.end
		g.end = nil
		end(err)
	}
}

// The kinds of group.
const (
	runN            uint8 = iota // RunN
	mapN                         // Map
	race                         // RunFirstOK: the first success cancels the others; failures do not
	hedge                        // Hedge: a race whose functions start one after another
	scope                        // Scope: a body and the children it spawns
	mapSeqKind                   // MapSeq: a stream of calls
	mapSeqUnordered              // MapSeqUnordered
)

// runNames are the names of RunN, so that naming the call costs nothing.
var runNames = func() (names [17]string) {
	for n := range names {
		names[n] = "Run" + strconv.Itoa(n)
	}
	return
}()

// failures returns an empty collection of the group's outcomes.
func (g *group) failures() failures {
	switch g.kind {
	case mapN:
		return newFailures("Map", "inputs")
	case race:
		return newFailures("RunFirstOK", "fns")
	case hedge:
		return newFailures("Hedge", "fns")
	case scope:
		return newFailures("Scope", "children")
	case mapSeqKind:
		return newFailures("MapSeq", "inputs")
	case mapSeqUnordered:
		return newFailures("MapSeqUnordered", "inputs")
	}
	return newFailures(runNames[len(g.outs)], "f")
}

// init prepares g for functions whose outcomes go to outs. The caller adds
// to g.wg one count per goroutine that calls finish.
func (g *group) init(parent context.Context, o Option, outs []outcome, st starter) {
	g.parent = parent
	g.opts = o
	g.outs = outs
	g.st = st
}

// initKind is init for a call of another kind than RunN, then begin.
func (g *group) initKind(parent context.Context, o Option, outs []outcome, kind uint8, st starter) {
	g.init(parent, o, outs, st)
	g.kind = kind
	g.begin()
}

// ctx is the context the functions get.
func (g *group) ctx() context.Context {
	if g.opts&KeepGoing != 0 {
		return g.parent
	}
	return g
}

// A starter runs the functions of a call by position: goroutine(i) runs
// function i in a goroutine that startN or startAt started.
type starter interface{ goroutine(i int) }

// startN starts function i for i in [0, n), each in a new goroutine.
//
// It is not generic on purpose, and neither is the function its goroutines
// start at, which the runtime looks up by name when a goroutine starts and
// again when it exits (runtime.isSystemGoroutine reads the whole name, to
// tell the runtime's own goroutines). The name of a function instantiated
// in a generic one spells out every type argument's shape, the fields of a
// struct included: 356 bytes for the go statement of Run16 over int,
// string, float64 and a two-field struct, read twice per goroutine, 15% of
// Run16's CPU. Here the name is "task.(*group).startN.gowrap1", and
// the closure of the go statement holds g and i: 24 bytes. Every goroutine
// of the package that runs a function of a generic type starts here, at
// startAt, or at another non-generic function.
func (g *group) startN(n int) {
	for i := range n {
		go g.run(i)
	}
}

// startAt starts function i in a new goroutine.
func (g *group) startAt(i int) {
	go g.run(i)
}

// workerDone counts a worker of g out of g.wg. If exiting, the worker is
// unwinding from a runtime.Goexit of a function it ran (a recovered panic
// on the way included): it first starts a worker at position 0 to take its
// place, counted in before it is counted out, so that a wait on g.wg waits
// for the replacement too.
func (g *group) workerDone(exiting bool) {
	if exiting {
		g.wg.Add(1)
		g.startAt(0)
	}
	g.wg.Done()
}

// run runs function i, in the goroutine startN or startAt started.
func (g *group) run(i int) { g.st.goroutine(i) }

// spawned runs function i of the group in a goroutine that RunN started.
func spawned[T any](g *group, i int, fn func(context.Context) (T, error), v *T) {
	g.outs[i].state = exited // stays so if fn calls runtime.Goexit
	defer g.finish(i)
	invoke(g.ctx(), site{g, i}, fn, v, &g.outs[i])
}

// local runs the last function on the caller's goroutine. If that function
// calls runtime.Goexit, the caller's goroutine is unwinding: local still
// waits for the other functions before letting it go on, and raises the
// first panic among all of them (a panic outranks a Goexit, and a deferred
// function of the last one may have panicked while its Goexit unwound).
func local[T any](g *group, i int, fn func(context.Context) (T, error), v *T) {
	g.outs[i].state = exited
	returned := false
	defer func() {
		if !returned {
			g.finish(i)
			if f, _ := g.join(); f.panic != nil {
				panic(f.panicError())
			}
			// Otherwise let the Goexit go on.
		}
	}()
	invoke(g.ctx(), site{g, i}, fn, v, &g.outs[i])
	returned = true
	g.finish(i)
}

// finish records the end of function i and counts it as done.
func (g *group) finish(i int) {
	g.record(i)
	g.wg.Done()
}

// record records the end of function i: marks a cancellation induced by
// the group or by the parent, and starts the fail-fast cancellation.
func (g *group) record(i int) { g.recordAt(i, &g.outs[i]) }

// recordAt is record for an outcome o kept elsewhere than g.outs.
func (g *group) recordAt(i int, o *outcome) {
	g.classify(o)
	racing := g.kind == race || g.kind == hedge
	switch {
	case racing && o.state == succeeded:
		if g.winner.CompareAndSwap(0, int32(i)+1) {
			g.fail(ErrLost)
		}
	case racing && o.state == failed:
		// A failure does not end a race.
	default:
		g.failFast(i, *o)
	}
}

// classify completes the outcome of a function that has returned: ErrGoexit
// for a Goexit, and whether an error is a stop rather than a failure.
func (g *group) classify(o *outcome) {
	switch o.state {
	case exited:
		o.err = ErrGoexit
	case failed:
		// The rule for cancellations (see the package documentation): an
		// error is a stop, not a failure, only if the function returned it
		// after its context was canceled and it holds that cancellation:
		// the parent's error or cause, or context.Canceled or the exact
		// cause the group sent. The same sentinel returned independently
		// is not the cause: the cause is a *PositionError of the group's.
		switch {
		case stoppedBy(o.err, g.parent):
			o.stop = stopCtx
		case g.failed.Load() && (errors.Is(o.err, context.Canceled) || errors.Is(o.err, g.first)): // first is written before failed is set
			o.stop = stopCall
		}
	}
}

// failFast cancels the group with the failure of position i as the cause,
// if it is a failure of its own and the group does not keep going.
func (g *group) failFast(i int, o outcome) {
	if o.state != succeeded && o.stop == own && g.opts&KeepGoing == 0 {
		f := g.failures()
		g.fail(f.at(i, o.err))
	}
}

// fail cancels the child context with cause, if this is the first failure.
func (g *group) fail(cause error) {
	if g.failed.Load() {
		return
	}
	g.mu.Lock()
	if g.first == nil {
		g.first = cause
		g.failed.Store(true)
		if g.cancel != nil {
			g.cancel(cause)
		}
	}
	g.mu.Unlock()
}

// wait waits for every function, cancels the child context, and returns the
// error, raising panics and Goexit.
func (g *group) wait() error {
	g.settle()
	for i := range g.outs {
		if g.outs[i].state != succeeded {
			f, err := g.collect()
			g.callEnd(err)
			f.raise()
			return err
		}
	}
	g.callEnd(nil)
	return nil // the success path: nothing to collect
}

// join waits for every function, cancels the child context, and collects
// the outcomes.
func (g *group) join() (failures, error) {
	g.settle()
	f, err := g.collect()
	g.callEnd(err)
	return f, err
}

// settle waits for every function and cancels the child context.
func (g *group) settle() {
	// The goroutines just started are usually in this P's run queue, not
	// yet running: yielding once lets them run here, which is far cheaper
	// than parking on the WaitGroup and being woken by another thread.
	// (Yielding only while some are unfinished would take one more atomic
	// update in every function, which costs more than the yield saves.)
	runtime.Gosched()
	g.wg.Wait()
	if g.opts&KeepGoing == 0 {
		g.fail(context.Canceled)
	}
}

// collect gathers the outcomes of a settled group into a CallError.
func (g *group) collect() (failures, error) {
	f := g.failures()
	for i, o := range g.outs {
		g.add(&f, i, o)
	}
	return f, f.err(g.parent)
}

// add adds the outcome o of function i to f.
func (g *group) add(f *failures, i int, o outcome) {
	pe, _ := g.first.(*PositionError) // reused: a sibling's error may wrap it
	if pe != nil && pe.Index != i {
		pe = nil
	}
	f.add(i, o, pe)
}

// childCtx returns the child context, making it on first use.
func (g *group) childCtx() context.Context {
	if g.ready.Load() {
		return g.child
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.child == nil {
		g.child, g.cancel = context.WithCancelCause(g.parent)
		if g.first != nil {
			g.cancel(g.first)
		}
		g.ready.Store(true)
	}
	return g.child
}

// Deadline is the parent's deadline.
func (g *group) Deadline() (time.Time, bool) { return g.parent.Deadline() }

// Done returns the child context's Done channel.
func (g *group) Done() <-chan struct{} { return g.childCtx().Done() }

// Err is the child context's error. Until a function has failed it is the
// parent's, and no child is made for it.
func (g *group) Err() error {
	if g.ready.Load() || g.failed.Load() {
		return g.childCtx().Err()
	}
	return g.parent.Err()
}

// Value looks key up in the child context, which also answers
// [context.Cause] with the first failure.
func (g *group) Value(key any) any { return g.childCtx().Value(key) }

// String names the context for debugging.
func (g *group) String() string { return "task.RunN context" }
