package task

import (
	"context"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tasktuple/task/internal/probe"
)

// A call runs the functions of one RunN, Do, Map, ForEach, MapSeq, Scope or
// racing call. Unless it keeps going, it is also the context those
// functions get: a child of the caller's ctx that is canceled when the
// first function fails (for Hedge: succeeds), and when the call returns.
//
// The child is made only when a function first looks at it (Done, Value, or
// Err once canceled), so functions that never look cost no allocation for it.
// What makes and cancels it is in a cancelState, which RunN and Do make
// only then, when a function fails, or at the start with Grace.
type call struct {
	wg     sync.WaitGroup
	parent context.Context
	kind   callKind      // names the call in errors and chooses its rules
	opts   uint8         // the options' flags (KeepGoing, Settled, ...); Grace's period is in the cancelState's gr
	n      uint8         // RunN: N, which names the call
	flags  atomic.Uint32 // flagReady, flagFailed, flagHalted: set once each, never cleared

	cs atomic.Pointer[cancelState] // nil until needed (see cancels)

	end func(error) // the probes' end of the call, when probes are installed
}

// A cancelState makes and cancels the child context of a call. RunN and
// Do make it when first needed: a call whose functions neither fail nor
// look at their context has none. The other calls hold one in their state.
// It also holds what only some calls have, so that a RunN's state does not
// carry it: Grace's state, and the stop of a call it is nested in.
type cancelState struct {
	mu     sync.Mutex // guards child, cancel and first (and a Map's list of failures)
	child  context.Context
	cancel context.CancelCauseFunc
	first  error // the cause of cancellation: the first failure's *PositionError, ErrLost, or context.Canceled once the call returns (unless flagReturned stands for it)

	// Set as the call starts, before any function runs, and never after:
	// a call that has either makes its cancelState then.
	gr    *graceful       // with Grace: the grace period
	outer <-chan struct{} // Map, Scope, MapSeq: the Stopping of the call it is nested in, if any
}

// cancels returns the call's cancelState, making it if there is none.
func (c *call) cancels() *cancelState {
	if x := c.cs.Load(); x != nil {
		return x
	}
	x := new(cancelState)
	if c.cs.CompareAndSwap(nil, x) {
		return x
	}
	return c.cs.Load()
}

// grace returns the call's grace period, or nil without Grace.
func (c *call) grace() *graceful {
	if x := c.cs.Load(); x != nil {
		return x.gr
	}
	return nil
}

// outer returns the Stopping of the call c is nested in, or nil.
func (c *call) outer() <-chan struct{} {
	if x := c.cs.Load(); x != nil {
		return x.outer
	}
	return nil
}

// first is the cause of the call's cancellation; the caller has seen
// flagFailed, which is set after the cause is written (see fail).
func (c *call) first() error { return c.cs.Load().first }

// The flags of a call. Each is set once and never cleared; they share a
// word so that the state of RunN stays in its size class (see
// TestRunStateSize).
const (
	flagReady    uint32 = 1 << iota // child and cancel are set, and the child canceled if the call has returned
	flagFailed                      // first is set
	flagHalted                      // the call stopped taking new work (see halt)
	flagFailing                     // a child of a Scope failed: the call is about to fail (Group.cause)
	flagBudget                      // MapWithin: the budget ended, or can end on its own: ask it (budgetCtx)
	flagReturned                    // the call returned before a child was made or a function failed: its cause is context.Canceled (see cancelAtReturn); the last flag (see firstShift)
)

func (c *call) setFlag(f uint32) { c.flags.Or(f) }
func (c *call) isReady() bool    { return c.flags.Load()&flagReady != 0 }
func (c *call) hasFailed() bool  { return c.flags.Load()&flagFailed != 0 }
func (c *call) isHalted() bool   { return c.flags.Load()&flagHalted != 0 }
func (c *call) isFailing() bool  { return c.flags.Load()&flagFailing != 0 }

// keepGoing and settled report the options KeepGoing and Settled.
func (c *call) keepGoing() bool { return optSet(c.opts)&keepGoing != 0 }
func (c *call) settled() bool   { return optSet(c.opts)&settled != 0 }
func (c *call) blocks() bool    { return optSet(c.opts)&blockAtLimit != 0 }
func (c *call) startsAll() bool { return optSet(c.opts)&startAll != 0 }

// A site is where a function runs, for the probes, which alone ask for its
// names: c is nil for a task of Go, i is -1 for the body of a Scope.
type site struct {
	c *call
	i int
}

