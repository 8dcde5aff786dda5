package task

import (
	"context"
	"strconv"
	"testing"
)

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
		done[i] = FromResult(i)
	}
	inputs := make([]int, 1000)
	aw := make([]Awaiter, len(done))
	for i, tk := range done {
		aw[i] = tk
	}
	// Pending for WhenEach: every task but the last, which has completed,
	// so WhenEach registers with all of them before its first yield. The
	// loop body completes them, one per yield, or has a goroutine complete
	// them all while WhenEach waits.
	eachSrcs, eachTasks := sources(999)
	eachTasks = append(eachTasks, FromResult(999))
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
		{"WhenAll of 1000 completed tasks", 0, func() { WhenAll(ctx, aw...) }},
		{"WhenAny of completed tasks", 0, func() { WhenAny(ctx, done) }},
		{"FirstOK of completed tasks", 0, func() { FirstOK(ctx, done) }},
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
	// Pending tasks, waited for with a cancellable ctx: one link for the
	// whole call (two allocations), not one channel per task.
	srcs, pending := sources(1000)
	go func() {
		for _, s := range srcs {
			s.Complete(1, nil)
		}
	}()
	var ms1, ms2 runtimeMem
	ms1.read()
	All(cctx, pending)
	ms2.read()
	if n := ms2.mallocs - ms1.mallocs; n > 3+10 { // + a little for the goroutine above
		t.Errorf("All of 1000 pending tasks: %d allocations; want about 3", n)
	} else {
		t.Logf("All of 1000 pending tasks with a cancellable ctx: %d allocations", n)
	}
}

// rangeWhenEach makes srcs pending again and ranges over WhenEach(ctx,
// tasks), where tasks are the tasks of srcs and, last, one completed task.
// The loop body calls then(k) for the k-th task it is given.
func rangeWhenEach(ctx context.Context, srcs []*Source[int], tasks []*Task[int], then func(k int)) {
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
