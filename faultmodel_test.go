package task

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The fault model: what a call over n positions must do, given what each
// position does, when the positions are released in a given order and the
// caller's ctx may be canceled in between. It is written from the package
// documentation (doc.go and the doc comments of the calls), apart from the
// code, and shared by the fault matrix and the fuzzer (faults_test.go,
// fuzz_test.go).

// op is the call under test.
type op int

const (
	opAwait           op = iota // AwaitN over tasks started with Go
	opRun                       // RunN
	opAll                       // All over tasks started with Go
	opMap                       // Map with a limit of n
	opScope                     // Scope whose body spawns a child per position, then waits for its first k
	opScopeLimit                // Scope with SetLimit(2): the body spawns child 0, which spawns the others; the body waits for its first k
	opMapSeq                    // MapSeq over the positions with a limit of n
	opMapSeqUnordered           // MapSeqUnordered, the same
	opDo                        // Do
	opForEach                   // ForEach with a limit of 2
	opGo                        // Scope whose body starts the children with Spawn, Group.Go and Group.TryGo in turn, then waits for the spawned among its first k
	opGoLimit                   // Scope with SetLimit(2): the body starts child 0 with Group.Go, which starts the others with Spawn and Group.Go in turn; the body waits for the spawned among its first k
	opScopeTree                 // Scope with SetLimit(2): the body spawns child 0, which spawns the others, waits for children 1 to k, then does what its position does
	opNewGroup                  // NewGroup: the caller starts the children as opGo does, then Wait; nothing waits for a child's task
	opMapWithin                 // MapWithin with a limit of 2: the scene's stop is the budget's end, not the caller's ctx
	opQuorum                    // Quorum with k = scene.need()
	opUntil                     // Until, enough once scene.need() functions have succeeded
	opNewGroupLimit             // NewGroup with SetLimit(2): the caller starts the children with Spawn and Group.Go in turn, then Wait
	opZeroGroup                 // the zero Group with SetLimit(2), as opNewGroupLimit: no ctx, no options
	numOps
)

var opNames = [...]string{"Await", "Run", "All", "Map", "Scope", "ScopeLimit", "MapSeq", "MapSeqUnordered",
	"Do", "ForEach", "Go", "GoLimit", "ScopeTree", "NewGroup", "MapWithin", "Quorum", "Until", "NewGroupLimit", "ZeroGroup"}

func (o op) String() string { return opNames[o] }

// scopeLimit is the limit of the limited Scopes and ForEach.
const scopeLimit = 2

// limit is how many of the n functions of o run at once.
func (o op) limit(n int) int {
	switch o {
	case opScopeLimit, opGoLimit, opScopeTree, opForEach, opMapWithin, opNewGroupLimit, opZeroGroup:
		return min(n, scopeLimit)
	}
	return n
}

// runs reports whether o runs the functions, rather than awaiting tasks.
func (o op) runs() bool { return o != opAwait && o != opAll }

// takes is the options o takes: its row of optionTable, the table the
// package documents (docs/design.md). Do, Quorum, Until and the zero Group
// take none.
func (o op) takes() optSet {
	switch o {
	case opRun:
		return optionTable[famRunN].takes
	case opAwait, opAll:
		return optionTable[famAwait].takes
	case opMap:
		return optionTable[famMap].takes
	case opForEach, opMapWithin:
		return optionTable[famForEach].takes
	case opMapSeq, opMapSeqUnordered:
		return optionTable[famStream].takes
	case opNewGroup, opNewGroupLimit:
		return optionTable[famGroup].takes
	case opScope, opScopeLimit, opGo, opGoLimit, opScopeTree:
		return optionTable[famScope].takes
	}
	return 0
}

// graceful reports whether o takes the Grace option: every call that runs
// functions but Do, the races and the zero Group.
func (o op) graceful() bool { return o.takes()&graceFlag != 0 }

// race reports whether o is a race (Quorum, Until): RunFirstOK's rules,
// which take no options.
func (o op) race() bool { return o == opQuorum || o == opUntil }

// scope reports whether o is a Scope or a Group.
func (o op) scope() bool {
	switch o {
	case opScope, opScopeLimit, opGo, opGoLimit, opScopeTree:
		return true
	}
	return o.group()
}

// group reports whether o is a Group waited for with Wait: one that can be
// used again after Wait, in rounds.
func (o op) group() bool { return o == opNewGroup || o == opNewGroupLimit || o == opZeroGroup }

// spawner reports whether child 0 of o starts the other children (then
// does what its position does): with BlockAtLimit it blocks at the limit
// while it holds its slot.
func (o op) spawner() bool { return o == opScopeLimit || o == opGoLimit || o == opScopeTree }

// firstError reports whether o takes the option FirstError: RunN, Map,
// ForEach, MapWithin, Scope and NewGroup.
func (o op) firstError() bool { return o.takes()&firstError != 0 }

// values reports whether o returns a value per position: RunN, Map and
// MapWithin (and the awaits, modelAwait).
func (o op) values() bool { return o == opRun || o == opMap || o == opMapWithin }

// seq reports whether o yields pairs (MapSeq and MapSeqUnordered).
func (o op) seq() bool { return o == opMapSeq || o == opMapSeqUnordered }

// A start is how a Scope's child is started.
type start int

const (
	bySpawn start = iota
	byGo
	byTryGo
)

// startOf is how child i of o is started: opGo takes Spawn, Group.Go and
// Group.TryGo in turn (below the limit, TryGo starts at once), opGoLimit
// starts child 0 with Group.Go and then Group.Go and Spawn in turn; the
// others spawn every child.
func (o op) startOf(i int) start {
	switch {
	case o == opGo, o == opNewGroup:
		return start(i % 3)
	case o == opGoLimit && (i == 0 || i%2 == 1):
		return byGo
	case o == opNewGroupLimit, o == opZeroGroup:
		return start(i % 2) // no TryGo: at the limit it starts nothing
	}
	return bySpawn
}

// waited returns the children that the body (opScopeTree: child 0) waits
// for: those with a task among the first k (opScopeTree: children 1 to k).
func (o op) waited(n, k int) []int {
	var list []int
	if o == opScopeTree {
		for i := 1; i <= min(k, n-1); i++ {
			list = append(list, i)
		}
		return list
	}
	if !o.scope() || o.group() {
		return nil
	}
	for i := range min(k, n) {
		if o.startOf(i) == bySpawn {
			list = append(list, i)
		}
	}
	return list
}

// A waitForm is how the body or a child waits for children: each a wait
// that runs a child still waiting for a slot inline (see Group.SetLimit).
type waitForm int

const (
	waitTurn  waitForm = iota // Wait on each in turn, returning what the first that did not succeed gave
	waitAll                   // All
	waitAwait                 // AwaitN
	numWaits
)

var waitNames = [...]string{"Wait", "All", "AwaitN"}

func (w waitForm) String() string { return waitNames[w] }

// inTurn reports whether w waits for its tasks one after another, in
// order; the others may take them in any order.
func (w waitForm) inTurn() bool { return w == waitTurn }

// faultKinds are the outcomes a position can have in the fuzzer's first
// format (see FuzzOutcomes), with kSlow standing for a function that
// returns a value late. Their order is part of that format.
var faultKinds = []kind{kValue, kError, kPanic, kPanicErr, kPanicNil, kGoexit, kSlow, kWaitCtx}