// names returns the call's name and the argument's.
func (s site) names() (call, arg string) {
	if s.c == nil {
		return "Go", "fn"
	}
	f := s.c.report()
	return f.e.Call, argName(f.arg, s.i)
}

// begin tells the probes, if any, that the call starts; its functions then
// derive their context from the probes'. The caller has set c.kind.
func (c *call) begin() {
	if p := probe.Load(); p != nil {
		c.beginProbed(p)
	}
}

// beginProbed is begin with probes installed, out of line so that begin
// is inlined.
func (c *call) beginProbed(p probe.Probe) {
	c.parent, c.end = p.Call(c.parent, c.report().e.Call)
}

// limited tells the probes, if any, of the call's limit (noLimit: none)
// and of its number of inputs (-1: the call cannot tell).
func (c *call) limited(limit, inputs int) {
	if p, ok := probe.Load().(probe.Limiter); ok {
		if limit == noLimit {
			limit = 0
		}
		p.Limit(c.parent, c.report().e.Call, limit, inputs)
	}
}

// callEnd tells the probes, if any, that the call returns with err.
func (c *call) callEnd(err error) {
	if c.end != nil || c.cs.Load() != nil {
		c.callEndSlow(err)
	}
}

// callEndSlow is callEnd with a cancelState, which Grace makes, or probes,
// out of line so that callEnd is inlined.
func (c *call) callEndSlow(err error) {
	if c.grace() != nil {
		c.releaseGrace()
	}
	if c.end != nil {
		end := c.end
		c.end = nil
		end(err)
	}
}

// A callKind is the kind of call a call runs the functions of: it names
// the call in errors and chooses its rules.
type callKind uint8

const (
	kindRunN            callKind = iota // RunN
	kindMap                             // Map
	kindHedge                           // Hedge: the first success cancels the others; failures do not
	kindScope                           // Scope: a body and the children it spawns
	kindMapSeq                          // MapSeq: a stream of calls
	kindMapSeqUnordered                 // MapSeqUnordered
	kindForEach                         // ForEach: Map without results
	kindDo                              // Do: RunN of functions without results
	kindGroup                           // NewGroup, or a zero Group: a Scope's group without a body
	kindQuorum                          // Quorum: Hedge's rules with k winners
	kindUntil                           // Until: Hedge's rules, the caller's predicate decides
	kindMapWithin                       // MapWithin: Map under a budget
)

// kindNames name each kind of call and its arguments in errors: the one
// home of the calls' names (RunN's are runNames).
var kindNames = [...]struct{ call, arg string }{
	kindRunN:            {"", "f"},
	kindMap:             {"Map", "inputs"},
	kindHedge:           {"Hedge", "fns"},
	kindScope:           {"Scope", "children"},
	kindMapSeq:          {"MapSeq", "inputs"},
	kindMapSeqUnordered: {"MapSeqUnordered", "inputs"},
	kindForEach:         {"ForEach", "inputs"},
	kindDo:              {"Do", "fns"},
	kindGroup:           {"Group", "children"},
	kindQuorum:          {"Quorum", "fns"},
	kindUntil:           {"Until", "fns"},
	kindMapWithin:       {"MapWithin", "inputs"},
}

// runNames are the names of RunN, so that naming the call costs nothing.
var runNames = func() (names [17]string) {
	for n := range names {
		names[n] = "Run" + strconv.Itoa(n)
	}
	return
}()

// report returns an empty report of the call's outcomes.
func (c *call) report() report {
	r := c.emptyReport()
	r.c = c
	return r
}

// emptyReport names the call and its arguments in a report.
func (c *call) emptyReport() report {
	return newReport(c.name(), kindNames[c.kind].arg)
}

// name is the call's name in errors: "Run3", "Map".
func (c *call) name() string {
	if c.kind == kindRunN {
		return runNames[c.n]
	}
	return kindNames[c.kind].call
}

// initKind prepares c for a call of kind, tells the probes it begins, and,
// with Grace, prepares its grace period. st runs the call's functions (nil
// for a Group). cs is the cancelState the call's state holds; nil makes
// one when needed. The caller adds to c.wg one count per goroutine that
// calls finish.
func (c *call) initKind(parent context.Context, o optSet, kind callKind, st starter, cs *cancelState) {
	c.parent = parent
	c.opts = uint8(o & (1<<graceShift - 1))
	if cs != nil {
		c.cs.Store(cs)
	}
	c.kind = kind
	c.begin()
	if d := o.grace(); d > 0 {
		c.startGrace(d, st)
	}
}

