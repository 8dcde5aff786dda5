package task

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"
)

// The benchmarks of this package measure its calls alone; the comparison
// with other libraries lives in the bench module.
//
// They use for range b.N rather than b.Loop: in Go 1.26 a b.Loop body
// keeps its assignments alive, which can move captured values to the heap
// and count allocations real code does not make.

func BenchmarkAwait(b *testing.B) {
	for _, a := range arities[1:] {
		if a.benchAwait == nil {
			continue
		}
		b.Run(fmt.Sprintf("n=%d/mode=completed", a.n), a.benchAwait)
		b.Run(fmt.Sprintf("n=%d/mode=go", a.n), a.benchGoAwait)
	}
}

func BenchmarkRun(b *testing.B) {
	for _, a := range arities[1:] {
		if a.benchRun == nil {
			continue
		}
		b.Run(fmt.Sprintf("n=%d/mode=immediate", a.n), func(b *testing.B) { a.benchRun(b, false) })
		b.Run(fmt.Sprintf("n=%d/mode=usesctx", a.n), func(b *testing.B) { a.benchRun(b, true) })
	}
}

var sizes = []int{16, 1_000, 100_000}

// perTask reports ns and bytes per task next to the per-operation figures.
func perTask(b *testing.B, n int, body func()) {
	b.Helper()
	b.ReportAllocs()
	var m1, m2 runtime.MemStats
	runtime.ReadMemStats(&m1)
	b.ResetTimer()
	for range b.N {
		body()
	}
	b.StopTimer()
	runtime.ReadMemStats(&m2)
	tasks := float64(b.N) * float64(n)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/tasks, "ns/task")
	b.ReportMetric(float64(m2.TotalAlloc-m1.TotalAlloc)/tasks, "B/task")
}

func BenchmarkAll(b *testing.B) {
	ctx := context.Background()
	for _, n := range sizes {
		done := make([]*Task[int], n)
		for i := range done {
			done[i] = fromResult(i)
		}
		b.Run(fmt.Sprintf("n=%d/mode=completed", n), func(b *testing.B) {
			perTask(b, n, func() { All(ctx, done) })
		})
		b.Run(fmt.Sprintf("n=%d/mode=go", n), func(b *testing.B) {
			tasks := make([]*Task[int], n)
			perTask(b, n, func() {
				for i := range tasks {
					tasks[i] = Go(ctx, immediate[int])
				}
				All(ctx, tasks)
			})
		})
	}
}

func BenchmarkWhenEach(b *testing.B) {
	ctx := context.Background()
	for _, n := range sizes {
		done := make([]*Task[int], n)
		for i := range done {
			done[i] = fromResult(i)
		}
		b.Run(fmt.Sprintf("n=%d/mode=completed", n), func(b *testing.B) {
			perTask(b, n, func() {
				for range WhenEach(ctx, done) {
				}
			})
		})
		// Every task but the last is pending when the loop begins, so
		// WhenEach registers with each; the loop body completes one for
		// every task it is given, and WhenEach wakes for each in turn.
		b.Run(fmt.Sprintf("n=%d/mode=pending", n), func(b *testing.B) {
			srcs, tasks := sources(n - 1)
			tasks = append(tasks, fromResult(0))
			perTask(b, n, func() {
				rearm(srcs)
				k := 0
				for range WhenEach(ctx, tasks) {
					if k < len(srcs) {
						srcs[k].Complete(k, nil)
						k++
					}
				}
			})
		})
	}
}

func BenchmarkMap(b *testing.B) {
	ctx := context.Background()
	for _, n := range sizes {
		in := make([]int, n)
		b.Run(fmt.Sprintf("n=%d/limit=8", n), func(b *testing.B) {
			perTask(b, n, func() {
				Map(ctx, in, 8, func(_ context.Context, x int) (int, error) { return x, nil })
			})
		})
	}
}

// BenchmarkMapWithin: Map against MapWithin with a budget that never ends
// (nothing is slow), side by side: the cost of the budget. Under
// ctx=background the caller's ctx is never done; under ctx=request it is a
// context.WithCancel, as a server's request ctx is, which Map watches too.
func BenchmarkMapWithin(b *testing.B) {
	fn := func(_ context.Context, x int) (int, error) { return x, nil }
	request, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, c := range []struct {
		name string
		ctx  context.Context
	}{{"background", context.Background()}, {"request", request}} {
		ctx := c.ctx
		for _, n := range []int{16, 1000} {
			in := make([]int, n)
			for _, limit := range []int{8, -1} {
				lim := "none"
				if limit != -1 {
					lim = fmt.Sprint(limit)
				}
				b.Run(fmt.Sprintf("ctx=%s/call=Map/n=%d/limit=%s", c.name, n, lim), func(b *testing.B) {
					b.ReportAllocs()
					for range b.N {
						Map(ctx, in, limit, fn)
					}
				})
				b.Run(fmt.Sprintf("ctx=%s/call=MapWithin/n=%d/limit=%s", c.name, n, lim), func(b *testing.B) {
					b.ReportAllocs()
					for range b.N {
						MapWithin(ctx, time.Hour, in, limit, fn)
					}
				})
			}
		}
	}
}

// BenchmarkRace: a quorum of 2 of 3 functions that return at once, and
// Until that needs 2 of 3, against Hedge of 3, the call they generalize.
func BenchmarkRace(b *testing.B) {
	ctx := context.Background()
	b.Run("call=Hedge/n=3", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			Hedge(ctx, 0, nil, immediate[int], immediate[int], immediate[int])
		}
	})
	b.Run("call=Quorum_k2/n=3", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			Quorum(ctx, 2, nil, immediate[int], immediate[int], immediate[int])
		}
	})
	two := func(vals []int, at []int) bool { return len(vals) >= 2 }
	b.Run("call=Until_2/n=3", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			Until(ctx, two, nil, immediate[int], immediate[int], immediate[int])
		}
	})
}
