//go:build go1.25

package task

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// The fault matrix and the harness that runs a scene (see the model in
// faultmodel_test.go) and checks what the call did against the model.

// observed is how a call ended, as the test saw it.
type observed struct {
	vals           []any
	err            error
	panicked       bool
	panicVal       any
	exited         bool
	pairs          []seqPair     // MapSeq: what the loop received
	unreturned     []int         // positions whose function had started but not returned when the call ended
	unstarted      []int         // positions whose function had not started when the call ended
	initial        []int         // positions whose function had started before any was released
	twice          []int         // positions whose function was called more than once
	peak           int32         // the most functions running at once
	badTasks       []string      // Scope: children's tasks that do not hold their value
	parentCanceled bool          // the test canceled the caller's ctx once every position was released (see scene)
	bodyErr        error         // Scope: what the body returned
	treeErr        error         // a limited Scope: what child 0 returned (opScopeTree: its wait's error, or its own)
	at             []int         // Quorum and Until: the positions of the successes returned
	raceVals       []int         // and their values
	left           []int         // MapWithin and Until: the positions returned as left
	result         int           // Scope: what it returned
	given          int           // the children given to Go or Spawn whose call had returned before any position was released
	doneAtStart    []int         // the positions whose ctx was done as their function began
	taskErrs       map[int]error // Scope: the errors of the tasks of children that never started
}

// A rig drives the positions of a scene: their slots, and how many of
// their functions run at once.
type rig struct {
	s           scene
	sl          []*slot
	starts      []atomic.Int32 // per position: times its function began (for child 0 of opScopeTree, before its waits)
	doneAtStart []atomic.Bool  // per position: its ctx was done as its function began
	given       atomic.Int32   // a Scope's or a group's children given to Go or Spawn whose call has returned
	running     atomic.Int32
	peak        atomic.Int32
}

// fn returns the function of position i: the slot's, counted.
func (r *rig) fn(i int) func(context.Context) (int, error) {
	f := fnFor[int](r.sl[i])
	return func(ctx context.Context) (int, error) {
		r.begin(i, ctx)
		defer r.running.Add(-1)
		return f(ctx)
	}
}

// errFn is fn for a call that takes functions that return only an error.
func (r *rig) errFn(i int) func(context.Context) error {
	f := r.fn(i)
	return func(ctx context.Context) error {
		_, err := f(ctx)
		return err
	}
}

// begin counts position i in as running, and records whether its ctx was
// done as it began.
func (r *rig) begin(i int, ctx context.Context) {
	if ctx.Err() != nil {
		r.doneAtStart[i].Store(true)
	}
	r.starts[i].Add(1)
	n := r.running.Add(1)
	for p := r.peak.Load(); n > p && !r.peak.CompareAndSwap(p, n); p = r.peak.Load() {
	}
}

// pause runs f, a wait, with the function that calls it counted out: a
// child that waits starts the children it takes, in its own place.
func (r *rig) pause(f func() error) error {
	r.running.Add(-1)
	defer r.running.Add(1)
	return f()
}

// calls returns, per position, how many times its function began.
func (r *rig) calls() []int32 {
	c := make([]int32, len(r.sl))
	for i, s := range r.sl {
		c[i] = max(r.starts[i].Load(), s.calls.Load())
	}
	return c
}

// began returns the positions whose function has begun.
func (r *rig) began() []int {
	ps := []int{}
	for i, c := range r.calls() {
		if c > 0 {
			ps = append(ps, i)
		}
	}
	return ps
}

// unreturned returns the positions whose function has started and not
// returned.
func (r *rig) unreturned() []int {
	var ps []int
	for i, s := range r.sl {
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

// ended records where the functions are when the call has ended.
func (r *rig) ended(got *observed) {
	got.unreturned = r.unreturned()
	got.unstarted = nil
	got.twice = nil
	for i, c := range r.calls() {
		switch {
		case c == 0:
			got.unstarted = append(got.unstarted, i)
		case c > 1:
			got.twice = append(got.twice, i)
		}
	}
	got.peak = r.peak.Load()
	got.doneAtStart = nil
	for i := range r.doneAtStart {
		if r.doneAtStart[i].Load() {
			got.doneAtStart = append(got.doneAtStart, i)
		}
	}
}

var errTestCause = errors.New("test canceled the caller's ctx")

// scenario runs the scene: it releases the positions in order, each once
// every function that can run has settled, cancels the caller's ctx where
// the scene says, and observes the result. It runs in a synctest bubble,
// so a hang is reported as a deadlock instead of blocking, and the grace
// period is fake time: it passes once the test waits for the end.
func scenario(s scene) observed {
	n := len(s.kinds)
	r := &rig{s: s, sl: newSlots(n, kValue), starts: make([]atomic.Int32, n), doneAtStart: make([]atomic.Bool, n)}
	for i, k := range s.kinds {
		r.sl[i].kind = k
		r.sl[i].gate = make(chan struct{})
		if k == kSlow {
			r.sl[i].kind = kValue
		}
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)

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
				r.ended(&got)
			}
		}()
		makeCall(ctx, r, &got)
		r.ended(&got)
		returned = true
	}()
	synctest.Wait()
	got.initial = r.began()
	got.given = int(r.given.Load())
	stop := func() {
		if s.op == opMapWithin {
			time.Sleep(budgetD) // the budget's end: fake time passes only here
		} else {
			cancel(errTestCause)
		}
		synctest.Wait()
	}
	for step, i := range s.order {
		if step == s.stopAt {
			stop()
		}
		close(r.sl[i].gate)
		synctest.Wait()
	}
	if s.stopAt == n {
		stop()
	}
	select {
	case <-done:
	default:
		if s.stopAt == noStop {
			got.parentCanceled = true
			if s.op == opMapWithin {
				time.Sleep(budgetD)
			} else {
				cancel(errTestCause)
			}
		}
	}
	<-done // with Grace, once the grace period has passed
	return got
}

