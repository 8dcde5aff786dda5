package bench

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alitto/pond/v2"
	"github.com/sourcegraph/conc/pool"
	"golang.org/x/sync/errgroup"

	"github.com/tasktuple/task"
)

// The dynamic fan-out: a loop that starts n children, n known only as it
// runs, each a function that takes a context and returns an int. Every
// implementation returns the n results in a slice, in child order, and
// cancels the others' context on the first error, as errgroup.WithContext
// does. task.Scope gathers the results through the spawned tasks (task.All);
// the peers, which have no typed handle, write each result to its index.
// The floor, written by hand for this one site, does not cancel.

// dynamicNs are the numbers of children measured.
var dynamicNs = []int{16, 1000, 100_000}

// A dynamicCase is one implementation of the dynamic fan-out.
type dynamicCase struct {
	impl    string
	cancels bool // cancels the others' context on the first error
	run     func(ctx context.Context, n int, f func(context.Context) (int, error)) ([]int, error)
}

var dynamicCases = []dynamicCase{
	{"floor", false, floorFanout},
	{"errgroup-ctx", true, errgroupFanout(0)},
	{"errgroup-ctx-limit8", true, errgroupFanout(8)},
	{"conc-pool-ctx", true, concFanout(0)},
	{"conc-pool-ctx-limit8", true, concFanout(8)},
	{"pond-group", true, pondFanout},
	{"task-scope", true, scopeFanout(0)},
	{"task-scope-limit8", true, scopeFanout(8)},
	{"task-scope-index", true, scopeIndexFanout},
}

// floorFanout is what an expert writes by hand for this one site: a loop of
// go statements, each child writing its result and its error to its index
// of two slices made beforehand, and one sync.WaitGroup; the slices and the
// WaitGroup in one struct, as in the fan-out's floor, so that each child's
// closure holds one pointer to them rather than two slices. No cancellation
// and no panic handling: after an error the others run to their end, and
// the first error in child order is returned. Issue 13's bar.
func floorFanout(ctx context.Context, n int, f func(context.Context) (int, error)) ([]int, error) {
	s := &struct {
		wg   sync.WaitGroup
		r    []int
		errs []error
	}{r: make([]int, n), errs: make([]error, n)}
	s.wg.Add(n)
	for i := range n {
		go func() {
			defer s.wg.Done()
			s.r[i], s.errs[i] = f(ctx)
		}()
	}
	s.wg.Wait()
	for _, err := range s.errs {
		if err != nil {
			return s.r, err
		}
	}
	return s.r, nil
}

// errgroupFanout is errgroup.WithContext and g.Go, with g.SetLimit(limit)
// if limit > 0.
func errgroupFanout(limit int) func(context.Context, int, func(context.Context) (int, error)) ([]int, error) {
	return func(ctx context.Context, n int, f func(context.Context) (int, error)) ([]int, error) {
		g, gctx := errgroup.WithContext(ctx)
		if limit > 0 {
			g.SetLimit(limit)
		}
		r := make([]int, n)
		for i := range n {
			g.Go(func() error {
				v, err := f(gctx)
				r[i] = v
				return err
			})
		}
		return r, g.Wait()
	}
}

// concFanout is conc's ContextPool with WithCancelOnError, and
// WithMaxGoroutines(limit) if limit > 0. ResultContextPool would take f as
// it is, but at v0.3.0 its results come in the order the calls return, not
// in child order: it does not do the same job.
func concFanout(limit int) func(context.Context, int, func(context.Context) (int, error)) ([]int, error) {
	return func(ctx context.Context, n int, f func(context.Context) (int, error)) ([]int, error) {
		p := pool.New()
		if limit > 0 {
			p = p.WithMaxGoroutines(limit)
		}
		cp := p.WithContext(ctx).WithCancelOnError()
		r := make([]int, n)
		for i := range n {
			cp.Go(func(ctx context.Context) error {
				v, err := f(ctx)
				r[i] = v
				return err
			})
		}
		return r, cp.Wait()
	}
}

