package task

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tasktuple/task/internal/tuplegen"
)

// Pins of the fast paths: allocation counts, with testing.AllocsPerRun
// (counts are deterministic, times are not; the race detector allocates,
// so those tests skip under -race), and the inlining that the fast paths
// rely on.

func TestAwaitCompletedAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under -race")
	}
	for _, a := range arities[1:] {
		if got := a.allocsAwait(); got != 0 {
			t.Errorf("Await%d of completed tasks: %v allocations; want 0", a.n, got)
		}
	}
}

func TestRunAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under -race")
	}
	for _, a := range arities[1:] {
		if got := a.allocsRun(); got != 2 {
			t.Errorf("Run%d: %v allocations; want 2 (its state, and the func value its goroutines start at)", a.n, got)
		} else {
			t.Logf("Run%d: %v allocations", a.n, got)
		}
	}
}

// TestManyAllocs pins the allocations of the slice combinators: constant
// per call, apart from the result slice, whatever the number of tasks.
func TestManyAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under -race")
	}
	ctx := context.Background()
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make([]*Task[int], 1000)
	for i := range done {
		done[i] = fromResult(i)
	}
	inputs := make([]int, 1000)
	// Pending for WhenEach: every task but the last, which has completed,
	// so WhenEach registers with all of them before its first yield. The
	// loop body completes them, one per yield, or has a goroutine complete
	// them all while WhenEach waits.
	eachSrcs, eachTasks := sources(999)
	eachTasks = append(eachTasks, fromResult(999))
	byBody := func(k int) {
		if k < len(eachSrcs) {
			eachSrcs[k].Complete(k, nil)
		}
	}
	start, finished := make(chan struct{}), make(chan struct{})
	defer close(start)
	go func() {
		for range start {
			for _, s := range eachSrcs {
				s.Complete(1, nil)
			}
			finished <- struct{}{}
		}
	}()
	byGoroutine := func(k int) {
		if k == 0 {
			start <- struct{}{}
		}
	}
	for _, tc := range []struct {
		name string
		max  float64
		f    func()
	}{
		{"All of 1000 completed tasks", 1, func() { All(ctx, done) }},
		{"All of 1000 completed tasks, cancellable ctx", 1, func() { All(cctx, done) }},
		// WhenEach inlines: the iterator, the loop body and its state stay
		// on the stack (see wheneach.go). Waiting adds the links and the
		// channel of one watch.
		{"WhenEach over 1000 completed tasks, cancellable ctx", 0, func() {
			for range WhenEach(cctx, done) {
			}
		}},
		{"WhenEach over 1000 pending tasks, completed by the loop body", 2, func() {
			rangeWhenEach(ctx, eachSrcs, eachTasks, byBody)
		}},
		{"WhenEach over 1000 pending tasks, completed by the loop body, cancellable ctx", 2, func() {
			rangeWhenEach(cctx, eachSrcs, eachTasks, byBody)
		}},
		{"WhenEach over 1000 pending tasks, completed by a goroutine", 2, func() {
			rangeWhenEach(ctx, eachSrcs, eachTasks, byGoroutine)
			<-finished // every Complete has returned: rearm may run
		}},
		{"WhenEach over 1000 pending tasks, completed by a goroutine, cancellable ctx", 2, func() {
			rangeWhenEach(cctx, eachSrcs, eachTasks, byGoroutine)
			<-finished // every Complete has returned: rearm may run
		}},
		{"WhenEach over 1000 completed tasks", 0, func() {
			for range WhenEach(ctx, done) {
			}
		}},
		// Results, state, and one closure per goroutine: no outcome per
		// input (only calls that fail keep theirs).
		{"Map over 1000 inputs, limit 4", 2 + 4, func() {
			Map(ctx, inputs, 4, func(_ context.Context, x int) (int, error) { return x, nil })
		}},
	} {
		if got := testing.AllocsPerRun(20, tc.f); got > tc.max {
			t.Errorf("%s: %v allocations; want at most %v", tc.name, got, tc.max)
		} else {
			t.Logf("%s: %v allocations", tc.name, got)
		}
	}
	// Pending tasks: one link for the whole call (two allocations), not
	// one channel per task, whether ctx can be canceled or not.
	for _, w := range []struct {
		name string
		ctx  context.Context
	}{{"a ctx never done", ctx}, {"a cancellable ctx", cctx}} {
		srcs, pending := sources(1000)
		go func() {
			// Once All has blocked on the last task (it waits last
			// first), so that the count is of a wait that blocks.
			last := &pending[len(pending)-1].core
			for {
				last.mu.Lock()
				blocked := last.links != nil
				last.mu.Unlock()
				if blocked {
					break
				}
				runtime.Gosched()
			}
			for _, s := range srcs {
				s.Complete(1, nil)
			}
		}()
		var ms1, ms2 runtimeMem
		ms1.read()
		All(w.ctx, pending)
		ms2.read()
		if n := ms2.mallocs - ms1.mallocs; n > 3+10 { // + a little for the goroutine above
			t.Errorf("All of 1000 pending tasks with %s: %d allocations; want about 3", w.name, n)
		} else {
			t.Logf("All of 1000 pending tasks with %s: %d allocations", w.name, n)
		}
	}
}