// makeCall makes the call of the scene and records what it returns.
func makeCall(ctx context.Context, r *rig, got *observed) {
	s := r.s
	n := len(r.sl)
	opts := s.options() // only those the call takes
	var vs []int
	switch s.op {
	case opAwait:
		got.vals, got.err = arities[n-1].await(ctx, r.sl, opts...)
	case opRun:
		got.vals, got.err = arities[n-1].run(ctx, r.sl, opts...)
	case opAll:
		tasks := make([]*Task[int], n)
		for i, s := range r.sl {
			tasks[i] = Go(ctx, fnFor[int](s))
		}
		vs, got.err = All(ctx, tasks, opts...)
		got.vals = intsToAny(vs)
	case opMap:
		vs, got.err = Map(ctx, indexes0(n), n, func(ctx context.Context, i int) (int, error) {
			return r.fn(i)(ctx)
		}, opts...)
		got.vals = intsToAny(vs)
	case opMapWithin:
		vs, got.left, got.err = MapWithin(ctx, budgetD, indexes0(n), scopeLimit, func(ctx context.Context, i int) (int, error) {
			return r.fn(i)(ctx)
		}, opts...)
		got.vals = intsToAny(vs)
	case opQuorum, opUntil:
		fns := make([]func(context.Context) (int, error), n)
		for i := range fns {
			fns[i] = r.fn(i)
		}
		if s.op == opQuorum {
			got.raceVals, got.at, got.err = Quorum(ctx, s.need(), nil, fns...)
		} else {
			enough := func(vals []int, at []int) bool { return len(vals) >= s.need() }
			got.raceVals, got.at, got.left, got.err = Until(ctx, enough, nil, fns...)
		}
	case opDo:
		fns := make([]func(context.Context) error, n)
		for i := range fns {
			fns[i] = r.errFn(i)
		}
		got.err = Do(ctx, fns...)
	case opForEach:
		got.err = ForEach(ctx, indexes0(n), scopeLimit, func(ctx context.Context, i int) error {
			return r.errFn(i)(ctx)
		}, opts...)
	case opMapSeq, opMapSeqUnordered:
		mapSeq := MapSeq[int, int]
		if s.op == opMapSeqUnordered {
			mapSeq = MapSeqUnordered[int, int]
		}
		for v, err := range mapSeq(ctx, slices.Values(indexes0(n)), n, func(ctx context.Context, i int) (int, error) {
			return r.fn(i)(ctx)
		}, opts...) {
			got.pairs = append(got.pairs, seqPair{v, err})
			if len(got.pairs) == s.k {
				break
			}
		}
	default:
		callScope(ctx, r, got, opts)
	}
}

// callScope runs a Scope whose children are the positions. For opScope
// and opGo the body starts them all; for the limited ones it sets a limit
// of 2 and starts child 0, which starts the others before it waits for
// children 1 to k (opScopeTree) and does what its position does, so that
// they wait for a slot. The body then waits for the children with a task
// among its first k (see scene).
func callScope(ctx context.Context, r *rig, got *observed, opts []Option) {
	s := r.s
	n := len(r.sl)
	tasks := make([]*Task[int], n)
	var refused atomic.Int32 // TryGo refused below the limit
	spawned := make(chan struct{})
	startChild := func(g *Group, i int, fn func(context.Context) (int, error)) {
		switch s.op.startOf(i) {
		case bySpawn:
			tasks[i] = Spawn(g, fn)
		case byGo:
			g.Go(func(ctx context.Context) error { _, err := fn(ctx); return err })
		case byTryGo:
			if !g.TryGo(func(ctx context.Context) error { _, err := fn(ctx); return err }) {
				refused.Add(1)
			}
		}
		r.given.Add(1)
	}
	if s.op.group() {
		var g *Group
		if s.op == opZeroGroup {
			g = new(Group)
		} else {
			g, _ = NewGroup(ctx, opts...)
		}
		if s.op != opNewGroup {
			g.SetLimit(scopeLimit) // before the first round: later rounds keep it
		}
		if s.prior != noPrior {
			got.badTasks = append(got.badTasks, priorRoundOf(g, s)...)
		}
		for i := range n {
			startChild(g, i, r.fn(i))
		}
		close(spawned)
		got.err = waitTwice(g, got)
		if c := refused.Load(); c > 0 {
			got.badTasks = append(got.badTasks, fmt.Sprintf("TryGo refused %d children with no limit", c))
		}
		checkTasks(r, got, tasks, got.err)
		return
	}
	res, err := Scope(ctx, func(ctx context.Context, g *Group) (int, error) {
		switch s.op {
		case opScope, opGo:
			for i := range n {
				startChild(g, i, r.fn(i))
			}
			close(spawned)
		default:
			g.SetLimit(scopeLimit)
			startChild(g, 0, func(ctx context.Context) (v int, err error) {
				r.begin(0, ctx)
				defer r.running.Add(-1)
				defer func() { got.treeErr = err }()
				for i := 1; i < n; i++ {
					startChild(g, i, r.fn(i))
				}
				close(spawned)
				if list := s.op.waited(n, s.k); s.op == opScopeTree && len(list) > 0 {
					if err := r.pause(func() error { return waitFor(s.wait, pick(tasks, list)) }); err != nil {
						return 0, err
					}
				}
				return fnFor[int](r.sl[0])(ctx)
			})
		}
		if list := s.op.waited(n, s.k); s.op != opScopeTree && len(list) > 0 {
			<-spawned
			if err := waitFor(s.wait, pick(tasks, list)); err != nil {
				got.bodyErr = err
				return bodyValue, err
			}
		}
		return bodyValue, nil
	}, opts...)
	got.err, got.result = err, res
	if c := refused.Load(); c > 0 {
		got.badTasks = append(got.badTasks, fmt.Sprintf("TryGo refused %d children with no limit", c))
	}
	checkTasks(r, got, tasks, err)
}