// ctx is the context the functions get: the call itself, or with
// KeepGoing the caller's ctx. MapSeq's calls always get the call, so that
// breaking out of the loop can cancel them.
func (c *call) ctx() context.Context {
	if c.runsEverything() {
		return c.parent
	}
	return c
}

// runsEverything reports whether the call runs every function whatever
// happens, as errgroup does: KeepGoing without Grace, for a call that is
// not a stream (a MapSeq must be able to cancel its calls when the loop
// breaks). Such a call gives its functions the caller's ctx itself, and
// does not stop taking work for the caller's ctx alone.
func (c *call) runsEverything() bool {
	return c.keepGoing() && c.grace() == nil && c.kind != kindMapSeq && c.kind != kindMapSeqUnordered
}

// A starter runs the functions of a call: goroutine(i) runs function i in
// a goroutine that startAt started, and goroutine(-1), in one that startN
// started, the next function that no goroutine has claimed (or any, for a
// starter whose goroutines are all alike, as Map's workers).
type starter interface{ goroutine(i int) }

// startN starts n goroutines, each of which runs a function of the call st
// runs that none has claimed (goroutine(-1)): every goroutine starts at one
// func value, made once, where a goroutine started at a function of its
// own position would need a closure of its own.
//
// It is not generic on purpose, and neither is the function its goroutines
// start at: the runtime reads the name of that function when a goroutine
// starts and exits, and the name of a function instantiated in a generic
// one spells out the shape of every type argument. Every goroutine of the
// package that runs a function of a generic type starts here, at startAt,
// or at another non-generic function.
func startN(st starter, n int) {
	if n == 0 {
		return
	}
	f := func() { st.goroutine(-1) }
	for range n {
		go f()
	}
}

// startAt starts function i of the call st runs in a new goroutine.
func startAt(st starter, i int) {
	go st.goroutine(i)
}

// workerDone counts a worker of c, which st runs, out of c.wg. If exiting,
// the worker is unwinding from a runtime.Goexit of a function it ran (a
// recovered panic on the way included): it first starts a worker at
// position 0 to take its place, counted in before it is counted out, so
// that a wait on c.wg waits for the replacement too.
func (c *call) workerDone(st starter, exiting bool) {
	if exiting {
		c.wg.Add(1)
		startAt(st, 0)
	}
	c.wg.Done()
}

// runAt runs function i of a RunN, in the goroutine startN started, and
// records how it ended in o.
//
// Without probes it calls fn itself, as invoke would, with recovered's
// work in its one deferred call (finishAt): the path of every function of
// a RunN but the last (see runLast).
func runAt[T any](c *call, i int, fn func(context.Context) (T, error), v *T, o *outcome) {
	if probe.Load() != nil {
		defer c.finish(i, o)
		invoke(c.ctx(), site{c, i}, fn, v, o)
		return
	}
	o.begin()
	defer finishAt(c, i, v, o)
	*v, o.err = fn(c.ctx())
	o.state = endState(o.err)
}

// finishAt, deferred by runAt, is recovered, then finish.
func finishAt[T any](c *call, i int, v *T, o *outcome) {
	if o.state == exited {
		settleExit(v, o, recover())
	}
	c.finish(i, o)
}

// runLast runs the last function on the caller's goroutine. If that
// function calls runtime.Goexit, the caller's goroutine is unwinding:
// runLast still waits for the other functions before letting it go on (see
// report.raiseOverGoexit).
//
// The functions' outcomes are outs; the last is the one it runs. The wait
// group counts only the functions run in goroutines.
func runLast[T any](c *call, outs []outcome, fn func(context.Context) (T, error), v *T) {
	i := len(outs) - 1
	returned := false
	defer func() {
		if !returned {
			c.ended(i, &outs[i])
			f, _ := c.join(outs)
			f.raiseOverGoexit()
		}
	}()
	invoke(c.ctx(), site{c, i}, fn, v, &outs[i])
	returned = true
	c.ended(i, &outs[i])
}

// finish records the end of function i, whose outcome is o, and counts it
// as done.
func (c *call) finish(i int, o *outcome) {
	c.ended(i, o)
	c.wg.Done()
}