// pondFanout is a pond group on the default pool; the functions get the
// group's context, which it cancels on the first error. (A group of the
// default pool cannot take the caller's context: pond.NewGroup has no
// context parameter, and the default pool is not exported.)
func pondFanout(_ context.Context, n int, f func(context.Context) (int, error)) ([]int, error) {
	g := pond.NewGroup()
	gctx := g.Context()
	r := make([]int, n)
	for i := range n {
		g.SubmitErr(func() error {
			v, err := f(gctx)
			r[i] = v
			return err
		})
	}
	return r, g.Wait()
}

// scopeFanout is task.Scope and task.Spawn, with g.SetLimit(limit) if
// limit > 0; the body gathers the results with task.All over the tasks.
func scopeFanout(limit int) func(context.Context, int, func(context.Context) (int, error)) ([]int, error) {
	return func(ctx context.Context, n int, f func(context.Context) (int, error)) ([]int, error) {
		return task.Scope(ctx, func(ctx context.Context, g *task.Group) ([]int, error) {
			if limit > 0 {
				g.SetLimit(limit)
			}
			ts := make([]*task.Task[int], n)
			for i := range ts {
				ts[i] = task.Spawn(g, f)
			}
			return task.All(ctx, ts)
		})
	}
}

// scopeIndexFanout is task.Scope written as errgroup is: each child writes
// its result to its index, and the body just returns, leaving the wait to
// Scope.
func scopeIndexFanout(ctx context.Context, n int, f func(context.Context) (int, error)) ([]int, error) {
	r := make([]int, n)
	_, err := task.Scope(ctx, func(ctx context.Context, g *task.Group) (struct{}, error) {
		for i := range n {
			task.Spawn(g, func(ctx context.Context) (struct{}, error) {
				v, err := f(ctx)
				r[i] = v
				return struct{}{}, err
			})
		}
		return struct{}{}, nil
	})
	return r, err
}

// BenchmarkDynamic runs the dynamic fan-out of n children with every
// implementation. Names are key=value: impl, n, mode (immediate or yield).
func BenchmarkDynamic(b *testing.B) {
	ctx := context.Background()
	for _, m := range []mode{immediate, yield} {
		for _, n := range dynamicNs {
			for _, c := range dynamicCases {
				b.Run(fmt.Sprintf("impl=%s/n=%d/mode=%v", c.impl, n, m), func(b *testing.B) {
					f := pick[int](m)
					b.ReportAllocs()
					for range b.N {
						r, err := c.run(ctx, n, f)
						if err != nil || len(r) != n {
							b.Fatalf("%d results, err %v; want %d, nil", len(r), err, n)
						}
						sinks.int = r[n-1]
					}
				})
			}
		}
	}
}

// TestDynamicCases checks that every implementation returns every result in
// child order and the first error, and that those that say so cancel the
// others on the first error.
func TestDynamicCases(t *testing.T) {
	ctx := context.Background()
	want := slices.Repeat([]int{42}, 100)
	for _, c := range dynamicCases {
		for _, m := range []mode{immediate, yield} {
			got, err := c.run(ctx, len(want), pick[int](m))
			if err != nil || !slices.Equal(got, want) {
				t.Errorf("%s (mode=%v) = %v, %v; want 100 × 42, nil", c.impl, m, got, err)
			}
		}
		if !c.cancels {
			if _, err := c.run(ctx, 10, failAt(3)); !errors.Is(err, errUnexpected) {
				t.Errorf("%s with a failing child: err = %v; want errUnexpected", c.impl, err)
			}
			continue
		}
		// One child fails; the others wait for their context to end.
		var failed atomic.Bool
		var hung atomic.Int32
		_, err := c.run(ctx, 10, func(ctx context.Context) (int, error) {
			if failed.CompareAndSwap(false, true) {
				return 0, errUnexpected
			}
			select {
			case <-ctx.Done():
				return 0, ctx.Err()
			case <-time.After(hangGuard):
				hung.Add(1)
				return 0, nil
			}
		})
		if !errors.Is(err, errUnexpected) || hung.Load() != 0 {
			t.Errorf("%s with a failing child: err = %v, %d children not canceled; want errUnexpected, 0", c.impl, err, hung.Load())
		}
	}
}

// failAt returns a child function that fails on its k-th call (from 0) and
// returns 42 on the others.
func failAt(k int32) func(context.Context) (int, error) {
	var calls atomic.Int32
	return func(context.Context) (int, error) {
		if calls.Add(1)-1 == k {
			return 0, errUnexpected
		}
		return 42, nil
	}
}