// errPrior is the failure of the child of a group's first round, when
// the scene is a later round.
var errPrior = errors.New("the first round's failure")

// priorRoundOf runs the first round of g for a scene that is a later round:
// one child that does what s.prior says, and two Waits. It returns what
// differs from Group.Wait's documentation: each Wait ends the round as
// Scope does (nil; the failure, in a *CallError or with FirstError as the
// child returned it; its panic, raised; its Goexit), and the second returns
// the same error and raises the same panic.
func priorRoundOf(g *Group, s scene) []string {
	g.Go(func(context.Context) error {
		switch s.prior {
		case priorError:
			return errPrior
		case priorPanic:
			panic("the first round's panic")
		case priorGoexit:
			runtime.Goexit()
		}
		return nil
	})
	var bad []string
	var errs [2]error
	var ends [2]ending
	for i := range ends {
		ends[i] = endingOf(func() { errs[i] = g.Wait() })
	}
	err, e := errs[0], ends[0]
	var ce *CallError
	pe, _ := e.panicVal.(*PanicError)
	var ok bool
	switch s.prior {
	case priorValue:
		ok = e.returned && err == nil
	case priorError:
		if s.opt(firstError) {
			ok = e.returned && err == errPrior
		} else {
			ok = e.returned && errors.As(err, &ce) && ce.Call == "Group" && len(ce.Failures) == 1 &&
				ce.Failures[0].Arg == "children[0]" && errors.Is(err, errPrior)
		}
	case priorPanic:
		ok = pe != nil && pe.Index == 0 && pe.Value == "the first round's panic"
	case priorGoexit:
		ok = e.exited
	}
	if !ok {
		bad = append(bad, fmt.Sprintf("the first round, whose child did %v: Wait ended %+v, err %v", s.prior, e, err))
	}
	if !sameEnding(ends[0], errs[0], ends[1], errs[1]) {
		bad = append(bad, fmt.Sprintf("the first round: a second Wait ended %+v, %v; the first %+v, %v", ends[1], errs[1], e, err))
	}
	return bad
}

// waitTwice calls g.Wait twice, checks that the second returns the same
// error or raises the same panic as the first (Group.Wait), and ends as the
// first did.
func waitTwice(g *Group, got *observed) error {
	var errs [2]error
	var ends [2]ending
	for i := range ends {
		ends[i] = endingOf(func() { errs[i] = g.Wait() })
	}
	if !sameEnding(ends[0], errs[0], ends[1], errs[1]) {
		got.badTasks = append(got.badTasks, fmt.Sprintf("a second Wait ended %+v, %v; the first %+v, %v", ends[1], errs[1], ends[0], errs[0]))
	}
	switch {
	case ends[0].panicVal != nil:
		panic(ends[0].panicVal)
	case ends[0].exited:
		runtime.Goexit()
	}
	return errs[0]
}

// sameEnding reports whether two Waits ended alike: the same error (the
// same value, or a *CallError that says the same), or the same panic, or
// both Goexit.
func sameEnding(a ending, aErr error, b ending, bErr error) bool {
	same := func(x, y any) bool {
		if x == nil || y == nil {
			return x == y
		}
		if ex, ok := x.(error); ok {
			if ey, ok := y.(error); ok && sameError(ex, ey) {
				return true
			}
		}
		_, cx := x.(*CallError)
		_, px := x.(*PanicError)
		return (cx || px) && reflect.TypeOf(x) == reflect.TypeOf(y) && fmt.Sprint(x) == fmt.Sprint(y)
	}
	return a.returned == b.returned && a.exited == b.exited && same(a.panicVal, b.panicVal) && same(aErr, bErr)
}

// checkTasks checks that every child's task holds what its function
// returned, or, if it never started, its cancellation.
func checkTasks(r *rig, got *observed, tasks []*Task[int], err error) {
	s := r.s
	n := len(r.sl)
	calls := r.calls()
	vals := make([]any, n)
	for i, tk := range tasks {
		if tk == nil {
			continue // started by Group.Go: no task
		}
		if calls[i] == 0 {
			v, err, ok := tryWait(tk)
			if !ok || v != 0 || !errors.Is(err, context.Canceled) {
				got.badTasks = append(got.badTasks, fmt.Sprintf("children[%d] never started and holds %v, %v, %v; want its cancellation", i, v, err, ok))
			}
			if got.taskErrs == nil {
				got.taskErrs = map[int]error{}
			}
			got.taskErrs[i] = err
			continue
		}
		if !isValue(s.kinds[i]) || s.op == opScopeTree && i == 0 {
			continue
		}
		v, err, ok := tryWait(tk)
		if !ok || err != nil || v != val[int](i+1) {
			got.badTasks = append(got.badTasks, fmt.Sprintf("children[%d] holds %v, %v, %v; want %v", i, v, err, ok, val[int](i+1)))
		}
		vals[i] = v
	}
	if err == nil {
		got.vals = vals
	}
}

