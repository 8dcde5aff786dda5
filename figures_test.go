package task

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"
)

// TestReliabilityFigures measures what docs/reliability.md reports: memory
// per pending task at 10^3, 10^4 and 10^5, peak goroutines, goroutines
// after, cancellation latency with 10^4 waiters, and the cost of 10^5
// joined errors. It asserts only what is deterministic (goroutines back to
// where they were); times are logged, never asserted. Run with -v, without
// -short.
func TestReliabilityFigures(t *testing.T) {
	if testing.Short() {
		t.Skip("large; run without -short")
	}
	if raceEnabled {
		t.Skip("10^5 live goroutines exceed the race detector's limit of 8128")
	}
	for _, n := range []int{1_000, 10_000, 100_000} {
		pendingGoTasks(t, n)
	}
	cancellationLatency(t, 10_000)
	joinedErrors(t, 100_000)
}

// pendingGoTasks starts n tasks with Go that block until released, and
// reports memory per task, including each goroutine's stack.
func pendingGoTasks(t *testing.T, n int) {
	before := runtime.NumGoroutine()
	runtime.GC()
	var m1, m2 runtime.MemStats
	runtime.ReadMemStats(&m1)
	gate := make(chan struct{})
	ctx := context.Background()
	tasks := make([]*Task[int], n)
	for i := range tasks {
		tasks[i] = Go(ctx, func(context.Context) (int, error) { <-gate; return i, nil })
	}
	peak := runtime.NumGoroutine()
	runtime.ReadMemStats(&m2)
	heap := float64(m2.TotalAlloc-m1.TotalAlloc) / float64(n)
	stack := float64(m2.StackInuse-m1.StackInuse) / float64(n)
	allocs := float64(m2.Mallocs-m1.Mallocs) / float64(n)
	close(gate)
	vs, err := All(ctx, tasks)
	if err != nil || len(vs) != n {
		t.Fatalf("All: %v", err)
	}
	after := waitGoroutines(before)
	t.Logf("figure: %d pending Go tasks: %.0f B heap + %.0f B stack per task, %.2f allocs per task, peak goroutines %d, goroutines before/after %d/%d",
		n, heap, stack, allocs, peak, before, after)
	if after > before {
		t.Errorf("%d goroutines after, %d before", after, before)
	}
}

func waitGoroutines(before int) int {
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	return runtime.NumGoroutine()
}

// cancellationLatency has n goroutines waiting on n pending tasks with one
// ctx, cancels it, and reports the time from cancel until each waiter has
// returned.
func cancellationLatency(t *testing.T, n int) {
	before := runtime.NumGoroutine()
	srcs, tasks := sources(n)
	ctx, cancel := context.WithCancel(context.Background())
	lat := make([]time.Duration, n)
	var start time.Time
	var ready, wg sync.WaitGroup
	startCh := make(chan struct{})
	ready.Add(n)
	for i, tk := range tasks {
		wg.Go(func() {
			ready.Done()
			_, err := tk.Wait(ctx)
			lat[i] = time.Since(start)
			if !errors.Is(err, context.Canceled) {
				t.Errorf("waiter %d: err = %v", i, err)
			}
		})
	}
	ready.Wait()
	// Let every waiter block in Wait before canceling.
	for range 100 {
		runtime.Gosched()
	}
	time.Sleep(50 * time.Millisecond)
	close(startCh)
	start = time.Now()
	cancel()
	wg.Wait()
	all := time.Since(start)
	slices.Sort(lat)
	t.Logf("figure: cancellation with %d waiters: p50 %v, p99 %v, all returned after %v", n,
		lat[n/2].Round(time.Microsecond), lat[n*99/100].Round(time.Microsecond), all.Round(time.Microsecond))
	for _, s := range srcs {
		s.Complete(0, nil)
	}
	if after := waitGoroutines(before); after > before {
		t.Errorf("%d goroutines after, %d before", after, before)
	}
}

// joinedErrors times Error() and errors.Is on n joined errors.
func joinedErrors(t *testing.T, n int) {
	tasks := make([]*Task[int], n)
	for i := range tasks {
		tasks[i] = FromError[int](posErr{i})
	}
	start := time.Now()
	_, err := All(context.Background(), tasks)
	join := time.Since(start)
	start = time.Now()
	msg := err.Error()
	text := time.Since(start)
	start = time.Now()
	found := errors.Is(err, posErr{n - 1})
	is := time.Since(start)
	var pe *PositionError
	start = time.Now()
	as := errors.As(err, &pe)
	asT := time.Since(start)
	if !found || !as || pe.Index != 0 {
		t.Fatalf("errors.Is/As on %d joined errors failed", n)
	}
	t.Logf("figure: %d joined errors: joining %v, Error() %v (%d bytes), errors.Is of the last %v, errors.As %v",
		n, join.Round(time.Microsecond), text.Round(time.Microsecond), len(msg), is.Round(time.Microsecond), asT.Round(time.Microsecond))
}
