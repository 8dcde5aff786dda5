//go:build go1.25

package task

import (
	"context"
	"errors"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"
)

// completeShuffled completes srcs in a random order from another goroutine.
func completeShuffled(srcs []*source[int], seed uint64) {
	order := rand.New(rand.NewPCG(seed, 1)).Perm(len(srcs))
	go func() {
		for _, i := range order {
			srcs[i].Complete(i, nil)
		}
	}()
}

// measure runs f and reports bytes and allocations per task and the
// goroutines left over.
func measure(t *testing.T, name string, n int, f func()) {
	t.Helper()
	before := runtime.NumGoroutine()
	var m1, m2 runtimeMem
	m1.read()
	start := time.Now()
	f()
	elapsed := time.Since(start)
	m2.read()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if after := runtime.NumGoroutine(); after > before {
		t.Errorf("%s: %d goroutines after, %d before", name, after, before)
	}
	bytes := float64(m2.bytes-m1.bytes) / float64(n)
	allocs := float64(m2.mallocs-m1.mallocs) / float64(n)
	t.Logf("%s, n=%d: %.1f B/task, %.2f allocs/task, %v/task (includes making the tasks)",
		name, n, bytes, allocs, elapsed/time.Duration(n))
	// Bounded memory per task: a task with its source is about 100 bytes;
	// nothing here may grow faster than that.
	if bytes > 400 || allocs > 4 {
		t.Errorf("%s: %.1f B and %.2f allocs per task; want at most 400 B and 4", name, bytes, allocs)
	}
}

func TestScaleAll(t *testing.T) {
	n := scaleN()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	measure(t, "All of pending sources", n, func() {
		srcs, tasks := sources(n)
		completeShuffled(srcs, 1)
		got, err := All(ctx, tasks)
		if err != nil || len(got) != n || got[n-1] != n-1 {
			t.Fatalf("All: len %d, err %v", len(got), err)
		}
	})
}

func TestScaleAllErrors(t *testing.T) {
	n := scaleN()
	tasks := make([]*Task[int], n)
	for i := range tasks {
		tasks[i] = fromError[int](posErr{i})
	}
	start := time.Now()
	_, err := All(context.Background(), tasks)
	msg := err.Error()
	found := 0
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		if _, ok := e.(*PositionError); ok {
			found++
		}
	}
	is := errors.Is(err, posErr{n - 1})
	t.Logf("All of %d failed tasks, Error() of %d bytes and errors.Is of the last: %v", n, len(msg), time.Since(start))
	if found != n || !is {
		t.Fatalf("joined %d of %d errors; errors.Is(last) = %v", found, n, is)
	}
}

func TestScaleWhenEach(t *testing.T) {
	n := scaleN()
	measure(t, "WhenEach over pending sources", n, func() {
		srcs, tasks := sources(n)
		completeShuffled(srcs, 2)
		seen := make([]bool, n)
		count := 0
		for i := range WhenEach(context.Background(), tasks) {
			if seen[i] {
				t.Fatalf("task %d yielded twice", i)
			}
			seen[i] = true
			count++
		}
		if count != n {
			t.Fatalf("%d of %d yielded", count, n)
		}
	})
}

func TestScaleMap(t *testing.T) {
	n := scaleN()
	in := make([]int, n)
	for i := range in {
		in[i] = i
	}
	measure(t, "Map, limit 8", n, func() {
		out, err := Map(context.Background(), in, 8, func(_ context.Context, x int) (int, error) { return 2 * x, nil })
		if err != nil || out[n-1] != 2*(n-1) {
			t.Fatalf("Map: %v", err)
		}
	})
}

func TestScaleGoAll(t *testing.T) {
	n := scaleN()
	ctx := context.Background()
	measure(t, "Go then All", n, func() {
		tasks := make([]*Task[int], n)
		for i := range tasks {
			tasks[i] = Go(ctx, immediate[int])
		}
		if _, err := All(ctx, tasks); err != nil {
			t.Fatal(err)
		}
	})
}

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
		tasks[i] = fromError[int](posErr{i})
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
