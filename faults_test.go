package task

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
)

// The fault model: what a call over n positions must do, given what each
// position does. It is written from the package documentation (doc.go and
// the doc comments of the calls), apart from the code, and shared by the
// fault matrix and the fuzzer.

// op is the call under test.
type op int

const (
	opAwait           op = iota // AwaitN over tasks started with Go
	opRun                       // RunN
	opAll                       // All over tasks started with Go
	opMap                       // Map with a limit of n
	opScope                     // Scope whose body spawns a child per position and returns without waiting
	opScopeLimit                // Scope with SetLimit(2): the body spawns child 0, which spawns the others
	opMapSeq                    // MapSeq over the positions with a limit of n
	opMapSeqUnordered           // MapSeqUnordered, the same
	numOps
)

var opNames = [...]string{"Await", "Run", "All", "Map", "Scope", "ScopeLimit", "MapSeq", "MapSeqUnordered"}

func (o op) String() string { return opNames[o] }

// scopeLimit is the limit of opScopeLimit.
const scopeLimit = 2

// faultKinds are the outcomes a position can have in the model, with kSlow
// standing for a function that returns a value late.
var faultKinds = []kind{kValue, kError, kPanic, kPanicErr, kPanicNil, kGoexit, kSlow, kWaitCtx}

// matrixKinds are the outcomes of the fault matrix: faultKinds, and
// failures with errors whose dynamic types are not comparable
// (listFailure, mapFailure, funcFailure), which the model expects to be
// handled as any other error, never to crash the package. The fuzzer draws
// from faultKinds alone, so that its seed corpus keeps its meaning.
var matrixKinds = append(slices.Clip(faultKinds), kErrSlice, kErrMap, kErrFunc)

func isPanic(k kind) bool   { return k == kPanic || k == kPanicErr || k == kPanicNil }
func isError(k kind) bool   { return k == kError || k == kErrSlice || k == kErrMap || k == kErrFunc }
func isFailing(k kind) bool { return isError(k) || k == kGoexit || isPanic(k) }
func isValue(k kind) bool   { return k == kValue || k == kSlow }

// A scene is one run of the model: op over one outcome per position, the
// positions released in order, and k. For Scope, k > 0 makes the body wait
// for its first k children, in spawn order, and return at the first that
// did not succeed, with what the wait gave it (an early break that
// receives a failure); for MapSeq, the loop breaks out after k pairs. k = 0:
// neither.
type scene struct {
	op    op
	kinds []kind
	order []int
	k     int
}

func (s scene) String() string {
	name := fmt.Sprintf("%v%d %v order %v", s.op, len(s.kinds), s.kinds, s.order)
	if s.k > 0 {
		name += fmt.Sprintf(" k=%d", s.k)
	}
	return name
}

// observed is how a call ended, as the test saw it.
type observed struct {
	vals       []any
	err        error
	panicked   bool
	panicVal   any
	exited     bool
	pairs      []seqPair // MapSeq: what the loop received
	unreturned []int     // positions whose function had started but not returned when the call ended
	unstarted  []int     // positions whose function had not started when the call ended
	peak       int32     // Scope: the most children running at once
	badTasks   []string  // Scope: children's tasks that do not hold their value
}

// seqPair is one pair a sequence yielded.
type seqPair struct {
	v   int
	err error
}

// wantPair is a pair the model expects: the value of position pos, or its
// error (its failure, or context.Canceled when ctx stopped it).
type wantPair struct {
	pos      int
	err      bool
	canceled bool
}

func (w wantPair) String() string {
	switch {
	case w.canceled:
		return fmt.Sprintf("inputs[%d]:canceled", w.pos)
	case w.err:
		return fmt.Sprintf("inputs[%d]:error", w.pos)
	}
	return fmt.Sprintf("inputs[%d]:value", w.pos)
}

// expectation is what the model says.
type expectation struct {
	call          string // the Call that errors name ("Run3", "Scope", ...)
	arg           string // how they name positions: "f", "t" (1-based) or a slice ("inputs", "children")
	panics, exits bool
	firstPanic    int        // the Index of the panic raised: the first in argument order (-1: a Scope's body)
	positions     []int      // 0-based positions in the error or the panic, sorted (-1: a Scope's body)
	ctxErr        bool       // the caller's ctx was canceled: errors.Is(err, context.Canceled) and the cause
	canceledAt    []int      // positions whose error is context.Canceled rather than their failure
	bodyErr       error      // Scope: the failure the body received and returned
	allReturned   bool       // every function that started has returned when the call ends
	allStarted    bool       // every function has started when the call ends, but those in unstarted
	unstarted     []int      // Scope with a limit: the children queued behind a failure, which never start
	maxRunning    int32      // if not 0: never more children running at once
	seq           bool       // a sequence: the pairs it yields are checked
	pairs         []wantPair // what it yields if the loop does not break out
	npairs        int        // how many of them it yields
	anyOrderFrom  int        // pairs from this index on may come in any order
	kinds         []kind     // what each position does: the failure of an error
}