// matrixKinds are the outcomes of the fault matrix and of the fuzzer's
// second format: faultKinds; failures with errors whose dynamic types are
// not comparable (listFailure, mapFailure, funcFailure), which the model
// expects to be handled as any other error, never to crash the package;
// and kWaitStop, a function that finishes when its call stops taking new
// work.
var matrixKinds = append(slices.Clip(faultKinds), kErrSlice, kErrMap, kErrFunc, kWaitStop)

func isPanic(k kind) bool   { return k == kPanic || k == kPanicErr || k == kPanicNil }
func isError(k kind) bool   { return k == kError || k == kErrSlice || k == kErrMap || k == kErrFunc }
func isValue(k kind) bool   { return k == kValue || k == kSlow }
func isWaiting(k kind) bool { return k == kWaitCtx || k == kWaitStop }

// noStop is scene.stopAt when the test cancels the caller's ctx only if
// the call has not ended once every position is released.
const noStop = -1

// graceD is the grace period of a scene with grace: fake time, in a
// synctest bubble.
const graceD = time.Minute

// budgetD is MapWithin's budget in a scene: fake time, which passes only
// when the scene stops (see scenario).
const budgetD = time.Hour

// A scene is one run of the model: op over one outcome per position, the
// positions released in order, one at a time, each once everything has
// settled.
//
// For a Scope, k > 0 makes the body wait, with wait, for its first k
// children that have a task (opScopeTree: child 0 waits for children 1 to
// k); waitTurn returns at the first that did not succeed, with what it
// gave (an early return that receives a failure), the others wait for all
// and return their error. For MapSeq, the loop breaks out after k pairs.
//
// With stopAt ≥ 0 the test cancels the caller's ctx (MapWithin: lets its
// budget end) once stopAt positions are released (0: before any), with grace the call has Grace(graceD); with
// noStop, the test cancels it only if the call has not ended once every
// position is released (a position waits for cancellation and nothing
// else will cancel it). With firstError, keepGoing, settled, blockAtLimit
// and startAll the call has that option, if its op takes it (see
// scene.opt; the others must not change). With prior, the call of a group
// (see op.group) is a later round: a first round of one child that does
// what prior says has been waited for, and the positions are the children
// of the next round.
type scene struct {
	op           op
	kinds        []kind
	order        []int
	k            int
	wait         waitForm
	stopAt       int
	grace        bool
	firstError   bool
	keepGoing    bool
	settled      bool
	blockAtLimit bool
	startAll     bool
	prior        priorRound
}

// A priorRound is what the one child of a group's first round does, when
// the scene is a later round.
type priorRound uint8

const (
	noPrior     priorRound = iota // the scene is the group's first round
	priorValue                    // returns nil
	priorError                    // returns errPrior
	priorPanic                    // panics
	priorGoexit                   // calls runtime.Goexit
	numPriors
)

var priorNames = [...]string{"none", "value", "error", "panic", "goexit"}

func (p priorRound) String() string { return priorNames[p] }

// opt reports whether the call of s has option f (one flag): the scene
// draws it and the op takes it (its row of optionTable). The zero Group
// has KeepGoing and FirstError, which it is documented to be made with,
// and no other. StartAll is never drawn with KeepGoing, with which it
// panics.
func (s *scene) opt(f optSet) bool {
	if s.op == opZeroGroup {
		return f == keepGoing || f == firstError
	}
	if s.op.takes()&f == 0 {
		return false
	}
	switch f {
	case keepGoing:
		return s.keepGoing
	case settled:
		return s.settled
	case firstError:
		return s.firstError
	case blockAtLimit:
		return s.blockAtLimit
	case startAll:
		return s.startAll && !s.keepGoing
	case graceFlag:
		return s.grace
	}
	return false
}

// options is the options the call of s is made with: none for the zero
// Group, which takes none.
func (s *scene) options() []Option {
	if s.op == opZeroGroup {
		return nil
	}
	var opts []Option
	if s.opt(graceFlag) {
		opts = append(opts, Grace(graceD))
	}
	for _, o := range []struct {
		f optSet
		o Option
	}{{keepGoing, KeepGoing}, {settled, Settled}, {firstError, FirstError}, {blockAtLimit, BlockAtLimit}, {startAll, StartAll}} {
		if s.opt(o.f) {
			opts = append(opts, o.o)
		}
	}
	return opts
}

// laterRound reports whether the scene is a later round of a group.
func (s *scene) laterRound() bool { return s.op.group() && s.prior != noPrior }

// roundCtxDone reports whether the children get a context that is done
// from the start: the ctx of a group made by NewGroup stays canceled after
// a Wait, and the children of a later round get it (Group.Wait). The zero
// Group begins each round as a new zero Group.
func (s *scene) roundCtxDone() bool { return s.laterRound() && s.op != opZeroGroup }

// runsEverything reports whether the end of the caller's ctx leaves the
// call taking new work: with KeepGoing "nothing is canceled and every
// function runs" (package documentation), and with StartAll every child
// starts, "also after the caller's ctx has ended" (StartAll), unless the
// end of ctx is a stop, as it is with Grace; but for a stream, which
// starts no new call once ctx ends (MapSeq), and MapWithin, which starts
// no input after the budget's end "with KeepGoing too".
func (s *scene) runsEverything() bool {
	return (s.opt(keepGoing) || s.opt(startAll)) && !s.grace && !s.op.seq() && s.op != opMapWithin
}

// dimensions names the options of s that its call has (per op: "Map
// KeepGoing"), and whether it is a later round, for counting what a run
// of scenes covered.
func (s scene) dimensions() []string {
	var ds []string
	for _, o := range optionNames {
		if s.opt(o.flag) {
			ds = append(ds, s.op.String()+" "+o.name)
		}
	}
	if s.laterRound() {
		ds = append(ds, s.op.String()+" after a round that did "+s.prior.String())
	}
	return ds
}

func (s scene) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%v%d %v order %v", s.op, len(s.kinds), s.kinds, s.order)
	if s.k > 0 {
		fmt.Fprintf(&b, " k=%d", s.k)
		if s.op.scope() && !s.op.group() {
			fmt.Fprintf(&b, " by %v", s.wait)
		}
	}
	if s.stopAt != noStop {
		fmt.Fprintf(&b, " stop at %d", s.stopAt)
	}
	if s.grace {
		b.WriteString(" with grace")
	}
	for _, o := range []struct {
		on   bool
		name string
	}{{s.opt(firstError), "FirstError"}, {s.opt(keepGoing), "KeepGoing"}, {s.opt(settled), "Settled"}, {s.opt(blockAtLimit), "BlockAtLimit"}, {s.opt(startAll), "StartAll"}} {
		if o.on {
			b.WriteString(" with " + o.name)
		}
	}
	if s.prior != noPrior {
		fmt.Fprintf(&b, " after a round that did %v", s.prior)
	}
	return b.String()
}

// seqPair is one pair a sequence yielded.
type seqPair struct {
	v   int
	err error
}

// wantPair is a pair the model expects: the value of position pos, or its
// error (its failure, or context.Canceled when ctx stopped it). Pairs of
// the same group come in any order; an optional pair may be missing.
type wantPair struct {
	pos      int
	err      bool
	canceled bool
	group    int
	optional bool
}

func (w wantPair) String() string {
	s := fmt.Sprintf("inputs[%d]:value", w.pos)
	switch {
	case w.canceled:
		s = fmt.Sprintf("inputs[%d]:canceled", w.pos)
	case w.err:
		s = fmt.Sprintf("inputs[%d]:error", w.pos)
	}
	if w.optional {
		s += "?"
	}
	return s
}

