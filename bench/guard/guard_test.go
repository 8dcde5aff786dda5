package guard

import (
	"context"
	"fmt"
	"iter"
	"math"
	"slices"
	"strconv"
	"testing"

	"github.com/tasktuple/task"
)

// This file is compiled against old commits too (see doc.go): only the
// standard library and the API of package task at a1ba8fa. The loops are
// for range b.N, not b.Loop: b.Loop keeps the assignments of its body alive,
// which can move captured locals to the heap and add allocations that are
// not the library's (STYLE.md).

// guardNs are the numbers of inputs or children of the loops.
var guardNs = []int{16, 1000}

// guardLimit is the limit of the limited loops.
const guardLimit = 8

// guardLimits are the limits measured: none and guardLimit. None is
// math.MaxInt, which both the baseline's API (its NoLimit) and today's
// (a limit that limits nothing) take.
var guardLimits = []int{math.MaxInt, guardLimit}

// sink keeps the results alive.
var sink struct {
	int  int
	ints []int
}

// ret is every function's work: it returns at once.
func ret(context.Context) (int, error) { return 1, nil }

// done returns a task that has completed with v: started by Go and
// awaited once, which the baseline's API and the new one both have.
func done(ctx context.Context, v int) *task.Task[int] {
	t := task.Go(ctx, func(context.Context) (int, error) { return v, nil })
	if _, err := t.Wait(ctx); err != nil {
		panic(err)
	}
	return t
}

// retIn is ret with an input.
func retIn(_ context.Context, in int) (int, error) { return in, nil }

// nop is ret for the forms that take functions returning only an error.
func nop(context.Context) error { return nil }

// nopIn is nop with an input.
func nopIn(context.Context, int) error { return nil }

// limitName names a limit in a benchmark name: "none" for math.MaxInt.
func limitName(limit int) string {
	if limit == math.MaxInt {
		return "none"
	}
	return strconv.Itoa(limit)
}