// pick returns the tasks at positions list.
func pick(tasks []*Task[int], list []int) []*Task[int] {
	ts := make([]*Task[int], len(list))
	for x, i := range list {
		ts[x] = tasks[i]
	}
	return ts
}

// waitFor waits for tasks as w says, with a ctx that is never done, and
// returns what the wait returned.
func waitFor(w waitForm, tasks []*Task[int]) error {
	ctx := context.Background()
	switch w {
	case waitAll:
		_, err := All(ctx, tasks)
		return err
	case waitAwait:
		return awaitTasks(ctx, tasks)
	}
	for _, t := range tasks {
		if _, err := t.Wait(ctx); err != nil {
			return err
		}
	}
	return nil
}

// awaitTasks is AwaitN of t, for N = len(t).
func awaitTasks(ctx context.Context, t []*Task[int]) error {
	var err error
	switch len(t) {
	case 1:
		_, err = All(ctx, t)
	case 2:
		_, _, err = Await2(ctx, t[0], t[1])
	case 3:
		_, _, _, err = Await3(ctx, t[0], t[1], t[2])
	case 4:
		_, _, _, _, err = Await4(ctx, t[0], t[1], t[2], t[3])
	case 5:
		_, _, _, _, _, err = Await5(ctx, t[0], t[1], t[2], t[3], t[4])
	case 6:
		_, _, _, _, _, _, err = Await6(ctx, t[0], t[1], t[2], t[3], t[4], t[5])
	case 7:
		_, _, _, _, _, _, _, err = Await7(ctx, t[0], t[1], t[2], t[3], t[4], t[5], t[6])
	case 8:
		_, _, _, _, _, _, _, _, err = Await8(ctx, t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7])
	case 9:
		_, _, _, _, _, _, _, _, _, err = Await9(ctx, t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8])
	case 10:
		_, _, _, _, _, _, _, _, _, _, err = Await10(ctx, t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9])
	case 11:
		_, _, _, _, _, _, _, _, _, _, _, err = Await11(ctx, t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], t[10])
	case 12:
		_, _, _, _, _, _, _, _, _, _, _, _, err = Await12(ctx, t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], t[10], t[11])
	case 13:
		_, _, _, _, _, _, _, _, _, _, _, _, _, err = Await13(ctx, t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], t[10], t[11], t[12])
	case 14:
		_, _, _, _, _, _, _, _, _, _, _, _, _, _, err = Await14(ctx, t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], t[10], t[11], t[12], t[13])
	case 15:
		_, _, _, _, _, _, _, _, _, _, _, _, _, _, _, err = Await15(ctx, t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], t[10], t[11], t[12], t[13], t[14])
	case 16:
		_, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, err = Await16(ctx, t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], t[10], t[11], t[12], t[13], t[14], t[15])
	default:
		panic(fmt.Sprintf("awaitTasks: %d tasks", len(t)))
	}
	return err
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