// noPanic is firstPanic when no position panics.
const noPanic = -2

// needsParentCancel reports whether the scene can end only if the test
// cancels the caller's ctx: a position waits for cancellation and nothing
// else will cancel it. For Scope with a limit, which children start can
// depend on the schedule (see limitRuns): the test cancels if the call has
// not ended once every position is released.
func needsParentCancel(s scene) bool {
	waits := slices.Contains(s.kinds, kWaitCtx)
	failing := slices.ContainsFunc(s.kinds, isFailing)
	switch s.op {
	case opAwait, opAll:
		// AwaitN and All cancel nothing.
		return waits
	case opScopeLimit:
		return false
	}
	// A failure cancels the others (fail-fast); without one, only the
	// caller's ctx ends a position that waits for cancellation.
	return waits && !failing
}

func model(s scene, parentCanceled bool) []expectation {
	switch s.op {
	case opScope, opScopeLimit:
		return modelScope(s, parentCanceled)
	case opMapSeq, opMapSeqUnordered:
		return modelMapSeq(s, parentCanceled)
	}
	kinds := s.kinds
	n := len(kinds)
	// RunN and Map return only after every function has returned; AwaitN
	// and All wait for every task unless their ctx ends first.
	e := expectation{firstPanic: noPanic, allReturned: s.op == opRun || s.op == opMap || !parentCanceled, kinds: kinds}
	switch s.op {
	case opAwait:
		e.call, e.arg = "Await"+strconv.Itoa(n), "t"
	case opRun:
		e.call, e.arg = "Run"+strconv.Itoa(n), "f"
	case opAll:
		e.call, e.arg = "All", "tasks"
	case opMap:
		e.call, e.arg = "Map", "inputs"
	}
	var waiting []int
	for i, k := range kinds {
		switch {
		case isError(k):
			e.positions = append(e.positions, i)
		case isPanic(k):
			e.panics = true
			e.positions = append(e.positions, i)
			if e.firstPanic == noPanic {
				e.firstPanic = i
			}
		case k == kGoexit:
			e.exits = true
			e.positions = append(e.positions, i)
		case k == kWaitCtx:
			waiting = append(waiting, i)
		}
	}
	if !parentCanceled {
		return []expectation{e}
	}
	if s.op == opAwait || s.op == opAll {
		// Either the call sees its ctx done while a task is pending and
		// returns the context's error alone, at once; or the tasks waiting
		// for cancellation complete first, and their cancellation errors
		// are failures like any other (AwaitN filters nothing).
		early := expectation{call: e.call, arg: e.arg, firstPanic: noPanic, ctxErr: true, kinds: kinds}
		late := e
		late.positions = slices.Sorted(slices.Values(append(slices.Clone(e.positions), waiting...)))
		late.canceledAt = waiting
		late.allReturned = true
		return []expectation{early, late}
	}
	// RunN and Map: the test cancels the caller's ctx only when no position
	// fails, so every cancellation is induced by it and left out.
	e.ctxErr = true
	return []expectation{e}
}

// modelScope is what Scope's doc comment says of a body that spawns a
// child per position (children[i] is position i) and returns, after
// waiting for its first k children if k > 0.
//
// The children's failures are the scope's, in spawn order, as for RunN,
// and fail-fast cancels the others. What the body received from a child
// through a wait is the body's to report: a failure it returns is its own
// (Arg "body", Index -1) and the child's is not listed again; a panic the
// wait raised in the body is the body's panic, raised once. A panic is
// raised after everything has returned, the first one body first then in
// spawn order; a Goexit is repeated.
//
// With a limit, the children that start are those limitRuns finds, and the
// body may run one inline: one more than the limit may run at once.
func modelScope(s scene, parentCanceled bool) []expectation {
	if s.op == opScopeLimit {
		runs := limitRuns(s)
		var es []expectation
		for _, r := range runs {
			if r.parentCanceled == parentCanceled {
				es = append(es, scopeExpectation(s, r))
			}
		}
		if len(es) == 0 {
			// None ends as the call did: show them all.
			for _, r := range runs {
				es = append(es, scopeExpectation(s, r))
			}
		}
		return es
	}
	r := limitRun{parentCanceled: parentCanceled, received: -1}
	for j := range min(s.k, len(s.kinds)) {
		if !isValue(s.kinds[j]) {
			r.received = j
			break
		}
	}
	return []expectation{scopeExpectation(s, r)}
}

