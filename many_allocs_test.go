package task

import (
	"context"
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
		// The iterator, its watch (struct, links, channel), and the loop
		// body, which a range over a func value moves to the heap.
		{"WhenEach over 1000 completed tasks", 5, func() {
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