// failedAt returns the positions of the failures err holds, sorted, the
// CallError that holds them and whether it holds a context error,
// checking that each is located as e says.
func (e expectation) failedAt(err error) (ps []int, ce *CallError, ctxErr bool, bad error) {
	locate := func(call string, index int, arg string) {
		if bad == nil && (call != e.call || arg != e.name(index)) {
			bad = fmt.Errorf("position %d is located as %s: %s; want %s: %s", index, call, arg, e.call, e.name(index))
		}
	}
	switch x := err.(type) {
	case nil:
		return nil, nil, false, nil
	case *PanicError:
		ps = append(ps, x.Index)
		locate(x.Call, x.Index, x.Arg)
		ce = x.Others
	case *CallError:
		ce = x
	default:
		return nil, nil, false, fmt.Errorf("%T is neither a *CallError nor a *PanicError", err)
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
	return ps, ce, ctxErr, bad
}

// check compares an observation with one expectation.
func (e expectation) check(name fmt.Stringer, got observed) error {
	if err := e.checkEnding(name, got); err != nil {
		return err
	}
	if err := e.checkPolicy(name, got); err != nil {
		return err
	}
	switch {
	case e.initial != nil && !slices.Equal(got.initial, e.initial):
		return fmt.Errorf("%s: positions %v had started before any was released; want %v", name, got.initial, e.initial)
	case len(got.twice) > 0:
		return fmt.Errorf("%s: positions %v were called more than once", name, got.twice)
	case e.allReturned && len(got.unreturned) > 0:
		return fmt.Errorf("%s: positions %v had not returned when the call ended", name, got.unreturned)
	case e.allStarted && !slices.Equal(got.unstarted, e.unstarted):
		return fmt.Errorf("%s: positions %v had not started when the call ended; want %v", name, got.unstarted, e.unstarted)
	case e.given >= 0 && got.given != e.given:
		return fmt.Errorf("%s: %d calls of Go and Spawn had returned before any child was released; want %d", name, got.given, e.given)
	case e.checkStarts && !slices.Equal(got.doneAtStart, e.startsDone):
		return fmt.Errorf("%s: the children %v got a done ctx; want %v", name, got.doneAtStart, e.startsDone)
	case e.maxRunning > 0 && got.peak > e.maxRunning:
		return fmt.Errorf("%s: %d functions ran at once; the limit is %d", name, got.peak, e.maxRunning)
	case len(got.badTasks) > 0:
		return fmt.Errorf("%s: %s", name, strings.Join(got.badTasks, "; "))
	}
	return e.checkTaskErrs(name, got)
}

// checkPolicy compares what a completion policy returned besides its
// error: a race's successes (positions and values) and Until's left;
// MapWithin's left, and, when it returned nil, a result at every position
// not left.
func (e expectation) checkPolicy(name fmt.Stringer, got observed) error {
	if e.panics || e.exits {
		return nil
	}
	if e.race {
		if !slices.Equal(got.at, e.at) {
			return fmt.Errorf("%s: at = %v; want %v", name, got.at, e.at)
		}
		for j, p := range got.at {
			if got.raceVals[j] != val[int](p+1) {
				return fmt.Errorf("%s: vals[%d] = %d; want the value of fns[%d]", name, j, got.raceVals[j], p)
			}
		}
	}
	if (e.race && e.call == "Until" || e.budget) && !slices.Equal(got.left, e.left) {
		return fmt.Errorf("%s: left = %v; want %v", name, got.left, e.left)
	}
	return nil
}

// checkEnding compares how the call ended, and the pairs of a sequence.
func (e expectation) checkEnding(name fmt.Stringer, got observed) error {
	if e.seq {
		if err := e.checkPairs(name, got.pairs); err != nil {
			return err
		}
	}
	var err error
	switch {
	case e.panics:
		if !got.panicked {
			return fmt.Errorf("%s: want a panic; got exited=%v err=%v", name, got.exited, got.err)
		}
		var ok bool
		err, ok = got.panicVal.(error)
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
	case e.exits:
		if !got.exited {
			return fmt.Errorf("%s: want runtime.Goexit; got panicked=%v (%v) err=%v", name, got.panicked, got.panicVal, got.err)
		}
		return nil
	default:
		if got.panicked || got.exited {
			return fmt.Errorf("%s: panicked=%v (%v) exited=%v; want a return", name, got.panicked, got.panicVal, got.exited)
		}
		err = got.err
		if e.wantNil {
			if err != nil {
				return fmt.Errorf("%s: err = %v; want nil: no child failed, and a later round's children that its done ctx stopped are canceled, not failed", name, err)
			}
			return e.checkValues(name, got)
		}
		if e.wantCanceled {
			if !errors.Is(err, context.Canceled) || e.firstError && err != context.Canceled && !errors.Is(err, errTestCause) {
				return fmt.Errorf("%s: err = %v; want an error holding context.Canceled (with FirstError, context.Canceled itself): a later round's children returned its done ctx's error", name, err)
			}
			return e.checkValues(name, got)
		}
		if e.notEnough {
			if !errors.Is(err, ErrNotEnough) {
				return fmt.Errorf("%s: err = %v; want ErrNotEnough", name, err)
			}
			return nil
		}
		if e.firstError {
			if err := e.checkFirst(name, got); err != nil {
				return err
			}
			return e.checkValues(name, got)
		}
	}
	ps, ce, ctxErr, bad := e.failedAt(err)
	if bad != nil {
		return fmt.Errorf("%s: %v", name, bad)
	}
	want := e.positions
	if e.seq {
		want = slices.DeleteFunc(slices.Clone(want), func(p int) bool { return yielded(got.pairs, p) })
	}
	if !slices.Equal(ps, want) {
		return fmt.Errorf("%s: err = %v, positions %v; want %v", name, err, ps, want)
	}
	if !e.anyCtx {
		if ctxErr != e.ctxErr {
			return fmt.Errorf("%s: err = %v; ctx error %v, want %v", name, err, ctxErr, e.ctxErr)
		}
		if e.ctxErr && !e.budget && (!errors.Is(err, context.Canceled) || !errors.Is(err, errTestCause)) {
			return fmt.Errorf("%s: err = %v; want Canceled with the cause", name, err)
		}
	}
	if !e.anyCtx && e.budget && e.ctxErr && (!errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, ErrBudget)) {
		return fmt.Errorf("%s: err = %v; want DeadlineExceeded with the cause ErrBudget", name, err)
	}
	if e.lists {
		var unfinished, canceled []int
		notStarted := 0
		if ce != nil {
			unfinished, canceled, notStarted = indexes(ce.Unfinished), indexes(ce.Canceled), ce.NotStarted
		}
		if e.leftByStop != nil {
			// Today's bug: the work the stop left may be canceled by the
			// failure instead, or dropped.
			canceled = slices.DeleteFunc(canceled, func(i int) bool {
				return slices.Contains(e.leftByStop, i) && !slices.Contains(e.canceled, i)
			})
			notStarted = e.notStarted
		}
		if !slices.Equal(unfinished, e.unfinished) || !slices.Equal(canceled, e.canceled) || notStarted != e.notStarted {
			return fmt.Errorf("%s: err = %v: unfinished %v, canceled %v, %d not started; want %v, %v, %d",
				name, err, unfinished, canceled, notStarted, e.unfinished, e.canceled, e.notStarted)
		}
		if err := e.checkNotStarted(name, ce); err != nil {
			return err
		}
	}
	for _, p := range e.canceledAt {
		if !reaches(err, context.Canceled) {
			return fmt.Errorf("%s: err = %v does not reach the cancellation of %s", name, err, e.name(p))
		}
	}
	for p, js := range e.errs {
		for _, j := range js {
			if want := failure(e.kinds[j], j+1); !reaches(err, want) {
				return fmt.Errorf("%s: err = %v does not reach %v at %s", name, err, want, e.name(p))
			}
		}
	}
	return e.checkValues(name, got)
}