// scopeExpectation is what Scope's doc comment says of a run of its
// children (see modelScope).
func scopeExpectation(s scene, r limitRun) expectation {
	e := expectation{call: "Scope", arg: "children", firstPanic: noPanic, ctxErr: r.parentCanceled,
		allReturned: true, allStarted: true, kinds: s.kinds}
	if s.op == opScopeLimit {
		e.maxRunning = scopeLimit
		if r.inline {
			e.maxRunning++
		}
	}
	started := func(i int) bool { return r.started == nil || r.started[i] }
	for i := range s.kinds {
		if !started(i) {
			e.unstarted = append(e.unstarted, i)
		}
	}
	received := r.received
	if received >= 0 && started(received) {
		rk := s.kinds[received]
		switch {
		case isError(rk):
			e.positions = append(e.positions, -1)
			e.bodyErr = failure(rk, received+1)
		case isPanic(rk):
			e.panics = true
			e.firstPanic = -1
			e.positions = append(e.positions, -1)
		case rk == kGoexit:
			e.exits = true
			e.positions = append(e.positions, -1)
		}
		// kWaitCtx: the body receives the cancellation, a stop like the
		// child's own; so it does from a child that never started.
	}
	for i, k := range s.kinds {
		if !started(i) || i == received && isFailing(k) {
			continue // never ran, or the body's to report
		}
		switch {
		case isError(k):
			e.positions = append(e.positions, i)
		case isPanic(k):
			e.panics = true
			e.positions = append(e.positions, i)
			if e.firstPanic == noPanic {
				e.firstPanic = i
			}
		case k == kGoexit:
			e.exits = true
			e.positions = append(e.positions, i)
		}
	}
	return e
}

// A limitRun is one way the children of opScopeLimit can go.
type limitRun struct {
	started        []bool // the children that started (nil: all of them)
	inline         bool   // the body ran a child inline
	received       int    // the child whose end ended the body's waits, or -1
	parentCanceled bool   // the call ended only once the caller's ctx was canceled
}

// limitRuns follows the children of opScopeLimit as Group.SetLimit's doc
// comment says they go, and returns every way they can go. Two children
// run at once: children 0 and 1 start, the others wait for a slot, in
// spawn order; a child that returns hands its slot to the first waiting,
// on its goroutine. After a failure that cancels the group, no child
// starts: those waiting complete as canceled. A wait on a child still
// waiting runs it inline, on the waiting goroutine (here the body's, when
// k > 0), without a slot. The positions are released in s.order, each once
// everything has settled; then, if the call has not ended, the caller's
// ctx is canceled, after which no child starts either (the call has
// stopped taking new work: those waiting are not started). Where the goroutines race (a slot freed while the body
// takes a waiting child inline), every interleaving is followed.
func limitRuns(s scene) []limitRun {
	n := len(s.kinds)
	st := limitState{
		kinds:    s.kinds,
		k:        min(s.k, n),
		started:  make([]bool, n),
		done:     make([]bool, n),
		released: make([]bool, n),
		received: -1,
	}
	for i := range n {
		if i < scopeLimit {
			st.started[i] = true
			st.slots = append(st.slots, i)
		} else {
			st.queue = append(st.queue, i)
		}
	}
	if st.k == 0 {
		st.body = bodyReturned
	}
	states := []limitState{st}
	for _, i := range s.order {
		for j := range states {
			states[j] = states[j].clone()
			states[j].released[i] = true
		}
		states = settle(states)
	}
	var runs []limitRun
	for _, st := range states {
		canceled := !st.ended()
		if canceled {
			st = st.clone()
			st.ctxDone, st.stopped = true, true
			for _, end := range settle([]limitState{st}) {
				if !end.ended() {
					panic(fmt.Sprintf("limitRuns: %v does not end: %+v", s, end))
				}
				runs = append(runs, end.run(true))
			}
			continue
		}
		runs = append(runs, st.run(false))
	}
	return runs
}

// bodyReturned is limitState.body once the body has returned.
const bodyReturned = -1

// A limitState is where the children of opScopeLimit and the body are.
type limitState struct {
	kinds    []kind
	k        int    // the body waits for children 0 to k-1, in turn
	started  []bool // per child: it has started
	done     []bool // per child: it has returned, or was canceled before it started
	released []bool // per child: its gate is open
	queue    []int  // the children waiting for a slot, in spawn order
	slots    []int  // per goroutine holding a slot: the child it runs, or -1 once it has returned
	stopped  bool   // a failure canceled the group, or the call stopped: no child starts
	ctxDone  bool   // the children's context is done
	body     int    // the child the body waits for, or bodyReturned
	inline   bool   // the body ran a child inline
	inBody   bool   // the body runs child body inline now
	received int    // the child whose end ended the body's waits, or -1
}

func (st limitState) clone() limitState {
	st.started = slices.Clone(st.started)
	st.done = slices.Clone(st.done)
	st.released = slices.Clone(st.released)
	st.queue = slices.Clone(st.queue)
	st.slots = slices.Clone(st.slots)
	return st
}

func (st limitState) key() string { return fmt.Sprintf("%+v", st) }

func (st limitState) ended() bool {
	return st.body == bodyReturned && !slices.Contains(st.done, false)
}

func (st limitState) run(parentCanceled bool) limitRun {
	return limitRun{started: st.started, inline: st.inline, received: st.received, parentCanceled: parentCanceled}
}