// expectation is what the model says of one way the call can go.
type expectation struct {
	call           string // the Call that errors name ("Run3", "Scope", ...)
	arg            string // how they name positions: "f", "t" (1-based) or a slice ("inputs", "children", "fns")
	parentCanceled bool   // the test canceled the caller's ctx after every release (see scene)
	eitherEnd      bool   // parentCanceled may be either (a loop that breaks out, which the model does not follow)
	panics, exits  bool
	firstPanic     int           // the Index of the panic raised: the first in argument order (-1: a Scope's body)
	positions      []int         // 0-based positions in the error or the panic, sorted (-1: a Scope's body)
	errs           map[int][]int // per failing position, the positions whose failures its error holds (default: its own)
	ctxErr         bool          // the caller's ctx ended the call: errors.Is(err, context.Canceled) and the cause
	anyCtx         bool          // ctxErr is not checked (a sequence's panic holds the unfinished calls it did not yield)
	canceledAt     []int         // positions whose error is context.Canceled rather than their failure (awaits)
	lists          bool          // check unfinished, canceled and notStarted
	unfinished     []int         // CallError.Unfinished, sorted
	canceled       []int         // CallError.Canceled, sorted
	notStarted     int           // CallError.NotStarted
	allReturned    bool          // every function that started has returned when the call ends
	allStarted     bool          // every function has started when the call ends, but those in unstarted
	unstarted      []int         // the positions that never start
	initial        []int         // if not nil: the positions started before any is released
	maxRunning     int32         // if not 0: never more functions running at once
	seq            bool          // a sequence: the pairs it yields are checked
	pairs          []wantPair    // what it yields if the loop does not break out
	npairs         int           // how many of them it yields at most (those not optional, at least)
	breakAt        int           // the loop breaks out after this many pairs, if not 0
	kinds          []kind        // what each position does: the failure of an error
	bugs           []string      // if not nil: what the library does today instead, because of these bugs (see bugs_test.go)
	leftByStop     []int         // for a known bug: the work a stop left, which may be listed as canceled instead
	firstError     bool          // the call has FirstError: a returned error is checked by checkFirst, not as a *CallError
	firstFailed    []int         // with firstError: the positions whose own failure may be the first the call recorded, sorted (see simState.noteFirst)
	notStartedAt   []int         // the positions counted in notStarted
	skippedAt      []int         // those of notStartedAt that a failure left
	budget         bool          // MapWithin: the stop is the budget's end (DeadlineExceeded, cause ErrBudget), and left is checked
	left           []int         // MapWithin and Until: the positions the call returns as left
	race           bool          // Quorum or Until: at and left are checked, not vals
	at             []int         // a race that returns: the positions of the successes it returns, in order
	notEnough      bool          // Until: the error is ErrNotEnough
	settled        bool          // the call has Settled: with an error, the values produced come back (see value)
	classes        []class       // if the call returns values: per position, how it ended (see value); cRunning: an await's task may have completed or not
	result         bool          // a Scope: its result is checked (the body returns bodyValue)
	wantNil        bool          // the call returns nil: nothing failed, nor did ctx stop it, in a later round
	wantCanceled   bool          // the call returns an error holding context.Canceled: nothing failed, but a later round's children returned its done ctx's error
	given          int           // a Scope or a group: the children whose Go or Spawn has returned before any position is released (-1: not checked)
	startsDone     []int         // if checkStarts: the positions whose ctx is done as their function begins
	checkStarts    bool
}

// bodyValue is what the body of a Scope returns, with its error.
const bodyValue = 1000

// A valueWant is what the call returns at a position.
type valueWant uint8

const (
	valZero   valueWant = iota // the zero value
	valValue                   // the position's value
	valEither                  // either (a task that may have completed or not when ctx ended an await)
)

// value is what the call returns at position p: with no error, every value;
// with an error, zero values, or with Settled every value produced ("a
// position whose function panicked or called runtime.Goexit, or whose
// task had not completed when ctx was done, holds the zero value"; an
// input never started is zero), a failure's value included. MapWithin
// returns "the result of every input whose call succeeded ... and zero
// elsewhere", whatever its error.
func (e expectation) value(p int, err error) valueWant {
	c := e.classes[p]
	switch {
	case e.budget:
		if c == cValue {
			return valValue
		}
		return valZero
	case err == nil:
		return valValue
	case !e.settled:
		return valZero
	}
	switch c {
	case cValue, cFailure, cCanceled, cUnfinished:
		return valValue
	case cRunning:
		return valEither
	}
	return valZero
}

// noPanic is firstPanic when no position panics.
const noPanic = -2

// model returns every way the scene can go.
func model(s scene) []expectation {
	if !s.op.runs() {
		return append(modelAwait(s, false), modelAwait(s, true)...)
	}
	if s.op.race() {
		return []expectation{modelRace(s)}
	}
	var es []expectation
	for _, st := range simulate(s, false) {
		e := st.expectation()
		es = append(es, e)
		es = append(es, st.asBugs(e)...)
	}
	if s.op == opMapWithin {
		for i := range es {
			es[i] = es[i].withinBudget()
		}
	}
	return es
}

// modelAwait is what AwaitN and All do: they wait for every task unless
// their ctx ends first, and cancel nothing. parentCanceled: the test
// canceled their ctx once every task was released.
func modelAwait(s scene, parentCanceled bool) []expectation {
	kinds := s.kinds
	n := len(kinds)
	e := expectation{firstPanic: noPanic, allReturned: !parentCanceled, kinds: kinds, parentCanceled: parentCanceled,
		errs: map[int][]int{}}
	if s.op == opAwait {
		e.call, e.arg = "Await"+strconv.Itoa(n), "t"
	} else {
		e.call, e.arg = "All", "tasks"
	}
	var waiting []int
	e.settled = s.opt(settled)
	e.classes = make([]class, n)
	for i, k := range kinds {
		switch {
		case isValue(k):
			e.classes[i] = cValue
		case isError(k):
			e.positions = append(e.positions, i)
			e.errs[i] = []int{i}
			e.classes[i] = cFailure
		case isPanic(k):
			e.panics = true
			e.positions = append(e.positions, i)
			if e.firstPanic == noPanic {
				e.firstPanic = i
			}
			e.classes[i] = cPanic
		case k == kGoexit:
			e.exits = true
			e.positions = append(e.positions, i)
			e.classes[i] = cGoexit
		case isWaiting(k):
			waiting = append(waiting, i)
			e.classes[i] = cUnfinished // completed with ctx's error, its value with it
		}
	}
	if len(waiting) > 0 != parentCanceled {
		return nil // only the test's cancellation ends a task that waits for it
	}
	if !parentCanceled {
		return []expectation{e}
	}
	// Either the call sees its ctx done while a task is pending and
	// returns the context's error alone, at once; or the tasks waiting for
	// cancellation complete first, and their cancellation errors are
	// failures like any other (AwaitN filters nothing).
	early := expectation{call: e.call, arg: e.arg, firstPanic: noPanic, ctxErr: true, kinds: kinds, parentCanceled: true,
		settled: e.settled, classes: slices.Clone(e.classes)}
	for _, p := range waiting {
		early.classes[p] = cRunning // completing as the await gives up
	}
	late := e
	late.positions = slices.Sorted(slices.Values(append(slices.Clone(e.positions), waiting...)))
	late.canceledAt = waiting
	late.allReturned = true
	return []expectation{early, late}
}