// checkNotStarted compares what ce says of the work never started with
// the model: the positions (CallError.NotStartedAt), and whether it was a
// stop ("errors.Is(err, ErrStopped) is true when it was a stop", a stop
// having come before any failure that would have left it).
func (e expectation) checkNotStarted(name fmt.Stringer, ce *CallError) error {
	if ce == nil {
		return nil
	}
	if got := ce.NotStartedAt(); !slices.Equal(got, e.notStartedAt) && len(got)+len(e.notStartedAt) > 0 {
		return fmt.Errorf("%s: NotStartedAt = %v; want %v", name, got, e.notStartedAt)
	}
	stopped := len(e.notStartedAt) > len(e.skippedAt)
	if errors.Is(ce, ErrStopped) != stopped {
		return fmt.Errorf("%s: err = %v: errors.Is(err, ErrStopped) = %v; want %v (not started %v, of which a failure left %v)",
			name, ce, !stopped, stopped, e.notStartedAt, e.skippedAt)
	}
	return nil
}

// checkTaskErrs compares the tasks of children that never started with
// the model: each holds the cancellation, with the failure that left it as
// its cause ("their tasks complete as canceled, with the failure as the
// cause"), or ErrStopped where a stop left it.
func (e expectation) checkTaskErrs(name fmt.Stringer, got observed) error {
	for p, err := range got.taskErrs {
		var pe *PositionError
		switch {
		case slices.Contains(e.skippedAt, p):
			if !errors.Is(err, context.Canceled) || !errors.As(err, &pe) {
				return fmt.Errorf("%s: the task of %s, which a failure left never started, holds %v; want the cancellation with the failure as its cause", name, e.name(p), err)
			}
		case slices.Contains(e.notStartedAt, p):
			if !errors.Is(err, context.Canceled) || !errors.Is(err, ErrStopped) {
				return fmt.Errorf("%s: the task of %s, which a stop left never started, holds %v; want the cancellation and ErrStopped", name, e.name(p), err)
			}
		}
	}
	return nil
}

// checkFirst compares the error a call with FirstError returned with the
// model's: the error of a position whose own failure may be the first the
// call recorded (any of those that raced, see simState.noteFirst), as its
// function returned it; with no failure but the caller's ctx done, the
// error of the first position in argument order that ctx stopped (the
// body first), else ctx's error; else nil. (ErrStopped, for work that a
// stop other than ctx's left, has no scene here.) Panics and Goexit are
// checked as without the option, by checkEnding.
func (e expectation) checkFirst(name fmt.Stringer, got observed) error {
	var want []error
	var why string
	switch {
	case len(e.positions) > 0:
		if len(e.firstFailed) == 0 {
			return fmt.Errorf("%s: the model failed at %v and recorded no first failure", name, e.positions)
		}
		var names []string
		for _, p := range e.firstFailed {
			want = append(want, e.returned(p, got))
			names = append(names, e.name(p))
		}
		why = "the first failure, of " + strings.Join(names, " or ")
	case len(e.unfinished) > 0:
		want = []error{e.returned(e.unfinished[0], got)}
		why = "no failure: the error of " + e.name(e.unfinished[0]) + ", the first that ctx stopped"
	case e.ctxErr:
		want, why = []error{context.Canceled}, "no failure: ctx's error"
	case e.notStarted > 0 || len(e.canceled) > 0:
		return fmt.Errorf("%s: the model stopped work (%d not started, canceled %v) with neither a failure nor ctx", name, e.notStarted, e.canceled)
	default:
		want, why = []error{nil}, "nothing failed or stopped"
	}
	if !slices.ContainsFunc(want, func(w error) bool { return sameError(got.err, w) }) {
		return fmt.Errorf("%s: err = %T %v; want exactly %v (%s)", name, got.err, got.err, want, why)
	}
	return nil
}

// returned is the error position p returned, as its function returned it:
// what the body or child 0 of opScopeTree returned (their waits' error, or
// a failure of child 0's own), else the failure of its kind, or a waiting
// position's context.Canceled (ctx.Err() of the canceled context it got).
func (e expectation) returned(p int, got observed) error {
	switch k := e.kinds[max(p, 0)]; {
	case p < 0:
		return got.bodyErr
	case p == 0 && got.treeErr != nil:
		return got.treeErr
	case isError(k):
		return failure(k, p+1)
	case isWaiting(k):
		return context.Canceled
	}
	return fmt.Errorf("position %d does %v and returns no error", p, e.kinds[p])
}

// sameError reports whether err is want itself: == where the error can be
// compared (the same interface value), else the same failure by
// sameFailure (uncomparable errors are the test's failures alone).
func sameError(err, want error) bool {
	if err == nil || want == nil {
		return err == want
	}
	if reflect.TypeOf(err) != reflect.TypeOf(want) {
		return false
	}
	if reflect.ValueOf(want).Comparable() {
		return err == want
	}
	return sameFailure(err, want)
}

// checkValues compares the values of a call that returned (see
// expectation.value), and a Scope's result: what the body returned if the
// error is nil or with Settled, else zero.
func (e expectation) checkValues(name fmt.Stringer, got observed) error {
	if e.panics || e.exits {
		return nil // no values: the panic or Goexit is passed on
	}
	if e.result {
		want := 0
		if got.err == nil || e.settled {
			want = bodyValue
		}
		if got.result != want {
			return fmt.Errorf("%s: Scope returned %d with err %v; want %d", name, got.result, got.err, want)
		}
	}
	if e.scope() {
		// A Scope's or a group's children's tasks, which hold their values
		// (checkTasks): got.vals is set when the error is nil, with nil for a
		// child started by Group.Go or not of a value kind.
		if got.err == nil && got.vals != nil {
			for i, v := range got.vals {
				if v != nil && !equalAny(v, val[int](i+1)) {
					return fmt.Errorf("%s: children[%d] = %v; want %v", name, i, v, val[int](i+1))
				}
			}
		}
		return nil
	}
	if e.classes == nil {
		return nil // no values, or a race's (checkPolicy)
	}
	n := len(e.classes)
	typed := strings.HasPrefix(e.call, "Run") || strings.HasPrefix(e.call, "Await")
	if got.vals == nil {
		for i := range n {
			if e.value(i, got.err) == valValue {
				return fmt.Errorf("%s: err = %v and no values; want the value of %s", name, got.err, e.name(i))
			}
		}
		return nil // zero values: Map's nil slice
	}
	if len(got.vals) != n {
		return fmt.Errorf("%s: %d values; want %d", name, len(got.vals), n)
	}
	for i, v := range got.vals {
		var want any
		switch e.value(i, got.err) {
		case valEither:
			continue
		case valValue:
			want = val[int](i + 1)
			if typed {
				want = wantValue(n, i+1)
			}
		default:
			want = 0
			if typed {
				want = zeroValue(i + 1)
			}
		}
		if !equalAny(v, want) {
			return fmt.Errorf("%s: err = %v, value %d = %v; want %v (Settled: %v)", name, got.err, i+1, v, want, e.settled)
		}
	}
	return nil
}