// rangeWhenEach makes srcs pending again and ranges over WhenEach(ctx,
// tasks), where tasks are the tasks of srcs and, last, one completed task.
// The loop body calls then(k) for the k-th task it is given.
func rangeWhenEach(ctx context.Context, srcs []*source[int], tasks []*Task[int], then func(k int)) {
	rearm(srcs)
	k := 0
	for range WhenEach(ctx, tasks) {
		then(k)
		k++
	}
	if k != len(tasks) {
		panic("rangeWhenEach: " + strconv.Itoa(k) + " of " + strconv.Itoa(len(tasks)) + " tasks yielded")
	}
}

func TestNamedAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	ctx := context.Background()
	plain := testing.AllocsPerRun(100, func() { Run2(ctx, immediate[int], immediate[string]) })
	named := testing.AllocsPerRun(100, func() { Run2(ctx, Named("i", immediate[int]), Named("s", immediate[string])) })
	if named-plain > 2 {
		t.Errorf("Run2: %v allocations plain, %v with two Named functions; want at most one more each", plain, named)
	}
}

// scopeAllocs is the allocations of a Scope whose body calls start n
// times.
func scopeAllocs(limit, n int, start func(g *Group)) float64 {
	ctx := context.Background()
	return testing.AllocsPerRun(100, func() {
		Scope(ctx, func(ctx context.Context, g *Group) (int, error) {
			g.SetLimit(limit)
			for range n {
				start(g)
			}
			return 0, nil
		})
	})
}

// returnsNil is a function of Group.Go that is not a new closure.
func returnsNil(context.Context) error { return nil }

func TestScopeAllocsOne(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	if got := scopeAllocs(-1, 0, nil); got != 1 {
		t.Errorf("Scope: %v allocations; want 1 (the group)", got)
	}
	if got := testing.AllocsPerRun(100, func() { g, _ := NewGroup(context.Background()); g.Wait() }); got != 1 {
		t.Errorf("NewGroup + Wait: %v allocations; want 1 (the group)", got)
	}
}

// TestGroupGoAllocsOnePerChild: a child of Group.Go or TryGo costs one
// allocation, the closure of its go statement, when its function is not a
// new closure; one waiting for a slot costs one too, its record.
func TestGroupGoAllocsOnePerChild(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	const n = 100
	for _, tc := range []struct {
		name  string
		limit int
		start func(g *Group)
	}{
		{"Group.Go", -1, func(g *Group) { g.Go(returnsNil) }},
		{"Group.TryGo", -1, func(g *Group) { g.TryGo(returnsNil) }},
		{"Group.Go at a limit of 1", 1, func(g *Group) { g.Go(returnsNil) }},
	} {
		if got := (scopeAllocs(tc.limit, n, tc.start) - scopeAllocs(tc.limit, 0, nil)) / n; got != 1 {
			t.Errorf("%s: %v allocations a child; want 1", tc.name, got)
		}
	}
}

// TestSpawnAllocsTwoPerChild: a child of Spawn costs two allocations, the
// child and its goroutine's closure; one waiting for a slot costs one, the
// child.
func TestSpawnAllocsTwoPerChild(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	const n = 100
	spawn := func(g *Group) { Spawn(g, immediate[int]) }
	if got := (scopeAllocs(-1, n, spawn) - scopeAllocs(-1, 0, nil)) / n; got != 2 {
		t.Errorf("Spawn: %v allocations a child; want 2", got)
	}
	// At a limit of 1, the first child starts and the others wait.
	if got := scopeAllocs(1, n+1, spawn) - scopeAllocs(1, 1, spawn); got != n {
		t.Errorf("Spawn at a limit of 1: %v allocations for %d children waiting for a slot; want %d", got, n, n)
	}
}