// class is how a position ended, in the model.
type class uint8

const (
	cRunning    class = iota // not ended
	cValue                   // returned a value, or an error after it had finished anyway: success
	cFailure                 // an error of its own
	cPanic                   // a panic
	cGoexit                  // runtime.Goexit
	cCanceled                // stopped by the call (fail-fast): CallError.Canceled
	cUnfinished              // stopped by the caller's ctx: CallError.Unfinished
	cNotStarted              // never started, the call having stopped taking new work: CallError.NotStarted, ErrStopped or ctx
	cSkipped                 // never started after a failure: CallError.NotStarted, not a stop
	cLeft                    // a sequence's input not pulled or held: not reported
)

// failed reports whether c is a failure of the position's own, which
// cancels the call (fail-fast) and is reported.
func (c class) failed() bool { return c == cFailure || c == cPanic || c == cGoexit }

// stop reports whether c is a cancellation, as a waiter receives it.
func (c class) stop() bool {
	return c == cCanceled || c == cUnfinished || c == cNotStarted || c == cSkipped
}

// A waiter is the body of a Scope, or child 0 of opScopeTree, waiting
// for children with a waitForm. It takes them one after another, running
// inline one still waiting for a slot; a wait over several tasks may take
// them in argument order or last first (the package documentation does
// not say: the model allows both, and AllSeq takes them as they come).
type waiter struct {
	active bool
	list   []int // the children waited for, in the order it takes them; shared between states
	next   int   // the index in list of the child waited for now
	inline int   // the child it runs inline now, or -1
	ran    bool  // it ran a child inline
}

// A simState is where the functions of a scene are, in the model. Between
// two releases the model takes the steps of the goroutines (see run):
// those that commute as they come, and where the order changes the
// outcome (a free slot taking the next child while a sibling fails, or
// while a waiter takes that child inline) every order (see branches).
type simState struct {
	s        *scene
	lib      bool    // simulate a waiter that starts a child after a failure it saw (a bug now fixed; always false)
	started  []bool  // per position: its function began
	done     []bool  // per position: it ended, or will never start
	released []bool  // per position: its gate is open
	class    []class // per position, once done
	epoch    []int   // per position: the settle in which it ended
	queue    []int   // the positions waiting for a slot (Scope) or a worker (ForEach), in order
	slots    []int   // per goroutine holding a slot: the position it runs, or -1 once that returned
	ep       int     // the settle now

	failed           bool  // a failure canceled the call (fail-fast)
	callerDone       bool  // the caller's ctx is canceled
	cut              bool  // the grace period is over
	left             bool  // the stop left work not started
	leftWork         []int // that work
	failLater        bool  // a failure after a stop that left work not started (see bugs_test.go)
	stopAfterFailure bool  // the caller's ctx ended after a failure

	body      waiter
	bodyEnded bool
	bodyClass class
	tree      waiter // child 0's, for opScopeTree
	recv      [2][]int
	hidden    []bool // children not listed: the body received their failure, or an await passed their panic or Goexit on

	parentCanceled      bool
	initial             []int // the positions started before any was released
	firstFailed         []int // with FirstError: the positions whose own failure may be the first recorded (see noteFirst)
	pending             bool  // lib: a child failed, and the call is not canceled yet
	startedAfterFailure bool  // lib: a waiter started a child in that time
}

// recvBody and recvTree index simState.recv: the children whose failures
// the body's (child 0's) error holds.
const (
	recvBody = 0
	recvTree = 1
)

// simulate returns the states the scene can end in. With lib, it follows
// what the library does today where it meets bugStartAfterFailure: the
// task of a child that fails completes before the call is canceled, and a
// wait may start the next child in between.
func simulate(s scene, lib bool) []simState {
	n := len(s.kinds)
	lim := s.op.limit(n)
	st := simState{
		s:        &s,
		lib:      lib,
		started:  make([]bool, n),
		done:     make([]bool, n),
		released: make([]bool, n),
		class:    make([]class, n),
		epoch:    make([]int, n),
		hidden:   make([]bool, n),
	}
	for i := range n {
		if i < lim {
			st.started[i] = true
			st.slots = append(st.slots, i)
		} else {
			st.queue = append(st.queue, i)
		}
	}
	list := s.op.waited(n, s.k)
	st.body.inline, st.tree.inline, st.bodyClass = -1, -1, cValue
	st.bodyEnded = !s.op.scope()
	var starts []simState
	for _, backward := range []bool{false, true} {
		if backward && (s.wait.inTurn() || len(list) < 2) {
			break
		}
		x := st.clone()
		w := waiter{active: len(list) > 0, list: list, inline: -1}
		if backward {
			w.list = slices.Clone(list)
			slices.Reverse(w.list)
		}
		if s.op == opScopeTree {
			x.tree = w
			x.bodyEnded = true // the body returns at once
		} else {
			x.body = w
			x.bodyEnded = x.bodyEnded || !w.active
		}
		starts = append(starts, x)
	}
	states := settle(starts)
	for i := range states {
		states[i].initial = []int{}
		for p, ok := range states[i].started {
			if ok {
				states[i].initial = append(states[i].initial, p)
			}
		}
	}
	for step, i := range s.order {
		if step == s.stopAt {
			states = each(states, (*simState).stop)
		}
		states = each(states, func(st *simState) { st.released[i] = true })
	}
	if s.stopAt == len(s.order) {
		states = each(states, (*simState).stop)
	}
	var out []simState
	for _, st := range states {
		if !st.ended() {
			end := st.clone()
			switch {
			case s.stopAt == noStop:
				end.parentCanceled = true
				end.stop()
			case s.grace:
				end.cut = true
			}
			for _, x := range settle([]simState{end}) {
				if !x.ended() {
					panic(fmt.Sprintf("simulate: %v does not end: %+v", s, x))
				}
				out = append(out, x)
			}
			continue
		}
		out = append(out, st)
	}
	return out
}

// each applies f to a copy of every state, then settles them.
func each(states []simState, f func(*simState)) []simState {
	next := make([]simState, len(states))
	for i, st := range states {
		next[i] = st.clone()
		f(&next[i])
	}
	return settle(next)
}

func (st simState) clone() simState {
	st.started = slices.Clone(st.started)
	st.done = slices.Clone(st.done)
	st.released = slices.Clone(st.released)
	st.class = slices.Clone(st.class)
	st.epoch = slices.Clone(st.epoch)
	st.queue = slices.Clone(st.queue)
	st.leftWork = slices.Clone(st.leftWork)
	st.slots = slices.Clone(st.slots)
	st.hidden = slices.Clone(st.hidden)
	st.recv = [2][]int{slices.Clone(st.recv[0]), slices.Clone(st.recv[1])}
	st.firstFailed = slices.Clone(st.firstFailed)
	return st
}