// scope reports whether e is of a Scope or a group.
func (e expectation) scope() bool { return e.call == "Scope" || e.call == "Group" }

// yielded reports whether the loop received the failure of position p.
func yielded(pairs []seqPair, p int) bool {
	return slices.ContainsFunc(pairs, func(g seqPair) bool {
		pe, ok := g.err.(*PositionError)
		return ok && pe.Index == p && !errors.Is(pe, context.Canceled)
	})
}

// checkPairs compares the pairs a sequence yielded with the model's: in
// the order of their groups, any order within one, the optional ones
// perhaps missing; all of those not optional, unless the loop broke out.
func (e expectation) checkPairs(name fmt.Stringer, got []seqPair) error {
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
	if len(got) > e.npairs {
		return fmt.Errorf("%s: %d pairs yielded (%v); want at most %d of %v", name, len(got), got, e.npairs, e.pairs)
	}
	matched := make([]bool, len(e.pairs))
	// current returns the group of the first pair not optional that is not
	// matched: pairs of later groups cannot come yet.
	current := func() int {
		for j, w := range e.pairs {
			if !matched[j] && !w.optional {
				return w.group
			}
		}
		return -1
	}
	for i, g := range got {
		cur := current()
		j := -1
		for x, w := range e.pairs {
			if !matched[x] && match(w, g) {
				j = x
				break
			}
		}
		if j < 0 || cur >= 0 && e.pairs[j].group != cur && !e.pairs[j].optional {
			return fmt.Errorf("%s: pair %d is (%v, %v); want one of group %d of %v", name, i, g.v, g.err, cur, e.pairs)
		}
		matched[j] = true
	}
	if broke := e.breakAt > 0 && len(got) == e.breakAt; !broke {
		for j, w := range e.pairs {
			if !matched[j] && !w.optional {
				return fmt.Errorf("%s: %d pairs yielded (%v); want %v, not optional", name, len(got), got, w)
			}
		}
	}
	return nil
}

// checkAny returns nil if the observation matches one of the expectations
// of the documented behaviour. If not, it returns the library bugs (see
// bugs_test.go) whose expectation it matches, or the errors.
func checkAny(es []expectation, name fmt.Stringer, got observed) ([]string, error) {
	var errs []error
	for _, bugs := range []bool{false, true} {
		for _, e := range es {
			if (e.bugs != nil) != bugs || e.parentCanceled != got.parentCanceled && !e.eitherEnd {
				continue
			}
			err := e.check(name, got)
			if err == nil {
				return e.bugs, nil
			}
			if !bugs {
				errs = append(errs, err)
			}
		}
	}
	if len(errs) == 0 {
		return nil, fmt.Errorf("%s: the call ended=%v before the test canceled the caller's ctx at the end; the model says otherwise",
			name, !got.parentCanceled)
	}
	return nil, errors.Join(errs...)
}

func equalAny(a, b any) bool { return fmt.Sprint(a) == fmt.Sprint(b) }

// A sceneName names a scene in the errors of the checks, and spells it
// only when one is made.
type sceneName struct {
	s    *scene
	name string
}

func (n *sceneName) String() string {
	if n.name == "" {
		n.name = n.s.String()
	}
	return n.name
}

// runScenario checks one scene against the model. It returns the library
// bugs (see bugs_test.go) that explain a difference, and fails t for any
// other.
func runScenario(t *testing.T, s scene) (bugs []string) {
	t.Helper()
	synctest.Test(t, func(t *testing.T) {
		got := scenario(s)
		known, err := checkAny(model(s), &sceneName{s: &s}, got)
		if err != nil {
			t.Fatal(err)
		}
		bugs = known
	})
	return bugs
}