// canReturn reports whether child i, running, returns now.
func (st limitState) canReturn(i int) bool {
	return st.released[i] && (st.kinds[i] != kWaitCtx || st.ctxDone)
}

// returns ends child i.
func (st *limitState) returns(i int) {
	st.done[i] = true
	if isFailing(st.kinds[i]) {
		st.fail()
	}
}

// fail cancels the group.
func (st *limitState) fail() {
	st.stopped, st.ctxDone = true, true
}

// cancelQueue completes the waiting children as canceled.
func (st *limitState) cancelQueue() {
	for _, q := range st.queue {
		st.done[q] = true
	}
	st.queue = nil
}

// steps returns the states one step of one goroutine leads to.
func (st limitState) steps() []limitState {
	var next []limitState
	for g, c := range st.slots {
		switch {
		case c >= 0 && st.canReturn(c):
			// The child returns and frees its slot, then its task
			// completes; after a failure the group cancels the waiting.
			x := st.clone()
			x.returns(c)
			if x.stopped {
				x.cancelQueue()
			}
			x.slots[g] = -1
			next = append(next, x)
		case c == -1:
			// The goroutine takes the first waiting child, if any.
			x := st.clone()
			if x.stopped || len(x.queue) == 0 {
				x.cancelQueue()
				x.slots = slices.Delete(x.slots, g, g+1)
			} else {
				x.slots[g] = x.queue[0]
				x.started[x.queue[0]] = true
				x.queue = x.queue[1:]
			}
			next = append(next, x)
		}
	}
	if j := st.body; j != bodyReturned {
		x := st.clone()
		switch {
		case st.inBody:
			if !st.canReturn(j) {
				break
			}
			x.returns(j)
			x.inBody = false
			next = append(next, x)
		case j >= st.k:
			x.body = bodyReturned
			next = append(next, x)
		case st.done[j] && st.started[j] && isValue(st.kinds[j]):
			x.body++
			next = append(next, x)
		case st.done[j]:
			// The body returns what it received: a failure of its own
			// unless it is a cancellation.
			x.body, x.received = bodyReturned, j
			if st.started[j] && isFailing(st.kinds[j]) {
				x.fail()
			}
			next = append(next, x)
		case slices.Contains(st.queue, j):
			// Wait runs the waiting child inline, or cancels it.
			x.queue = slices.DeleteFunc(x.queue, func(q int) bool { return q == j })
			if st.stopped {
				x.done[j] = true
			} else {
				x.started[j], x.inline, x.inBody = true, true, true
			}
			next = append(next, x)
		}
	}
	return next
}

// settle follows every interleaving of the goroutines' steps from states
// until none can take a step, and returns the states reached, each once.
func settle(states []limitState) []limitState {
	seen := map[string]bool{}
	var out []limitState
	var visit func(st limitState)
	visit = func(st limitState) {
		k := st.key()
		if seen[k] {
			return
		}
		seen[k] = true
		next := st.steps()
		if len(next) == 0 {
			out = append(out, st)
		}
		for _, x := range next {
			visit(x)
		}
	}
	for _, st := range states {
		visit(st)
	}
	return out
}

// modelMapSeq is what MapSeq's doc comment says of a loop over the
// positions with a limit of n (every call starts at once), consuming every
// pair, or breaking out after k.
//
// The pairs come in input order (MapSeqUnordered: in the order the calls
// return, which is the order of release here): (value, nil), or (zero,
// *PositionError) for a failure. Fail-fast cancels the running calls and
// the cancellations it caused are left out; calls that ctx stopped yield
// their errors. A panic or Goexit stops the yields and is passed on once
// every call has returned: the first panic in input order, holding what
// else was not yielded. Breaking out cancels the calls still running and
// waits for them; a panic or Goexit met on the way is still passed on.
func modelMapSeq(s scene, parentCanceled bool) []expectation {
	kinds := s.kinds
	n := len(kinds)
	e := expectation{call: "MapSeq", arg: "inputs", firstPanic: noPanic, allReturned: true, seq: true, kinds: kinds}
	// Which pairs the loop receives, in order, until a panic or a Goexit.
	stream := make([]int, n)
	for i := range stream {
		stream[i] = i
	}
	unordered := s.op == opMapSeqUnordered
	if unordered {
		e.call = "MapSeqUnordered"
		// In the order they return; those that wait for cancellation
		// return together once ctx is canceled, in any order.
		stream = slices.Clone(s.order)
		slices.SortStableFunc(stream, func(a, b int) int {
			return boolCmp(kinds[a] == kWaitCtx, kinds[b] == kWaitCtx)
		})
	}
	e.anyOrderFrom = -1
	for _, p := range stream {
		k := kinds[p]
		if isPanic(k) || k == kGoexit {
			break
		}
		switch {
		case isValue(k):
			e.pairs = append(e.pairs, wantPair{pos: p})
		case isError(k):
			e.pairs = append(e.pairs, wantPair{pos: p, err: true})
		case k == kWaitCtx && parentCanceled:
			if unordered && e.anyOrderFrom < 0 {
				e.anyOrderFrom = len(e.pairs)
			}
			e.pairs = append(e.pairs, wantPair{pos: p, err: true, canceled: true})
		}
	}
	if e.anyOrderFrom < 0 {
		e.anyOrderFrom = len(e.pairs)
	}
	e.npairs = len(e.pairs)
	if s.k > 0 && s.k < e.npairs {
		e.npairs = s.k
	}
	// The failures yielded: those in the part that comes in order (the
	// rest are cancellations).
	yielded := make([]bool, n)
	for _, w := range e.pairs[:min(e.npairs, e.anyOrderFrom)] {
		yielded[w.pos] = true
	}
	// What the panic holds: every panic and Goexit, and the failures that
	// were not yielded.
	var inPanic []int
	for i, k := range kinds {
		switch {
		case isPanic(k):
			e.panics = true
			if e.firstPanic == noPanic {
				e.firstPanic = i
			}
			inPanic = append(inPanic, i)
		case k == kGoexit:
			e.exits = true
			inPanic = append(inPanic, i)
		case isError(k) && !yielded[i]:
			inPanic = append(inPanic, i)
		}
	}
	if e.panics {
		e.positions = inPanic
	}
	return []expectation{e}
}