// wait waits for every function, whose outcomes are outs, cancels the
// child context, and returns the error, raising panics and Goexit.
func (c *call) wait(outs []outcome) error {
	c.settle()
	for i := range outs {
		if outs[i].state != succeeded {
			f, err := c.collect(outs)
			return c.conclude(&f, err)
		}
	}
	c.callEnd(nil)
	return nil // the success path: nothing to collect
}

// conclude is the end of every call that runs functions, once all have
// returned and their outcomes are in f and err (settle, then collect): it
// tells the probes the call returned, raises the first panic, or a Goexit,
// in the caller, and returns the call's error in the form the options ask
// for (FirstError). RunN, Do, Map, ForEach and Scope end here; a Group's
// Wait raises and returns what its one end made, at every call; a stream
// ends in the caller's loop (stream.close).
func (c *call) conclude(f *report, err error) error {
	c.callEnd(err)
	f.raise()
	return c.firstError(f, err)
}

// join waits for every function, cancels the child context, and collects
// the outcomes.
func (c *call) join(outs []outcome) (report, error) {
	c.settle()
	f, err := c.collect(outs)
	c.callEnd(err)
	return f, err
}

// settle waits for every function and cancels the child context.
func (c *call) settle() {
	// The goroutines just started are usually in this P's run queue, not
	// yet running: yielding once lets them run here, which is far cheaper
	// than parking on the WaitGroup and being woken by another thread.
	// (Yielding only while some are unfinished would take one more atomic
	// update in every function, which costs more than the yield saves.)
	runtime.Gosched()
	c.settleNow()
}

// settleNow is settle once the functions have had their turn.
func (c *call) settleNow() {
	c.wg.Wait()
	if !c.keepGoing() {
		c.cancelAtReturn()
	}
}

// cancelAtReturn cancels the call's context as it returns, with the cause
// context.Canceled. If no child context was made and no function failed,
// the flag flagReturned stands for that cancellation, and the child, if one
// is made later, is made canceled (childCtx): one atomic update where fail
// takes the mutex.
func (c *call) cancelAtReturn() {
	for {
		old := c.flags.Load()
		if old&(flagReady|flagFailed) != 0 {
			c.fail(context.Canceled)
			return
		}
		if c.flags.CompareAndSwap(old, old|flagReturned) {
			return
		}
	}
}

// collect gathers the outcomes of a settled call into a CallError.
func (c *call) collect(outs []outcome) (report, error) {
	f := c.report()
	for i, o := range outs {
		c.add(&f, i, o)
	}
	return f, f.err(c.parent)
}

// add adds the outcome o of function i to f.
func (c *call) add(f *report, i int, o outcome) {
	f.add(i, o, c.causeAt(i))
}

// childCtx returns the child context, making it on first use.
func (c *call) childCtx() context.Context {
	if c.isReady() {
		return c.cs.Load().child
	}
	x := c.cancels()
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.child == nil {
		x.child, x.cancel = context.WithCancelCause(c.parent)
		if x.first != nil {
			x.cancel(x.first)
		}
		// Once the call has returned, the child is canceled before
		// flagReady lets Done and Err read it without the lock.
		for {
			old := c.flags.Load()
			if old&flagReturned != 0 {
				x.cancel(context.Canceled)
			}
			if c.flags.CompareAndSwap(old, old|flagReady) {
				break
			}
		}
	}
	return x.child
}

// Deadline is the parent's deadline, plus the grace period if any.
func (c *call) Deadline() (time.Time, bool) {
	d, ok := c.parent.Deadline()
	if g := c.grace(); ok && g != nil {
		d = d.Add(g.d)
	}
	return d, ok
}

// Done returns the child context's Done channel.
func (c *call) Done() <-chan struct{} { return c.childCtx().Done() }

// Err is the child context's error. Until a function has failed it is the
// parent's, and no child is made for it.
func (c *call) Err() error {
	if g := c.grace(); g != nil && g.cut.Load() {
		// The grace period ended: the functions were stopped by the
		// caller's ctx, as without one.
		return c.parent.Err()
	}
	if c.flags.Load()&(flagReady|flagFailed|flagReturned) != 0 {
		return c.childCtx().Err()
	}
	return c.parent.Err()
}

// Value looks key up in the child context, which also answers
// [context.Cause] with the first failure.
func (c *call) Value(key any) any { return c.childCtx().Value(key) }

// String names the context for debugging: "task.Run3 context".
func (c *call) String() string { return "task." + c.name() + " context" }