// TestForEachAllocsIndependentOfInputs: ForEach makes three allocations,
// whatever the number of inputs and the limit: its state, its ends, and
// the one func value its goroutines start at.
func TestForEachAllocsIndependentOfInputs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	ctx := context.Background()
	fn := func(context.Context, int) error { return nil }
	for _, n := range []int{4, 1000} {
		inputs := make([]int, n)
		if got := testing.AllocsPerRun(20, func() { ForEach(ctx, inputs, 4, fn) }); got != 3 {
			t.Errorf("ForEach over %d inputs, limit 4: %v allocations; want 3", n, got)
		}
	}
}

// TestDoAllocs: Do of n functions makes three allocations, whatever n:
// its state, its outcomes, and the one func value the goroutines it starts
// start at (two for one function, which runs on the caller's goroutine).
func TestDoAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	ctx := context.Background()
	for _, n := range []int{1, 2, 16} {
		fns := make([]func(context.Context) error, n)
		for i := range fns {
			fns[i] = returnsNil
		}
		want := 3.0
		if n == 1 {
			want = 2
		}
		if got := testing.AllocsPerRun(100, func() { Do(ctx, fns...) }); got != want {
			t.Errorf("Do of %d functions: %v allocations; want %v", n, got, want)
		}
	}
}

// TestMapSeqHeapFlat: memory does not grow with the number of inputs.
func TestMapSeqAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	ctx := context.Background()
	per := func(n int) float64 {
		return testing.AllocsPerRun(5, func() {
			for range MapSeq(ctx, counting(n, new(atomic.Int32)), 4, func(_ context.Context, i int) (int, error) { return i, nil }) {
			}
		}) / float64(n)
	}
	// The workers start once per range: nothing per input.
	if a := per(10000); a > 0.01 {
		t.Errorf("%.3f allocations per input; want 0", a)
	}
}

// TestFastPathInlined builds the package with -gcflags=-m=2 and checks
// that the completed-task check of every AwaitN and of Wait is inlined, so
// awaiting completed tasks makes no call beyond AwaitN itself, and that
// WhenEach can be inlined, so a range over it keeps its iterator on the
// stack (see wheneach.go).
func TestFastPathInlined(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the compiler")
	}
	// Generic code is compiled where it is instantiated: the test binary
	// instantiates every AwaitN (zarity_test.go).
	out, err := exec.Command("go", "test", "-c", "-o", os.DevNull, "-gcflags=-m=2", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go test -c: %v\n%s", err, out)
	}
	// Lines look like: ./zawait.go:57:12: inlining call to (*Task[go.shape.int]).ok
	src, err := os.ReadFile("zawait.go")
	if err != nil {
		t.Fatal(err)
	}
	funcAt := map[int]string{} // line -> function starting there
	for i, l := range strings.Split(string(src), "\n") {
		if m := regexp.MustCompile(`^func (Await\d+)\[`).FindStringSubmatch(l); m != nil {
			funcAt[i+1] = m[1]
		}
	}
	inlined := map[string]int{}
	seen := map[string]bool{} // line:col, counted once whatever the shape
	re := regexp.MustCompile(`(?m)^\./zawait\.go:((\d+):\d+): inlining call to \(\*Task\[[^\n]*\]\)\.ok$`)
	for _, m := range re.FindAllStringSubmatch(string(out), -1) {
		if seen[m[1]] {
			continue
		}
		seen[m[1]] = true
		var line int
		fmt.Sscan(m[2], &line)
		// The function containing line is the last one starting before it.
		best, name := 0, ""
		for l, f := range funcAt {
			if l <= line && l > best {
				best, name = l, f
			}
		}
		inlined[name]++
	}
	for n := 2; n <= tuplegen.MaxArity; n++ {
		name := fmt.Sprint("Await", n)
		if inlined[name] != n {
			t.Errorf("%s: %d of %d completed-task checks inlined", name, inlined[name], n)
		}
	}
	if !regexp.MustCompile(`(?m)^\./task\.go:\d+:\d+: inlining call to atomic\.\(\*Uint32\)\.Load$`).Match(out) {
		t.Error("the atomic state load is not inlined")
	}
	switch m := regexp.MustCompile(`(?m)^\./wheneach\.go:\d+:\d+: (can|cannot) inline WhenEach\[go\.shape\.int\].*$`).FindSubmatch(out); {
	case m == nil:
		t.Error("no inlining decision for WhenEach")
	case string(m[1]) == "cannot":
		t.Errorf("%s", m[0])
	}
}