// boolCmp orders false before true.
func boolCmp(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// name is how position p of e is named in errors.
func (e expectation) name(p int) string {
	switch {
	case p < 0:
		return "body"
	case e.arg == "f" || e.arg == "t":
		return e.arg + strconv.Itoa(p+1)
	}
	return e.arg + "[" + strconv.Itoa(p) + "]"
}

// failedAt returns the positions of the failures err holds, sorted, and
// whether it holds a context error, checking that each is located as e
// says.
func (e expectation) failedAt(err error) (ps []int, ctxErr bool, bad error) {
	locate := func(call string, index int, arg string) {
		if bad == nil && (call != e.call || arg != e.name(index)) {
			bad = fmt.Errorf("position %d is located as %s: %s; want %s: %s", index, call, arg, e.call, e.name(index))
		}
	}
	var ce *CallError
	switch x := err.(type) {
	case nil:
		return nil, false, nil
	case *PanicError:
		ps = append(ps, x.Index)
		locate(x.Call, x.Index, x.Arg)
		ce = x.Others
	case *CallError:
		ce = x
	default:
		return nil, false, fmt.Errorf("%T is neither a *CallError nor a *PanicError", err)
	}
	if ce != nil {
		if ce.Call != e.call {
			bad = fmt.Errorf("CallError.Call = %q; want %q", ce.Call, e.call)
		}
		for _, f := range ce.Failures {
			ps = append(ps, f.Index)
			locate(f.Call, f.Index, f.Arg)
		}
		ctxErr = ce.Ctx != nil
	}
	slices.Sort(ps)
	return ps, ctxErr, bad
}

// check compares an observation with one expectation.
func (e expectation) check(name string, n int, got observed) error {
	if err := e.checkEnding(name, n, got); err != nil {
		return err
	}
	switch {
	case e.allReturned && len(got.unreturned) > 0:
		return fmt.Errorf("%s: positions %v had not returned when the call ended", name, got.unreturned)
	case e.allStarted && !slices.Equal(got.unstarted, e.unstarted):
		return fmt.Errorf("%s: positions %v had not started when the call ended; want %v", name, got.unstarted, e.unstarted)
	case e.maxRunning > 0 && got.peak > e.maxRunning:
		return fmt.Errorf("%s: %d children ran at once; the limit is %d", name, got.peak, e.maxRunning)
	case len(got.badTasks) > 0:
		return fmt.Errorf("%s: %s", name, strings.Join(got.badTasks, "; "))
	}
	return nil
}

// checkEnding compares how the call ended, and the pairs of a sequence.
func (e expectation) checkEnding(name string, n int, got observed) error {
	if e.seq {
		if err := e.checkPairs(name, got.pairs); err != nil {
			return err
		}
	}
	switch {
	case e.panics:
		if !got.panicked {
			return fmt.Errorf("%s: want a panic; got exited=%v err=%v", name, got.exited, got.err)
		}
		err, ok := got.panicVal.(error)
		if !ok {
			return fmt.Errorf("%s: panic value %T %v is not an error", name, got.panicVal, got.panicVal)
		}
		pe, ok := err.(*PanicError)
		if !ok {
			return fmt.Errorf("%s: panic value %T %v is not a *PanicError", name, err, err)
		}
		if pe.Index != e.firstPanic {
			return fmt.Errorf("%s: the panic raised is at %s (%d); want the first, %s (%d)", name, pe.Arg, pe.Index, e.name(e.firstPanic), e.firstPanic)
		}
		ps, ctxErr, bad := e.failedAt(err)
		if bad != nil {
			return fmt.Errorf("%s: %v", name, bad)
		}
		if !slices.Equal(ps, e.positions) || ctxErr != e.ctxErr {
			return fmt.Errorf("%s: panic holds positions %v (ctx error %v); want %v (%v)", name, ps, ctxErr, e.positions, e.ctxErr)
		}
		if e.ctxErr && (!errors.Is(err, context.Canceled) || !errors.Is(err, errTestCause)) {
			return fmt.Errorf("%s: panic %v; want it to hold Canceled with the cause", name, err)
		}
		if e.bodyErr != nil && !reaches(err, e.bodyErr) {
			return fmt.Errorf("%s: panic %v does not reach %v", name, err, e.bodyErr)
		}
	case e.exits:
		if !got.exited {
			return fmt.Errorf("%s: want runtime.Goexit; got panicked=%v (%v) err=%v", name, got.panicked, got.panicVal, got.err)
		}
	default:
		if got.panicked || got.exited {
			return fmt.Errorf("%s: panicked=%v (%v) exited=%v; want a return", name, got.panicked, got.panicVal, got.exited)
		}
		ps, ctxErr, bad := e.failedAt(got.err)
		if bad != nil {
			return fmt.Errorf("%s: %v", name, bad)
		}
		if ctxErr != e.ctxErr {
			return fmt.Errorf("%s: err = %v; ctx error %v, want %v", name, got.err, ctxErr, e.ctxErr)
		}
		if e.ctxErr && (!errors.Is(got.err, context.Canceled) || !errors.Is(got.err, errTestCause)) {
			return fmt.Errorf("%s: err = %v; want Canceled with the cause", name, got.err)
		}
		if !slices.Equal(ps, e.positions) {
			return fmt.Errorf("%s: err = %v, positions %v; want %v", name, got.err, ps, e.positions)
		}
		for _, p := range e.positions {
			var want error
			switch {
			case p < 0:
				want = e.bodyErr
			case slices.Contains(e.canceledAt, p):
				want = context.Canceled
			default:
				want = failure(e.kinds[p], p+1)
			}
			if !reaches(got.err, want) {
				return fmt.Errorf("%s: err = %v does not reach %v", name, got.err, want)
			}
		}
		if got.err == nil && got.vals != nil {
			for i := 1; i <= n; i++ {
				if want := valueFor(n, i, got.vals); !equalAny(got.vals[i-1], want) {
					return fmt.Errorf("%s: r%d = %v; want %v", name, i, got.vals[i-1], want)
				}
			}
		}
	}
	return nil
}

// checkPairs compares the pairs a sequence yielded with the model's.
func (e expectation) checkPairs(name string, got []seqPair) error {
	if len(got) != e.npairs {
		return fmt.Errorf("%s: %d pairs yielded (%v); want %d of %v", name, len(got), got, e.npairs, e.pairs)
	}
	match := func(w wantPair, g seqPair) bool {
		if !w.err {
			return g.err == nil && g.v == val[int](w.pos+1)
		}
		pe, ok := g.err.(*PositionError)
		want := failure(e.kinds[w.pos], w.pos+1)
		if w.canceled {
			want = context.Canceled
		}
		return ok && g.v == 0 && pe.Index == w.pos && pe.Call == e.call && pe.Arg == e.name(w.pos) && reaches(pe, want)
	}
	inOrder := min(e.npairs, e.anyOrderFrom)
	for i, w := range e.pairs[:inOrder] {
		if !match(w, got[i]) {
			return fmt.Errorf("%s: pair %d is (%v, %v); want %v", name, i, got[i].v, got[i].err, w)
		}
	}
	// The rest in any order: each matches a distinct expected pair.
	rest := slices.Clone(e.pairs[inOrder:])
	for i, g := range got[inOrder:] {
		j := slices.IndexFunc(rest, func(w wantPair) bool { return match(w, g) })
		if j < 0 {
			return fmt.Errorf("%s: pair %d is (%v, %v); want one of %v", name, inOrder+i, g.v, g.err, rest)
		}
		rest = slices.Delete(rest, j, j+1)
	}
	return nil
}

// checkAny passes if the observation matches one of the expectations.
func checkAny(t *testing.T, es []expectation, name string, n int, got observed) {
	t.Helper()
	var errs []error
	for _, e := range es {
		err := e.check(name, n, got)
		if err == nil {
			return
		}
		errs = append(errs, err)
	}
	t.Fatal(errors.Join(errs...))
}

var errTestCause = errors.New("test canceled the caller's ctx")

// valueFor is the value position i yields: typed per position for AwaitN
// and RunN, an int for All, Map and Scope.
func valueFor(n, i int, vals []any) any {
	if _, ok := vals[0].(int); ok && allInts(vals) {
		return val[int](i)
	}
	return wantValue(n, i)
}

func allInts(vals []any) bool {
	for _, v := range vals {
		if _, ok := v.(int); !ok {
			return false
		}
	}
	return true
}

func equalAny(a, b any) bool { return fmt.Sprint(a) == fmt.Sprint(b) }

// unreturned returns the positions whose function has started and not
// returned.
func unreturned(sl []*slot) []int {
	var ps []int
	for i, s := range sl {
		if s.calls.Load() == 0 {
			continue
		}
		select {
		case <-s.returned:
		default:
			ps = append(ps, i)
		}
	}
	return ps
}

// unstarted returns the positions whose function has not started.
func unstarted(sl []*slot) []int {
	var ps []int
	for i, s := range sl {
		if s.calls.Load() == 0 {
			ps = append(ps, i)
		}
	}
	return ps
}

// scenario runs the scene, releasing the positions in order once every
// function that can start has started, and observes the result. It runs in
// a synctest bubble, so a hang is reported as a deadlock instead of
// blocking.
func scenario(t *testing.T, s scene) (observed, bool) {
	n := len(s.kinds)
	sl := newSlots(n, kValue)
	for i, k := range s.kinds {
		sl[i].kind = k
		sl[i].gate = make(chan struct{})
		if k == kSlow {
			sl[i].kind = kValue
		}
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	// A position waiting for cancellation ends only if something cancels
	// it: a failure elsewhere in RunN, Map, Scope and MapSeq, or else the
	// test, by canceling the caller's ctx once every other position has
	// finished.
	parentCanceled := needsParentCancel(s)

	var got observed
	done := make(chan struct{})
	go func() {
		defer close(done)
		returned := false
		defer func() {
			if !returned {
				got.panicVal = recover()
				got.panicked = got.panicVal != nil
				got.exited = !got.panicked
				got.unreturned, got.unstarted = unreturned(sl), unstarted(sl)
			}
		}()
		makeCall(ctx, s, sl, &got)
		got.unreturned, got.unstarted = unreturned(sl), unstarted(sl)
		returned = true
	}()
	// Release the positions in order once all that can start have started,
	// waiting for each to finish, except those that wait for cancellation.
	synctest.Wait()
	for i, sp := range sl {
		want := int32(1)
		if s.op == opScopeLimit && i >= scopeLimit {
			want = 0 // waits for a slot
		}
		if c := sp.calls.Load(); c != want {
			t.Fatalf("%v: position %d called %d times before any was released; want %d", s, i, c, want)
		}
	}
	for _, i := range s.order {
		close(sl[i].gate)
		switch {
		case s.op == opScopeLimit || s.op == opMapSeqUnordered:
			// Let it start if it was waiting for a slot, return, and the
			// loop take its result, before the next is released.
			synctest.Wait()
		case sl[i].kind != kWaitCtx:
			<-sl[i].returned
		}
	}
	if s.op == opScopeLimit {
		synctest.Wait()
		select {
		case <-done:
		default:
			parentCanceled = true // see needsParentCancel
		}
	}
	if parentCanceled {
		synctest.Wait()
		cancel(errTestCause)
	}
	<-done
	return got, parentCanceled
}

// makeCall makes the call of the scene and records what it returns.
func makeCall(ctx context.Context, s scene, sl []*slot, got *observed) {
	n := len(sl)
	switch s.op {
	case opAwait:
		got.vals, got.err = arities[n-1].await(ctx, sl)
	case opRun:
		got.vals, got.err = arities[n-1].run(ctx, sl)
	case opAll:
		tasks := make([]*Task[int], n)
		for i, s := range sl {
			tasks[i] = Go(ctx, fnFor[int](s))
		}
		var vs []int
		vs, got.err = All(ctx, tasks)
		got.vals = intsToAny(vs)
	case opMap:
		var vs []int
		vs, got.err = Map(ctx, indexes0(n), n, func(ctx context.Context, i int) (int, error) {
			return fnFor[int](sl[i])(ctx)
		})
		got.vals = intsToAny(vs)
	case opScope, opScopeLimit:
		callScope(ctx, s, sl, got)
	case opMapSeq, opMapSeqUnordered:
		mapSeq := MapSeq[int, int]
		if s.op == opMapSeqUnordered {
			mapSeq = MapSeqUnordered[int, int]
		}
		for v, err := range mapSeq(ctx, slices.Values(indexes0(n)), n, func(ctx context.Context, i int) (int, error) {
			return fnFor[int](sl[i])(ctx)
		}) {
			got.pairs = append(got.pairs, seqPair{v, err})
			if len(got.pairs) == s.k {
				break
			}
		}
	}
}

// callScope runs a Scope whose children are the positions. For opScope the
// body spawns them all; for opScopeLimit it sets a limit of 2 and spawns
// child 0, which spawns the others before doing what its position does, so
// that they wait for a slot. With k > 0 the body then waits for its first k
// children and returns at the first that does not succeed.
func callScope(ctx context.Context, s scene, sl []*slot, got *observed) {
	n := len(sl)
	tasks := make([]*Task[int], n)
	spawned := make(chan struct{})
	var running atomic.Int32
	child := func(fn func(context.Context) (int, error)) func(context.Context) (int, error) {
		return func(ctx context.Context) (int, error) {
			r := running.Add(1)
			defer running.Add(-1)
			for p := atomic.LoadInt32(&got.peak); r > p && !atomic.CompareAndSwapInt32(&got.peak, p, r); p = atomic.LoadInt32(&got.peak) {
			}
			return fn(ctx)
		}
	}
	r, err := Scope(ctx, func(ctx context.Context, g *Group) (int, error) {
		if s.op == opScope {
			for i, sp := range sl {
				tasks[i] = Spawn(g, child(fnFor[int](sp)))
			}
			close(spawned)
		} else {
			g.SetLimit(scopeLimit)
			first := fnFor[int](sl[0])
			tasks[0] = Spawn(g, child(func(ctx context.Context) (int, error) {
				for i := 1; i < n; i++ {
					tasks[i] = Spawn(g, child(fnFor[int](sl[i])))
				}
				close(spawned)
				return first(ctx)
			}))
		}
		if s.k > 0 {
			<-spawned
			for _, tk := range tasks[:min(s.k, n)] {
				if _, err := tk.Wait(context.Background()); err != nil {
					return 0, err
				}
			}
		}
		return 0, nil
	})
	got.err = err
	if r != 0 {
		got.badTasks = append(got.badTasks, fmt.Sprintf("Scope returned %d; want the body's 0", r))
	}
	// Every child's task holds what its function returned, or, if it never
	// started, its cancellation.
	vals := make([]any, n)
	for i, tk := range tasks {
		if sl[i].calls.Load() == 0 {
			if v, err, ok := tk.TryWait(); !ok || v != 0 || !errors.Is(err, context.Canceled) {
				got.badTasks = append(got.badTasks, fmt.Sprintf("children[%d] never started and holds %v, %v, %v; want its cancellation", i, v, err, ok))
			}
			continue
		}
		if !isValue(s.kinds[i]) {
			continue
		}
		v, err, ok := tk.TryWait()
		if !ok || err != nil || v != val[int](i+1) {
			got.badTasks = append(got.badTasks, fmt.Sprintf("children[%d] holds %v, %v, %v; want %v", i, v, err, ok, val[int](i+1)))
		}
		vals[i] = v
	}
	if err == nil {
		got.vals = vals
	}
}

func intsToAny(vs []int) []any {
	if vs == nil {
		return nil
	}
	out := make([]any, len(vs))
	for i, v := range vs {
		out[i] = v
	}
	return out
}

// runScenario checks one scenario against the model.
func runScenario(t *testing.T, s scene) {
	t.Helper()
	synctest.Test(t, func(t *testing.T) {
		got, canceled := scenario(t, s)
		checkAny(t, model(s, canceled), s.String(), len(s.kinds), got)
	})
}

// TestFaultMatrix: every outcome at every position of every arity, for
// AwaitN and RunN, and All, Map, Scope (with and without a limit), MapSeq
// and MapSeqUnordered at the same sizes, the other positions returning
// values; the faulty position is released first, then the others in turn.
// The outcomes are the model's and errors that cannot be compared
// (matrixKinds).
//
// Under the race detector, which CI runs 40 times over, Scope and MapSeq
// stop at 8 positions: their whole table would add 3 s a run there, and
// the positions past 8 take no path that the first 8 do not.
func TestFaultMatrix(t *testing.T) {
	ran, cases := 0, 0
	for n := 1; n <= len(arities); n++ {
		for pos := 1; pos <= n; pos++ {
			for _, k := range matrixKinds {
				for o := range numOps {
					if o == opRun && n == 1 {
						continue // RunN starts at Run2
					}
					cases++
					if raceEnabled && o >= opScope && n > 8 {
						continue
					}
					ran++
					kinds := make([]kind, n) // kValue
					kinds[pos-1] = k
					order := make([]int, n)
					for i := range order {
						order[i] = (i + pos - 1) % n // the faulty position first
					}
					runScenario(t, scene{op: o, kinds: kinds, order: order})
				}
			}
		}
	}
	t.Logf("%d cases of %d", ran, cases)
}

// TestFaultMatrixPanicNil runs the matrix again with GODEBUG=panicnil=1,
// where recover returns nil for panic(nil).
func TestFaultMatrixPanicNil(t *testing.T) {
	if os.Getenv("GODEBUG") == "panicnil=1" {
		t.Skip("this is the run with panicnil=1")
	}
	if testing.Short() {
		t.Skip("runs a subprocess")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestFaultMatrix$", "-test.v")
	cmd.Env = append(os.Environ(), "GODEBUG=panicnil=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestFaultMatrix") {
		t.Fatalf("with GODEBUG=panicnil=1: %v\n%s", err, out)
	}
}