// key identifies a state, to follow it once.
func (st *simState) key() string {
	b := make([]byte, 0, 128)
	for i := range st.done {
		var x byte
		if st.started[i] {
			x |= 1
		}
		if st.done[i] {
			x |= 2
		}
		if st.released[i] {
			x |= 4
		}
		if st.hidden[i] {
			x |= 8
		}
		b = append(b, x, byte(st.class[i]), byte(st.epoch[i]))
	}
	b = append(b, '|')
	for _, q := range st.queue {
		b = append(b, byte(q))
	}
	b = append(b, '|')
	for _, g := range st.slots {
		b = append(b, byte(g+1))
	}
	b = append(b, '|')
	flags := []bool{st.failed, st.callerDone, st.cut, st.left, st.failLater, st.stopAfterFailure, st.bodyEnded, st.parentCanceled,
		st.body.active, st.body.ran, st.tree.active, st.tree.ran, st.pending, st.startedAfterFailure}
	for _, f := range flags {
		if f {
			b = append(b, '1')
		} else {
			b = append(b, '0')
		}
	}
	for _, w := range []waiter{st.body, st.tree} {
		b = append(b, byte(w.next), byte(w.inline+1))
		if len(w.list) > 1 {
			b = append(b, byte(w.list[0]))
		}
	}
	b = append(b, byte(st.bodyClass), '|')
	for _, i := range st.initial {
		b = append(b, byte(i))
	}
	for _, r := range append(st.recv[:], st.firstFailed) {
		b = append(b, '|')
		for _, j := range r {
			b = append(b, byte(j+1))
		}
	}
	return string(b)
}

// ended reports whether the call has ended: the body and every position.
func (st *simState) ended() bool {
	return st.bodyEnded && !st.pending && !slices.Contains(st.done, false)
}

// ctxDone reports whether the functions' context is done: after a
// failure (none cancels with KeepGoing), in a later round of a group made
// by NewGroup, or once the caller's is, at once or, with Grace, once the
// grace period is over.
func (st *simState) ctxDone() bool {
	return st.failed || st.s.roundCtxDone() || st.callerDone && (!st.s.grace || st.cut)
}

// stopClass is how a function that gives up with its context's error
// ends: stopped by the caller's ctx if it is done (that rule comes first),
// else by the call. MapWithin's stop is its budget's end, a deadline: a
// function that a failure canceled in the grace period returns that
// cancellation (context.Canceled), which is not the budget's error
// (DeadlineExceeded): the call stopped it.
func (st *simState) stopClass() class {
	if st.callerDone && !(st.s.op == opMapWithin && st.s.grace && st.failed && !st.cut) {
		return cUnfinished
	}
	return cCanceled
}

// canReturn reports whether position i, running, returns now.
func (st *simState) canReturn(i int) bool {
	if !st.released[i] || st.s.op == opScopeTree && i == 0 && st.tree.active || i == 0 && st.s.op.spawner() && st.spawning() {
		return false
	}
	switch st.s.kinds[i] {
	case kWaitCtx:
		return st.ctxDone()
	case kWaitStop:
		// Stopping(ctx) is closed when the call stops taking new work;
		// without Grace it is ctx.Done().
		return st.ctxDone() || st.callerDone
	}
	return true
}

// classOf is how position i ends when it returns now.
func (st *simState) classOf(i int) class {
	k := st.s.kinds[i]
	switch {
	case isValue(k):
		return cValue
	case isError(k):
		return cFailure
	case isPanic(k):
		return cPanic
	case k == kGoexit:
		return cGoexit
	case k == kWaitStop && !st.ctxDone():
		return cValue // it returns ctx.Err(), nil: it finished in time
	}
	return st.stopClass()
}

// end records that position i ended as c.
func (st *simState) end(i int, c class) {
	st.done[i], st.class[i], st.epoch[i] = true, c, st.ep
	switch {
	case !c.failed():
	case st.lib && !st.failed:
		st.pending = true
	default:
		st.fail()
	}
}

// fail cancels the call: no work starts after a failure; a Scope's
// children waiting for a slot, and the inputs of Map and ForEach not
// taken, are counted as not started; a sequence's are left. With
// KeepGoing a failure does nothing of the kind; with StartAll it cancels
// the functions' context, and every child still starts.
func (st *simState) fail() {
	if st.failed || st.s.opt(keepGoing) {
		return
	}
	st.failed = true
	if st.left {
		st.failLater = true
	}
	if st.s.opt(startAll) {
		return
	}
	c := cSkipped
	if st.s.op == opMapSeq || st.s.op == opMapSeqUnordered {
		c = cLeft
	}
	st.drop(c)
}

// stop is the end of the caller's ctx: after a failure, it changes
// nothing but the classes of what returns; before one, the call stops
// taking new work, and the work waiting never starts: counted in
// NotStarted, but for a sequence, whose inputs not pulled are not. With
// StartAll and Grace the work a failure left waiting is refused by the
// stop (a stop "still refuses new children"); with KeepGoing or StartAll
// and no Grace the call takes new work still (see scene.runsEverything).
func (st *simState) stop() {
	st.callerDone = true
	st.stopAfterFailure = st.failed
	if len(st.queue) == 0 || st.s.runsEverything() {
		return
	}
	st.left = true
	st.leftWork = slices.Clone(st.queue)
	st.drop(cNotStarted)
}

// drop ends the work waiting as c.
func (st *simState) drop(c class) {
	for _, q := range st.queue {
		st.done[q], st.class[q], st.epoch[q] = true, c, st.ep
	}
	st.queue = nil
}

// settle follows every interleaving from states until no goroutine can
// take a step, and returns the states reached, each once.
func settle(states []simState) []simState {
	seen := map[string]bool{}
	var out []simState
	var visit func(st simState)
	visit = func(st simState) {
		st.run()
		k := st.key()
		if seen[k] {
			return
		}
		seen[k] = true
		next := st.branches()
		if len(next) == 0 {
			out = append(out, st)
		}
		for _, x := range next {
			visit(x)
		}
	}
	for _, st := range states {
		st.ep++
		visit(st)
	}
	return out
}

// A step is what one goroutine does next.
type step struct {
	what  stepKind
	g     int  // the slot (stepReturn, stepTake), or the waiter: 0 the body, 1 child 0
	fails bool // it ends in a failure, which cancels the call
}

type stepKind uint8

const (
	stepReturn     stepKind = iota // the child in slot g returns
	stepTake                       // slot g, free, takes the first child waiting
	stepInline                     // the child waiter g runs inline returns
	stepFinish                     // waiter g has seen every child it waits for complete (or, in turn, one fail)
	stepWaiterTake                 // waiter g takes the child it waits for, still waiting for a slot, inline
	stepTrigger                    // lib: the failure of a child cancels the call (see simulate)
)

// waiterAt returns waiter g of st.
func (st *simState) waiterAt(g int) *waiter {
	if g == 0 {
		return &st.body
	}
	return &st.tree
}

// steps returns the steps the goroutines can take now.
func (st *simState) steps() []step {
	var steps []step
	for g, c := range st.slots {
		switch {
		case c >= 0 && st.canReturn(c):
			steps = append(steps, step{stepReturn, g, st.classOf(c).failed()})
		case c == -1 && len(st.queue) > 0:
			steps = append(steps, step{stepTake, g, false})
		}
	}
	if st.pending {
		steps = append(steps, step{stepTrigger, 0, true})
	}
	for g := range 2 {
		w := st.waiterAt(g)
		switch {
		case !w.active, st.spawning():
		case w.inline >= 0:
			if st.canReturn(w.inline) {
				steps = append(steps, step{stepInline, g, st.classOf(w.inline).failed()})
			}
		case st.wants(w) >= 0:
			steps = append(steps, step{stepWaiterTake, g, false})
		default:
			if got, ok := st.waitEnded(w); ok {
				c, _ := st.waitOutcome(got)
				steps = append(steps, step{stepFinish, g, c.failed()})
			}
		}
	}
	return steps
}