// TestFaultMatrix: every outcome at every position of every arity, for
// every call of the model at the same sizes, the other positions returning
// values; the faulty position is released first, then the others in turn.
// Each case runs as it is, then in a variant (see variant): the caller's
// ctx canceled at a step, with or without Grace, a Scope's body (or
// child) waiting for its first children, the options of the call's row of
// optionTable (KeepGoing, Settled, BlockAtLimit, StartAll) drawn, and a
// group's scene a later round half the time; half the cases of the calls
// that take FirstError run a third time with it (see firstErrorVariant).
// -v logs how many cases each option and each kind of earlier round had,
// per call.
//
// Under the race detector, which CI runs 40 times over, the calls past RunN,
// Map and All stop at 8 positions, the limited NewGroup and the zero Group
// at 6, and AwaitN and All run their Settled variant up to 8: their whole
// table would add seconds a run there, and the positions past those take
// no path that the first take not (at a limit of 2, 6 children have 4
// waiting).
func TestFaultMatrix(t *testing.T) {
	ran, cases := 0, 0
	perOp := make([]uint64, numOps)
	bugs := map[string]int{}
	covered := map[string]int{}
	run := func(s scene) {
		ran++
		for _, d := range s.dimensions() {
			covered[d]++
		}
		for _, b := range runScenario(t, s) {
			bugs[b]++
		}
	}
	for n := 1; n <= len(arities); n++ {
		for pos := 1; pos <= n; pos++ {
			for _, k := range matrixKinds {
				for o := range numOps {
					if (o == opRun || o == opAwait) && n == 1 {
						continue // RunN starts at Run2
					}
					if o == opZeroGroup && isWaiting(k) {
						continue // only Wait cancels a zero Group's ctx, once every child has returned
					}
					kinds := make([]kind, n) // kValue
					kinds[pos-1] = k
					order := make([]int, n)
					for i := range order {
						order[i] = (i + pos - 1) % n // the faulty position first
					}
					s := scene{op: o, kinds: kinds, order: order, stopAt: noStop}
					first, withFirst := firstErrorVariant(s, perOp[o])
					cases += 2
					if withFirst {
						cases++
					}
					if raceEnabled && (o >= opScope && n > 8 || o >= opNewGroupLimit && n > 6) {
						continue
					}
					run(s)
					if v, ok := variant(s, perOp[o]); ok && !(raceEnabled && !o.runs() && n > 8) {
						run(v)
					}
					if withFirst {
						run(first)
					}
					perOp[o]++
				}
			}
		}
	}
	t.Logf("%d cases of %d", ran, cases)
	for _, d := range slices.Sorted(maps.Keys(covered)) {
		t.Logf("%6d cases of %s", covered[d], d)
	}
	for b, c := range bugs {
		t.Logf("%d cases meet a known library bug: %s", c, b)
	}
}

// variant returns the i-th variant of a scene of the fault matrix, if its
// call has any. For a call that runs functions, the test cancels the
// caller's ctx before any position is released, after the first (the
// faulty one), halfway or after the last; with Grace half the time, where
// the call takes it. A Scope's body (opScopeTree: child 0) waits for its
// first k children, by each form of wait in turn; a MapSeq loop breaks
// out after k pairs, or not; Quorum and Until need k successes. The other
// options, and a group's earlier round, are drawn by drawOptions; AwaitN
// and All, which take Settled alone, have a variant when it is drawn; the
// zero Group, which has no ctx, is never stopped, and its variant is a
// later round. The choices are drawn from i by a fixed mixing function,
// so that they do not move together with the kinds.
func variant(s scene, i uint64) (scene, bool) {
	h := mix(i)
	s = drawOptions(s, h>>16)
	if !s.op.runs() {
		return s, s.opt(settled)
	}
	n := len(s.kinds)
	s.stopAt = []int{0, 1, n / 2, n}[h%4]
	s.grace = s.op.graceful() && h>>2&1 == 1
	switch {
	case s.op == opZeroGroup:
		s.stopAt = noStop
	case s.op.scope():
		s.k = 1 + int(h>>3%uint64(n))
		s.wait = waitForm(h >> 8 % uint64(numWaits))
	case s.op.seq():
		s.k = int(h >> 3 % uint64(n+1))
	case s.op.race():
		s.k = 1 + int(h>>3%uint64(n)) // Quorum's k, Until's count
	}
	return s, true
}

// drawOptions draws from h the options of s other than Grace and
// FirstError, which the calls that do not take them ignore (see
// scene.opt): KeepGoing a third of the time, StartAll a third of the rest
// (never both: they panic together), Settled and BlockAtLimit half the
// time. A group's scene is a later round half the time (the zero Group's
// always), after a first round whose one child returned a value or an
// error, panicked or called Goexit.
func drawOptions(s scene, h uint64) scene {
	s.keepGoing = h%3 == 0
	s.startAll = !s.keepGoing && h/3%3 == 0
	s.settled = h>>4&1 == 1
	s.blockAtLimit = h>>5&1 == 1
	s.prior = noPrior
	if s.op.group() && (h>>6&1 == 1 || s.op == opZeroGroup) {
		s.prior = 1 + priorRound(h>>7%uint64(numPriors-1))
	}
	return s
}

// firstErrorVariant returns the i-th FirstError scene of the fault matrix,
// for half the cases of the calls that take the option: a variant of the
// case (see variant; drawn apart from the one the case ran in) with
// FirstError and, half the time, a second failure, of one of the error
// kinds, at a position released later. Without a limit the failures are
// then recorded in the order of the releases, which is not their argument
// order when the second position wraps around to the start; with one, a
// failure held back behind a slot may come second, or race (the model says
// which). Only half the cases run it, to keep the matrix's time: about a
// fifth more than without FirstError.
//
// The zero Group, which has FirstError from the start, runs it too, for the
// second failure.
func firstErrorVariant(s scene, i uint64) (scene, bool) {
	h := mix(^i)
	if !s.op.firstError() && s.op != opZeroGroup || h&1 != 0 {
		return s, false // the zero Group has FirstError already
	}
	s, _ = variant(s, ^i)
	s.firstError = true
	if n := len(s.kinds); n > 1 && h>>2&1 == 1 {
		s.kinds = slices.Clone(s.kinds)
		q := s.order[1+int(h>>3%uint64(n-1))]
		s.kinds[q] = []kind{kError, kErrSlice, kErrMap, kErrFunc}[h>>8%4]
	}
	return s, true
}

// mix is SplitMix64's finalizer: a fixed bijection that scatters bits.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
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