// BenchmarkGuard measures the core calls. Names are key=value: op, then n
// (inputs or children) and limit where the call has them. Inputs, sequences
// and bodies are made before the timed loop.
func BenchmarkGuard(b *testing.B) {
	ctx := context.Background()

	b.Run("op=Run2", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			v1, v2, err := task.Run2(ctx, ret, ret)
			check(b, err)
			sink.int = v1 + v2
		}
	})
	b.Run("op=Run16", func(b *testing.B) {
		b.ReportAllocs()
		f := ret
		for range b.N {
			v1, _, _, _, _, _, _, _, _, _, _, _, _, _, _, v16, err := task.Run16(ctx,
				f, f, f, f, f, f, f, f, f, f, f, f, f, f, f, f)
			check(b, err)
			sink.int = v1 + v16
		}
	})

	b.Run("op=Go+Await2", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			t1, t2 := task.Go(ctx, ret), task.Go(ctx, ret)
			v1, v2, err := task.Await2(ctx, t1, t2)
			check(b, err)
			sink.int = v1 + v2
		}
	})
	b.Run("op=Go+Await16", func(b *testing.B) {
		b.ReportAllocs()
		var ts [16]*task.Task[int]
		for range b.N {
			for i := range ts {
				ts[i] = task.Go(ctx, ret)
			}
			v1, _, _, _, _, _, _, _, _, _, _, _, _, _, _, v16, err := task.Await16(ctx,
				ts[0], ts[1], ts[2], ts[3], ts[4], ts[5], ts[6], ts[7],
				ts[8], ts[9], ts[10], ts[11], ts[12], ts[13], ts[14], ts[15])
			check(b, err)
			sink.int = v1 + v16
		}
	})

	// The awaits of tasks already complete: the fast path.
	b.Run("op=Await2", func(b *testing.B) {
		b.ReportAllocs()
		t1, t2 := done(ctx, 1), done(ctx, 2)
		for range b.N {
			v1, v2, err := task.Await2(ctx, t1, t2)
			check(b, err)
			sink.int = v1 + v2
		}
	})
	b.Run("op=Await16", func(b *testing.B) {
		b.ReportAllocs()
		var ts [16]*task.Task[int]
		for i := range ts {
			ts[i] = done(ctx, i)
		}
		for range b.N {
			v1, _, _, _, _, _, _, _, _, _, _, _, _, _, _, v16, err := task.Await16(ctx,
				ts[0], ts[1], ts[2], ts[3], ts[4], ts[5], ts[6], ts[7],
				ts[8], ts[9], ts[10], ts[11], ts[12], ts[13], ts[14], ts[15])
			check(b, err)
			sink.int = v1 + v16
		}
	})

	for _, n := range guardNs {
		for _, limit := range guardLimits {
			inputs := ints(n)
			b.Run(fmt.Sprintf("op=Map/n=%d/limit=%s", n, limitName(limit)), func(b *testing.B) {
				b.ReportAllocs()
				for range b.N {
					out, err := task.Map(ctx, inputs, limit, retIn)
					check(b, err)
					sink.ints = out
				}
			})
			b.Run(fmt.Sprintf("op=ForEach/n=%d/limit=%s", n, limitName(limit)), func(b *testing.B) {
				b.ReportAllocs()
				for range b.N {
					check(b, task.ForEach(ctx, inputs, limit, nopIn))
				}
			})
		}
	}

	for _, n := range guardNs {
		seq := slices.Values(ints(n))
		b.Run(fmt.Sprintf("op=MapSeq/n=%d/limit=%d", n, guardLimit), func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				drain(b, task.MapSeq(ctx, seq, guardLimit, retIn))
			}
		})
		b.Run(fmt.Sprintf("op=MapSeqUnordered/n=%d/limit=%d", n, guardLimit), func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				drain(b, task.MapSeqUnordered(ctx, seq, guardLimit, retIn))
			}
		})
	}

	for _, n := range guardNs {
		for _, limit := range guardLimits {
			b.Run(fmt.Sprintf("op=Scope+Go/n=%d/limit=%s", n, limitName(limit)), func(b *testing.B) {
				b.ReportAllocs()
				body := func(ctx context.Context, g *task.Group) (int, error) {
					if limit != math.MaxInt {
						g.SetLimit(limit)
					}
					for range n {
						g.Go(nop)
					}
					return 0, nil
				}
				for range b.N {
					_, err := task.Scope(ctx, body)
					check(b, err)
				}
			})
		}
	}

	// The typed dynamic fan-out: a child's result through its task. At
	// f869a6c a failure path's report in the frame of every child's
	// goroutine made each outgrow its first stack: 3x the time of a1ba8fa.
	for _, n := range guardNs {
		for _, limit := range guardLimits {
			b.Run(fmt.Sprintf("op=Scope+Spawn+All/n=%d/limit=%s", n, limitName(limit)), func(b *testing.B) {
				b.ReportAllocs()
				body := func(ctx context.Context, g *task.Group) ([]int, error) {
					if limit != math.MaxInt {
						g.SetLimit(limit)
					}
					ts := make([]*task.Task[int], n)
					for i := range ts {
						ts[i] = task.Spawn(g, ret)
					}
					return task.All(ctx, ts)
				}
				for range b.N {
					out, err := task.Scope(ctx, body)
					check(b, err)
					sink.ints = out
				}
			})
		}
	}

	// The benchmarks of an API newer than a1ba8fa's (group_test.go), when
	// both sides have it.
	benchNewer(b, ctx)
}

// ints returns the inputs 0 to n-1.
func ints(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// drain ranges over the whole of seq. It stops at an error, and fails
// only after the loop, not from its body.
func drain(b *testing.B, seq iter.Seq2[int, error]) {
	sum := 0
	var first error
	for v, err := range seq {
		if err != nil {
			first = err
			break
		}
		sum += v
	}
	check(b, first)
	sink.int = sum
}

// check stops the benchmark on an error: no function here fails, so an
// error is the library's, and its time would not be the success path's.
func check(b *testing.B, err error) {
	if err != nil {
		b.Helper()
		b.Fatal(err)
	}
}