// apply takes step x.
func (st *simState) apply(x step) {
	if x.fails && st.s.opt(firstError) && st.firstFailed == nil {
		st.noteFirst()
	}
	switch x.what {
	case stepReturn:
		c := st.slots[x.g]
		st.end(c, st.classOf(c))
		st.slots[x.g] = -1
	case stepTake:
		q := st.queue[0]
		st.slots[x.g] = q
		st.started[q] = true
		st.queue = st.queue[1:]
	case stepInline:
		w := st.waiterAt(x.g)
		st.end(w.inline, st.classOf(w.inline))
		w.inline = -1
	case stepTrigger:
		st.pending = false
		st.fail()
	case stepFinish:
		w := st.waiterAt(x.g)
		got, _ := st.waitEnded(w)
		st.finishWait(w, x.g-1, got)
	case stepWaiterTake:
		w := st.waiterAt(x.g)
		q := st.wants(w)
		st.queue = slices.DeleteFunc(st.queue, func(y int) bool { return y == q })
		st.started[q] = true
		w.inline, w.ran = q, true
		if st.pending {
			st.startedAfterFailure = true
		}
	}
}

// noteFirst records which positions may be the first whose own failure
// the call records (FirstError), as the first step that ends in a failure
// is taken: that step's, and those of every other step that ends in a
// failure and can be taken now. The model takes such steps one after the
// other, in no particular order (they commute for everything else it
// follows: see free), but they race: two functions whose failures are both
// ready fail in goroutines of their own, and either may be recorded first,
// so the model accepts either. Every step that does not end in a failure
// and does not take a child has been taken before (free takes those
// first), but one that races with the failure (see seesFailure), a branch
// of its own; so a failure that one of them enables is among those ready.
// A child that a free slot or a waiter may take while a sibling fails is a
// branch of its own too (see branches), where its failure is ready
// alongside.
// Failures of later settles come after: the test waits for every goroutine
// to settle before it releases the next position.
func (st *simState) noteFirst() {
	st.firstFailed = []int{}
	for _, x := range st.steps() {
		if p, ok := st.positionOf(x); ok && x.fails && !slices.Contains(st.firstFailed, p) {
			st.firstFailed = append(st.firstFailed, p)
		}
	}
	slices.Sort(st.firstFailed)
}

// positionOf returns the position that step x ends, if it ends one: -1 for
// the body of a Scope.
func (st *simState) positionOf(x step) (int, bool) {
	switch x.what {
	case stepReturn:
		return st.slots[x.g], true
	case stepInline:
		return st.waiterAt(x.g).inline, true
	case stepFinish:
		return x.g - 1, true // the body, or child 0
	}
	return 0, false
}

// run takes the steps that do not depend on the interleaving, until only
// steps that race are left: the others commute with every step. Steps
// race when one ends in a failure (which drops the children waiting)
// while a free slot can take one, or while a function that waits for the
// stop returns (a failure cancels its ctx); or when a free slot and a
// waiter both want the first waiting child.
func (st *simState) run() {
	for {
		// The slots that nothing is left to take end; the waiters pass the
		// children seen completed.
		st.slots = slices.DeleteFunc(st.slots, func(c int) bool { return c == -1 && len(st.queue) == 0 })
		for g := range 2 {
			st.advance(st.waiterAt(g))
		}
		steps := st.steps()
		if x, ok := st.free(steps); ok {
			st.apply(x)
			continue
		}
		return
	}
}

// free returns a step that does not race with the others, if any: first
// a step that ends nothing in a failure and takes no child (they free the
// slots that may race for a child), unless a failure ready alongside would
// change how it ends (see seesFailure); then a failure if no child can be
// taken and no such step is ready, or a take if nothing fails and no one
// else wants that child.
func (st *simState) free(steps []step) (step, bool) {
	failing, taking, racing := false, false, false
	for _, x := range steps {
		failing = failing || x.fails
	}
	for _, x := range steps {
		switch {
		case x.fails:
		case x.what == stepTake || x.what == stepWaiterTake:
			taking = true
		case failing && st.seesFailure(x):
			racing = true
		default:
			return x, true
		}
	}
	for _, x := range steps {
		switch {
		case x.fails:
			if !taking && !racing {
				return x, true
			}
		case x.what == stepTake:
			if !failing && !st.wanted(st.queue[0]) {
				return x, true
			}
		case x.what == stepWaiterTake:
			q := st.wants(st.waiterAt(x.g))
			if !failing && (q != st.queue[0] || !slices.Contains(st.slots, -1)) {
				return x, true
			}
		}
	}
	return step{}, false
}

// seesFailure reports whether step x, which ends nothing in a failure,
// would end otherwise after a failure: a function that waits for the stop
// (kWaitStop) and returns its ctx's error, nil while the failure has not
// canceled the ctx; it races with the failure.
func (st *simState) seesFailure(x step) bool {
	p, ok := st.positionOf(x)
	return ok && p >= 0 && (x.what == stepReturn || x.what == stepInline) &&
		st.s.kinds[p] == kWaitStop && !st.ctxDone() && !st.s.opt(keepGoing)
}

// branches returns the states that the steps that race lead to.
func (st *simState) branches() []simState {
	var next []simState
	took := false
	for _, x := range st.steps() {
		if x.what == stepTake {
			if took {
				continue // the free slots are alike
			}
			took = true
		}
		y := st.clone()
		y.apply(x)
		next = append(next, y)
	}
	return next
}

// spawning reports whether the spawner of the scene is still starting
// children, blocked at the limit (BlockAtLimit): every scene's waiters
// wait once the children are started, and the queue stands for the
// children not given to the group yet, in the order they are given. A
// failure or a stop that refuses them empties it, as it sends the
// spawner away; then the later ones are refused at once.
func (st *simState) spawning() bool { return st.s.opt(blockAtLimit) && len(st.queue) > 0 }

// wants returns the child w waits for if it still waits for a slot,
// for w to take it inline, or -1.
func (st *simState) wants(w *waiter) int {
	if !w.active || w.inline >= 0 || w.next >= len(w.list) {
		return -1
	}
	if j := w.list[w.next]; slices.Contains(st.queue, j) {
		return j
	}
	return -1
}

// wanted reports whether a waiter may take waiting child q inline.
func (st *simState) wanted(q int) bool {
	return st.wants(&st.body) == q || st.wants(&st.tree) == q
}

// advance moves waiter w past the children it has seen complete that do
// not end its wait.
func (st *simState) advance(w *waiter) {
	for w.active && w.inline < 0 && w.next < len(w.list) {
		j := w.list[w.next]
		if !st.done[j] || st.s.wait == waitTurn && st.class[j] != cValue {
			return
		}
		w.next++
	}
}

// waitEnded returns the children whose outcomes end the wait of w, if it
// has ended: every child, or, in turn, the first that did not succeed.
func (st *simState) waitEnded(w *waiter) ([]int, bool) {
	if w.next == len(w.list) {
		return w.list, true
	}
	if j := w.list[w.next]; st.done[j] && st.s.wait == waitTurn && st.class[j] != cValue {
		return []int{j}, true
	}
	return nil, false
}

// waitOutcome is how a wait over the children got, all completed, ends,
// and the failures its error holds.
//
// A wait raises the first panic in argument order, or else a Goexit. Else
// it returns the failures and cancellations, which the rules of the
// package classify as the waiter's: an error that holds a cancellation is
// a stop, by the caller's ctx if it is done, else by the call; anything
// else is a failure of its own.
func (st *simState) waitOutcome(got []int) (class, []int) {
	c := cValue
	for _, j := range got {
		switch st.class[j] {
		case cPanic:
			c = cPanic
		case cGoexit:
			if c != cPanic {
				c = cGoexit
			}
		}
	}
	if c != cValue {
		return c, nil
	}
	var fails []int
	stopped := false
	for _, j := range got {
		switch {
		case st.class[j] == cFailure:
			fails = append(fails, j)
		case st.class[j].stop():
			stopped = true
		}
	}
	switch {
	case stopped:
		return st.stopClass(), nil
	case len(fails) > 0:
		return cFailure, fails
	}
	return cValue, nil
}

// finishWait ends the wait of w (self: -1 for the body, 0 for child 0) over
// the children got, and what w's goroutine then does: the body returns
// what the wait gave; child 0 returns it if it is not a success, else goes
// on to what its position does.
//
// The panics and Goexits a wait passed on are not raised again, nor listed
// (the one it raised stands for them). What the body received and
// returned as its own failure is the body's to report: the children's
// failures are not listed again.
func (st *simState) finishWait(w *waiter, self int, got []int) {
	w.active = false
	c, fails := st.waitOutcome(got)
	if c == cPanic || c == cGoexit {
		for _, j := range got {
			if st.class[j] == cPanic || st.class[j] == cGoexit {
				st.hidden[j] = true
			}
		}
	}
	st.endWaiter(w, self, c)
	if c == cFailure {
		if self < 0 {
			st.recv[recvBody] = fails
			for _, j := range fails {
				st.hidden[j] = true
			}
		} else {
			st.recv[recvTree] = fails
		}
	}
}

// endWaiter ends the goroutine of waiter w as c: the body returns, child
// 0 returns unless c is a success.
func (st *simState) endWaiter(w *waiter, self int, c class) {
	w.active = false
	if self < 0 {
		st.bodyEnded, st.bodyClass = true, c
		if c.failed() {
			st.fail()
		}
		return
	}
	if c == cValue {
		return // child 0 goes on
	}
	g := slices.Index(st.slots, 0)
	st.end(0, c)
	st.slots[g] = -1
}

// expectation is what the model says of a call that ended in st.
func (st simState) expectation() expectation {
	s := *st.s
	n := len(s.kinds)
	e := expectation{firstPanic: noPanic, allReturned: true, allStarted: true, kinds: s.kinds, lists: true,
		parentCanceled: st.parentCanceled, errs: map[int][]int{}}
	switch s.op {
	case opRun:
		e.call, e.arg = "Run"+strconv.Itoa(n), "f"
	case opDo:
		e.call, e.arg = "Do", "fns"
	case opMap:
		e.call, e.arg = "Map", "inputs"
	case opMapWithin:
		e.call, e.arg = "MapWithin", "inputs"
	case opForEach:
		e.call, e.arg = "ForEach", "inputs"
	case opMapSeq:
		e.call, e.arg = "MapSeq", "inputs"
	case opMapSeqUnordered:
		e.call, e.arg = "MapSeqUnordered", "inputs"
	case opNewGroup, opNewGroupLimit, opZeroGroup:
		e.call, e.arg = "Group", "children"
	default:
		e.call, e.arg = "Scope", "children"
	}
	if lim := s.op.limit(n); lim < n {
		e.maxRunning = int32(lim)
		if st.body.ran {
			e.maxRunning++ // a child run inline by the body runs in addition to the limit
		}
	}
	add := func(p int, c class) {
		switch c {
		case cFailure:
			e.positions = append(e.positions, p)
			e.errs[p] = []int{p}
		case cPanic:
			e.panics = true
			e.positions = append(e.positions, p)
			if e.firstPanic == noPanic {
				e.firstPanic = p
			}
		case cGoexit:
			e.exits = true
			e.positions = append(e.positions, p)
		case cCanceled:
			e.canceled = append(e.canceled, p)
		case cUnfinished:
			e.unfinished = append(e.unfinished, p)
		case cNotStarted:
			e.notStarted++
			e.notStartedAt = append(e.notStartedAt, p)
		case cSkipped:
			e.notStarted++
			e.notStartedAt = append(e.notStartedAt, p)
			e.skippedAt = append(e.skippedAt, p)
		}
	}
	if s.op.scope() {
		add(-1, st.bodyClass)
		if st.bodyClass == cFailure {
			e.errs[-1] = st.recv[recvBody] // what it received
		}
	}
	for i := range n {
		if !st.started[i] {
			e.unstarted = append(e.unstarted, i)
		}
		if st.hidden[i] {
			continue
		}
		add(i, st.class[i])
	}
	if s.op == opScopeTree && st.class[0] == cFailure && st.recv[recvTree] != nil {
		e.errs[0] = st.recv[recvTree]
	}
	// A sequence's error says that ctx ended the call before the
	// sequence did.
	e.ctxErr = len(e.unfinished) > 0 || e.notStarted > len(e.skippedAt)
	e.initial = st.initial
	if s.opt(firstError) {
		e.firstError, e.firstFailed = true, st.firstFailed
	}
	e.settled = s.opt(settled)
	e.result = s.op.scope() && !s.op.group()
	// Go and Spawn return at once ("Spawn never blocks"), but with
	// BlockAtLimit, where they block at the limit: before any position is
	// released, the spawner is blocked on the child after the limit.
	e.given = -1
	if s.op.scope() {
		e.given = n
		if s.opt(blockAtLimit) {
			e.given = s.op.limit(n)
		}
	}
	// A later round of a group made by NewGroup gets its ctx done; the zero
	// Group's rounds get a new one, which nothing cancels (KeepGoing, no
	// caller's ctx) before Wait has returned.
	switch {
	case s.roundCtxDone():
		e.checkStarts = true
		for i, ok := range st.started {
			if ok {
				e.startsDone = append(e.startsDone, i)
			}
		}
	case s.op == opZeroGroup:
		e.checkStarts = true
	}
	if s.op.values() {
		e.classes = slices.Clone(st.class)
	}
	// A later round's children that its done ctx stopped were canceled by
	// the group, not failed; with nothing else, Wait returns nil if none
	// was, and otherwise an error holding context.Canceled, as errgroup's
	// (Group.Wait: "a child that returns its error makes Wait return an
	// error holding context.Canceled").
	quiet := s.laterRound() && len(e.positions) == 0 && !e.ctxErr && e.notStarted == 0 && !e.panics && !e.exits
	e.wantNil = quiet && len(e.canceled) == 0
	e.wantCanceled = quiet && len(e.canceled) > 0
	if s.op.seq() {
		st.pairs(&e)
	}
	return e
}

// asBugs returns what the library does today instead of e, for each set
// of the bugs st meets that the library may still have (see bugs_test.go):
// a fix of one must not hide the others.
func (st simState) asBugs(e expectation) []expectation {
	// Each open bug of bugs_test.go that st meets adds what the library
	// does instead here; none is open.
	var bugs []func(*expectation)
	var es []expectation
	for set := 1; set < 1<<len(bugs); set++ {
		b := e
		b.bugs = slices.Clone(e.bugs)
		b.errs = maps.Clone(e.errs)
		b.positions = slices.Clone(e.positions)
		for i, bug := range bugs {
			if set&(1<<i) != 0 {
				bug(&b)
			}
		}
		es = append(es, b)
	}
	return es
}

// pairs is what MapSeq's doc comment says of a loop over the positions
// with a limit of n (every call starts at once), consuming every pair, or
// breaking out after k.
//
// The pairs come in input order (MapSeqUnordered: in the order the calls
// return; those that return in the same settle, in any order): (value,
// nil), or (zero, *PositionError) for a failure. Fail-fast cancels the
// running calls and the cancellations it caused are left out; calls that
// ctx stopped yield their errors. A panic or Goexit stops the yields and
// is passed on once every call has returned: the first panic in input
// order, holding what else was not yielded. Breaking out cancels the
// calls still running and waits for them; a panic or Goexit met on the
// way is still passed on.
func (st simState) pairs(e *expectation) {
	s := *st.s
	n := len(s.kinds)
	e.seq, e.lists, e.anyCtx, e.errs, e.breakAt = true, false, true, nil, s.k
	e.eitherEnd = s.k > 0
	// The pairs, in the order they come, until a panic or a Goexit.
	stream := make([]int, n)
	for i := range stream {
		stream[i] = i
	}
	unordered := s.op == opMapSeqUnordered
	if unordered {
		slices.SortStableFunc(stream, func(a, b int) int { return st.epoch[a] - st.epoch[b] })
	}
	fatal := -1 // the epoch of the first panic or Goexit, unordered
	for _, p := range stream {
		c := st.class[p]
		group := p
		if unordered {
			group = st.epoch[p]
			if fatal >= 0 && group > fatal {
				break
			}
		}
		if c == cPanic || c == cGoexit {
			if !unordered {
				break
			}
			// Those that ended with it may come before it.
			fatal = group
			for i := range e.pairs {
				if e.pairs[i].group == group {
					e.pairs[i].optional = true
				}
			}
			continue
		}
		w := wantPair{pos: p, group: group, optional: fatal >= 0}
		switch c {
		case cValue:
		case cFailure:
			w.err = true
		case cUnfinished:
			w.err, w.canceled = true, true
		default:
			continue
		}
		e.pairs = append(e.pairs, w)
	}
	e.npairs = len(e.pairs)
	if s.k > 0 && s.k < e.npairs {
		e.npairs = s.k
	}
	// What the panic holds: every panic and Goexit, and the failures that
	// were not yielded (checkEnding leaves out those the loop received).
	e.positions, e.firstPanic, e.panics, e.exits = nil, noPanic, false, false
	for i, k := range s.kinds {
		switch {
		case isPanic(k):
			e.panics = true
			if e.firstPanic == noPanic {
				e.firstPanic = i
			}
			e.positions = append(e.positions, i)
		case k == kGoexit:
			e.exits = true
			e.positions = append(e.positions, i)
		case isError(k):
			e.positions = append(e.positions, i)
		}
	}
	if !e.panics {
		e.positions = nil
	}
}

// withinBudget is e, an expectation of Map, for MapWithin, whose stop is
// the end of its budget: the positions the stop left without a result
// (unfinished, or not started) are returned as left, and, if no position
// failed, the call returns no error for them.
func (e expectation) withinBudget() expectation {
	e.budget = true
	if !e.ctxErr || e.panics || e.exits {
		return e
	}
	// The budget's stops go to left; the error keeps the failures and
	// what a failure left not started.
	var stopped []int
	for _, p := range e.notStartedAt {
		if !slices.Contains(e.skippedAt, p) {
			stopped = append(stopped, p)
		}
	}
	e.left = slices.Sorted(slices.Values(append(slices.Clone(e.unfinished), stopped...)))
	e.ctxErr, e.unfinished, e.notStarted, e.notStartedAt = false, nil, len(e.skippedAt), slices.Clone(e.skippedAt)
	return e
}

// need is the k of a race: the scene's, or a majority.
func (s scene) need() int {
	if s.k > 0 {
		return min(s.k, len(s.kinds))
	}
	return (len(s.kinds) + 1) / 2
}

// modelRace is what Quorum and Until do (their documentation, and
// RunFirstOK's rules). Every function starts at once, each with a context
// of its own. A released position does what its kind says; one that waits
// for its context returns when it is canceled: by the caller's ctx (then
// unfinished), or by the call once decided or, for Quorum, lost (then
// canceled), which is at once if that came first. Quorum's rule runs in
// the functions: the k-th success wins, whenever it comes; len(fns)-k+1
// own failures (panics and Goexit included) lose, unless won. Until's
// enough runs on the caller's goroutine, on the successes that come while
// the caller's ctx is not done, and says enough at k of them. Each release
// settles before the next, so the order is the completion order.
func modelRace(s scene) expectation {
	n, k := len(s.kinds), s.need()
	quorum := s.op == opQuorum
	e := expectation{call: s.op.String(), arg: "fns", firstPanic: noPanic, allReturned: true, kinds: s.kinds,
		lists: true, errs: map[int][]int{}, race: true}
	cls := make([]class, n) // cRunning: not returned
	var waiting, succ []int
	fails := 0
	decided, lost, callerDone := false, false, false
	var left []int
	cancelAll := func() { // the call cancels every function's context
		for _, p := range waiting {
			cls[p] = cCanceled
		}
		waiting = nil
	}
	stop := func() { // the caller's ctx
		callerDone = true
		for _, p := range waiting {
			cls[p] = cUnfinished
		}
		waiting = nil
	}
	release := func(p int) {
		switch kd := s.kinds[p]; {
		case isWaiting(kd):
			switch {
			case callerDone:
				cls[p] = cUnfinished
			case decided || lost:
				cls[p] = cCanceled
			default:
				waiting = append(waiting, p)
			}
		case isValue(kd):
			cls[p] = cValue
			switch {
			case quorum && len(succ) < k:
				succ = append(succ, p)
				if len(succ) == k {
					decided = true
					cancelAll()
				}
			case !quorum && !decided && !callerDone:
				succ = append(succ, p)
				if len(succ) >= k {
					decided = true
					for q := range n {
						if cls[q] == cRunning || slices.Contains(waiting, q) {
							left = append(left, q)
						}
					}
					cancelAll()
				}
			}
		default:
			switch {
			case isError(kd):
				cls[p] = cFailure
			case isPanic(kd):
				cls[p] = cPanic
			default:
				cls[p] = cGoexit
			}
			fails++
			if quorum && k > 1 && fails == n-k+1 && !decided {
				lost = true
				cancelAll()
			}
		}
	}
	for step, p := range s.order {
		if step == s.stopAt {
			stop()
		}
		release(p)
	}
	if s.stopAt == n {
		stop()
	}
	if len(waiting) > 0 {
		e.parentCanceled = true // only the test's cancellation ends them
		stop()
	}
	for p, c := range cls {
		switch c {
		case cFailure:
			e.positions = append(e.positions, p)
			e.errs[p] = []int{p}
		case cPanic:
			e.panics = true
			e.positions = append(e.positions, p)
			if e.firstPanic == noPanic {
				e.firstPanic = p
			}
		case cGoexit:
			e.exits = true
			e.positions = append(e.positions, p)
		case cCanceled:
			e.canceled = append(e.canceled, p)
		case cUnfinished:
			e.unfinished = append(e.unfinished, p)
		}
	}
	e.ctxErr = len(e.unfinished) > 0
	switch {
	case e.panics || e.exits:
	case decided:
		e.positions, e.errs, e.ctxErr, e.unfinished, e.canceled = nil, nil, false, nil, nil
		e.at, e.left = succ, left
	case quorum:
	default: // Until, not enough
		e.at = succ
		e.notEnough = len(e.positions) == 0 && !e.ctxErr
	}
	return e
}
