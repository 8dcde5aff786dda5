package bench

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alitto/pond/v2"
	"github.com/sourcegraph/conc/pool"
	"golang.org/x/sync/errgroup"

	"github.com/tasktuple/task"
)

// The loop: errgroup's loop over a slice of n inputs, the shape of most
// errgroup code, in two forms. With out=err each child returns only an
// error (g.Go(func() error { return upload(ctx, p) })); with out=slice
// each returns a value too, which the peers write to its index of a slice
// made beforehand, and which task.Map and task.All return in input order.
// Each form runs with a limit of loopLimit calls at once and with none
// (limit=none: no SetLimit, -1).
//
// The peers that cancel do so on the first error, as errgroup.WithContext
// does; errgroup.Group and the floor do not cancel.

// loopNs are the numbers of inputs measured.
var loopNs = []int{16, 1000, 100_000}

// loopLimit is the limit of the limited loops.
const loopLimit = 8

// loopLimits are the limits measured: loopLimit, and none.
var loopLimits = []int{-1, loopLimit}

// limitName is a limit as the benchmark names spell it.
func limitName(limit int) string {
	if limit == -1 {
		return "none"
	}
	return strconv.Itoa(limit)
}

// A loopCase is one implementation of the loop, in one of its forms:
// each is set for out=err, gather for out=slice. A limit of -1
// means none.
type loopCase struct {
	impl    string
	cancels bool // cancels the others' context on the first error
	// extra is how many calls beyond the limit may run at once: task.All
	// runs a child still waiting for a slot on the body's goroutine, in
	// addition to the limit (Group.SetLimit).
	extra  int
	each   func(ctx context.Context, inputs []int, limit int, f func(context.Context, int) error) error
	gather func(ctx context.Context, inputs []int, limit int, f func(context.Context, int) (int, error)) ([]int, error)
}

// out is the form of c as the benchmark names spell it.
func (c loopCase) out() string {
	if c.each != nil {
		return "err"
	}
	return "slice"
}

var loopCases = []loopCase{
	{impl: "floor", each: floorEach},
	{impl: "errgroup", each: errgroupEach},
	{impl: "errgroup-ctx", cancels: true, each: errgroupCtxEach},
	{impl: "conc-pool-ctx", cancels: true, each: concEach},
	{impl: "pond-group", cancels: true, each: pondEach},
	{impl: "task-scope-go", cancels: true, each: scopeGoEach},
	{impl: "task-newgroup", cancels: true, each: newGroupEach},
	{impl: "task-foreach", cancels: true, each: forEach},

	{impl: "floor", gather: floorGather},
	{impl: "errgroup", gather: errgroupGather},
	{impl: "errgroup-ctx", cancels: true, gather: errgroupCtxGather},
	{impl: "conc-pool-ctx", cancels: true, gather: concGather},
	{impl: "pond-group", cancels: true, gather: pondGather},
	{impl: "task-scope-go", cancels: true, gather: scopeGoGather},
	{impl: "task-newgroup", cancels: true, gather: newGroupGather},
	{impl: "task-scope-spawn-all", cancels: true, extra: 1, gather: scopeSpawnAll},
	{impl: "task-map", cancels: true, gather: mapSlice},
}

// eachFunc and gatherFunc are the children of the two forms in mode m:
// return at once, or after one runtime.Gosched.
func eachFunc(m mode) func(context.Context, int) error {
	if m == yield {
		return func(context.Context, int) error { runtime.Gosched(); return nil }
	}
	return func(context.Context, int) error { return nil }
}

func gatherFunc(m mode) func(context.Context, int) (int, error) {
	if m == yield {
		return func(_ context.Context, in int) (int, error) { runtime.Gosched(); return 2 * in, nil }
	}
	return double
}

// floorEach is what an expert writes by hand for this one site: without a
// limit, a go statement per input and one sync.WaitGroup; with one, limit
// workers that take the next input with an atomic add. The first error to
// happen is kept under a mutex, which the success path never takes; the
// state is one struct, so that each closure holds one pointer to it. No
// cancellation, no panic handling.
func floorEach(ctx context.Context, inputs []int, limit int, f func(context.Context, int) error) error {
	s := &struct {
		wg   sync.WaitGroup
		next atomic.Int64 // the next input a worker takes
		mu   sync.Mutex   // protects err
		err  error
	}{}
	fail := func(err error) {
		s.mu.Lock()
		if s.err == nil {
			s.err = err
		}
		s.mu.Unlock()
	}
	if limit < 0 || limit >= len(inputs) {
		s.wg.Add(len(inputs))
		for _, in := range inputs {
			go func() {
				defer s.wg.Done()
				if err := f(ctx, in); err != nil {
					fail(err)
				}
			}()
		}
	} else {
		for range limit {
			s.wg.Go(func() {
				for i := s.next.Add(1) - 1; i < int64(len(inputs)); i = s.next.Add(1) - 1 {
					if err := f(ctx, inputs[i]); err != nil {
						fail(err)
					}
				}
			})
		}
	}
	s.wg.Wait()
	return s.err
}

// floorGather is floorEach writing each value to its index of the result.
func floorGather(ctx context.Context, inputs []int, limit int, f func(context.Context, int) (int, error)) ([]int, error) {
	s := &struct {
		wg   sync.WaitGroup
		next atomic.Int64 // the next input a worker takes
		r    []int
		mu   sync.Mutex // protects err
		err  error
	}{r: make([]int, len(inputs))}
	fail := func(err error) {
		s.mu.Lock()
		if s.err == nil {
			s.err = err
		}
		s.mu.Unlock()
	}
	if limit < 0 || limit >= len(inputs) {
		s.wg.Add(len(inputs))
		for i, in := range inputs {
			go func() {
				defer s.wg.Done()
				v, err := f(ctx, in)
				s.r[i] = v
				if err != nil {
					fail(err)
				}
			}()
		}
	} else {
		for range limit {
			s.wg.Go(func() {
				for i := s.next.Add(1) - 1; i < int64(len(inputs)); i = s.next.Add(1) - 1 {
					v, err := f(ctx, inputs[i])
					s.r[i] = v
					if err != nil {
						fail(err)
					}
				}
			})
		}
	}
	s.wg.Wait()
	return s.r, s.err
}

// errgroupEach is the zero errgroup.Group and g.Go; the children get the
// caller's context.
func errgroupEach(ctx context.Context, inputs []int, limit int, f func(context.Context, int) error) error {
	var g errgroup.Group
	if limit != -1 {
		g.SetLimit(limit)
	}
	for _, in := range inputs {
		g.Go(func() error { return f(ctx, in) })
	}
	return g.Wait()
}

// errgroupCtxEach is errgroup.WithContext and g.Go.
func errgroupCtxEach(ctx context.Context, inputs []int, limit int, f func(context.Context, int) error) error {
	g, ctx := errgroup.WithContext(ctx)
	if limit != -1 {
		g.SetLimit(limit)
	}
	for _, in := range inputs {
		g.Go(func() error { return f(ctx, in) })
	}
	return g.Wait()
}

func errgroupGather(ctx context.Context, inputs []int, limit int, f func(context.Context, int) (int, error)) ([]int, error) {
	var g errgroup.Group
	if limit != -1 {
		g.SetLimit(limit)
	}
	r := make([]int, len(inputs))
	for i, in := range inputs {
		g.Go(func() error {
			v, err := f(ctx, in)
			r[i] = v
			return err
		})
	}
	return r, g.Wait()
}

func errgroupCtxGather(ctx context.Context, inputs []int, limit int, f func(context.Context, int) (int, error)) ([]int, error) {
	g, ctx := errgroup.WithContext(ctx)
	if limit != -1 {
		g.SetLimit(limit)
	}
	r := make([]int, len(inputs))
	for i, in := range inputs {
		g.Go(func() error {
			v, err := f(ctx, in)
			r[i] = v
			return err
		})
	}
	return r, g.Wait()
}

// concPool is conc's ContextPool with WithCancelOnError, and
// WithMaxGoroutines(limit) if there is a limit.
func concPool(ctx context.Context, limit int) *pool.ContextPool {
	p := pool.New()
	if limit != -1 {
		p = p.WithMaxGoroutines(limit)
	}
	return p.WithContext(ctx).WithCancelOnError()
}

func concEach(ctx context.Context, inputs []int, limit int, f func(context.Context, int) error) error {
	p := concPool(ctx, limit)
	for _, in := range inputs {
		p.Go(func(ctx context.Context) error { return f(ctx, in) })
	}
	return p.Wait()
}

func concGather(ctx context.Context, inputs []int, limit int, f func(context.Context, int) (int, error)) ([]int, error) {
	p := concPool(ctx, limit)
	r := make([]int, len(inputs))
	for i, in := range inputs {
		p.Go(func(ctx context.Context) error {
			v, err := f(ctx, in)
			r[i] = v
			return err
		})
	}
	return r, p.Wait()
}

// pondGroup is a pond group on the default pool, or, with a limit, on a
// subpool of it made for the loop (pond.NewSubpool: its workers are the
// default pool's, and it holds none once its tasks are done, so it needs
// no Stop). The children get the group's context, which it cancels on the
// first error; it cannot take the caller's (see pondFanout).
func pondGroup(limit int) pond.TaskGroup {
	if limit != -1 {
		return pond.NewSubpool(limit).NewGroup()
	}
	return pond.NewGroup()
}

func pondEach(_ context.Context, inputs []int, limit int, f func(context.Context, int) error) error {
	g := pondGroup(limit)
	gctx := g.Context()
	for _, in := range inputs {
		g.SubmitErr(func() error { return f(gctx, in) })
	}
	return g.Wait()
}

func pondGather(_ context.Context, inputs []int, limit int, f func(context.Context, int) (int, error)) ([]int, error) {
	g := pondGroup(limit)
	gctx := g.Context()
	r := make([]int, len(inputs))
	for i, in := range inputs {
		g.SubmitErr(func() error {
			v, err := f(gctx, in)
			r[i] = v
			return err
		})
	}
	return r, g.Wait()
}

// scopeGoEach is task.Scope and g.Go, errgroup's loop in a scope, with
// g.SetLimit(limit) if there is a limit; the body returns at once and
// Scope waits for the children.
func scopeGoEach(ctx context.Context, inputs []int, limit int, f func(context.Context, int) error) error {
	_, err := task.Scope(ctx, func(ctx context.Context, g *task.Group) (struct{}, error) {
		if limit != -1 {
			g.SetLimit(limit)
		}
		for _, in := range inputs {
			g.Go(func(ctx context.Context) error { return f(ctx, in) })
		}
		return struct{}{}, nil
	})
	return err
}

// scopeGoGather is scopeGoEach with each child writing its value to its
// index, as errgroup's loop does.
func scopeGoGather(ctx context.Context, inputs []int, limit int, f func(context.Context, int) (int, error)) ([]int, error) {
	r := make([]int, len(inputs))
	_, err := task.Scope(ctx, func(ctx context.Context, g *task.Group) (struct{}, error) {
		if limit != -1 {
			g.SetLimit(limit)
		}
		for i, in := range inputs {
			g.Go(func(ctx context.Context) error {
				v, err := f(ctx, in)
				r[i] = v
				return err
			})
		}
		return struct{}{}, nil
	})
	return r, err
}

// newGroupEach is errgroup's loop in errgroup's shape: task.NewGroup,
// g.Go, g.Wait, with g.SetLimit(limit) if there is a limit.
func newGroupEach(ctx context.Context, inputs []int, limit int, f func(context.Context, int) error) error {
	g, _ := task.NewGroup(ctx)
	if limit != -1 {
		g.SetLimit(limit)
	}
	for _, in := range inputs {
		g.Go(func(ctx context.Context) error { return f(ctx, in) })
	}
	return g.Wait()
}

// newGroupGather is newGroupEach with each child writing its value to its
// index, as errgroup's loop does.
func newGroupGather(ctx context.Context, inputs []int, limit int, f func(context.Context, int) (int, error)) ([]int, error) {
	g, _ := task.NewGroup(ctx)
	if limit != -1 {
		g.SetLimit(limit)
	}
	r := make([]int, len(inputs))
	for i, in := range inputs {
		g.Go(func(ctx context.Context) error {
			v, err := f(ctx, in)
			r[i] = v
			return err
		})
	}
	return r, g.Wait()
}

// scopeSpawnAll is task.Scope with task.Spawn per input, and the body
// returns task.All over the tasks: the values come through the typed
// tasks, as in the README's loop.
func scopeSpawnAll(ctx context.Context, inputs []int, limit int, f func(context.Context, int) (int, error)) ([]int, error) {
	return task.Scope(ctx, func(ctx context.Context, g *task.Group) ([]int, error) {
		if limit != -1 {
			g.SetLimit(limit)
		}
		ts := make([]*task.Task[int], len(inputs))
		for i, in := range inputs {
			ts[i] = task.Spawn(g, func(ctx context.Context) (int, error) { return f(ctx, in) })
		}
		return task.All(ctx, ts)
	})
}

// forEach is task.ForEach, and mapSlice task.Map, with no options.
func forEach(ctx context.Context, inputs []int, limit int, f func(context.Context, int) error) error {
	return task.ForEach(ctx, inputs, limit, f)
}

func mapSlice(ctx context.Context, inputs []int, limit int, f func(context.Context, int) (int, error)) ([]int, error) {
	return task.Map(ctx, inputs, limit, f)
}

// BenchmarkLoop runs the loop over n inputs with every implementation, in
// both forms. Names are key=value: impl, out (err or slice), n, mode
// (immediate or yield), limit (none or 8). The inputs are made once, with
// the timer stopped.
func BenchmarkLoop(b *testing.B) {
	ctx := context.Background()
	for _, m := range []mode{immediate, yield} {
		for _, n := range loopNs {
			in := make([]int, n)
			for i := range in {
				in[i] = i
			}
			for _, limit := range loopLimits {
				for _, c := range loopCases {
					name := fmt.Sprintf("impl=%s/out=%s/n=%d/mode=%v/limit=%s", c.impl, c.out(), n, m, limitName(limit))
					b.Run(name, func(b *testing.B) { benchLoop(b, ctx, c, in, limit, m) })
				}
			}
		}
	}
}

// benchLoop runs c over inputs b.N times.
func benchLoop(b *testing.B, ctx context.Context, c loopCase, inputs []int, limit int, m mode) {
	b.ReportAllocs()
	if c.each != nil {
		f := eachFunc(m)
		for range b.N {
			if err := c.each(ctx, inputs, limit, f); err != nil {
				b.Fatal(err)
			}
		}
		return
	}
	f := gatherFunc(m)
	n := len(inputs)
	for range b.N {
		r, err := c.gather(ctx, inputs, limit, f)
		if err != nil || len(r) != n {
			b.Fatalf("%d results, err %v; want %d, nil", len(r), err, n)
		}
		sinks.int = r[n-1]
	}
}

// run runs c over inputs with f, through each for out=err (the values are
// then nil).
func (c loopCase) run(ctx context.Context, inputs []int, limit int, f func(context.Context, int) (int, error)) ([]int, error) {
	if c.each != nil {
		return nil, c.each(ctx, inputs, limit, func(ctx context.Context, in int) error {
			_, err := f(ctx, in)
			return err
		})
	}
	return c.gather(ctx, inputs, limit, f)
}

// TestLoopCases checks that every implementation, at every limit, calls
// the function once per input, returns the values in input order (out=
// slice), runs at most the limit at once, returns the error of a failing
// input, and, for those that say so, cancels the others' context on the
// first error.
func TestLoopCases(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const n = 100
	inputs := make([]int, n)
	for i := range inputs {
		inputs[i] = i
	}
	for _, c := range loopCases {
		for _, limit := range loopLimits {
			name := fmt.Sprintf("impl=%s/out=%s/limit=%s", c.impl, c.out(), limitName(limit))
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				testLoopCase(t, ctx, c, inputs, limit)
			})
		}
	}
}

func testLoopCase(t *testing.T, ctx context.Context, c loopCase, inputs []int, limit int) {
	for _, m := range []mode{immediate, yield} {
		calls := make([]atomic.Int32, len(inputs))
		var running, most atomic.Int32
		g := gatherFunc(m)
		got, err := c.run(ctx, inputs, limit, func(ctx context.Context, in int) (int, error) {
			calls[in].Add(1)
			now := running.Add(1)
			for {
				old := most.Load()
				if now <= old || most.CompareAndSwap(old, now) {
					break
				}
			}
			runtime.Gosched() // let the others start, if they may
			running.Add(-1)
			return g(ctx, in)
		})
		if err != nil {
			t.Errorf("mode=%v: err = %v; want nil", m, err)
		}
		for in := range calls {
			if k := calls[in].Load(); k != 1 {
				t.Errorf("mode=%v: %d calls with input %d; want 1", m, k, in)
			}
		}
		if c.gather != nil {
			if len(got) != len(inputs) {
				t.Fatalf("mode=%v: %d values; want %d", m, len(got), len(inputs))
			}
			for i, v := range got {
				if v != 2*i {
					t.Fatalf("mode=%v: value %d is %d; want %d", m, i, v, 2*i)
				}
			}
		}
		if limit != -1 && int(most.Load()) > limit+c.extra {
			t.Errorf("mode=%v: %d calls at once; want at most %d", m, most.Load(), limit+c.extra)
		}
	}

	// The input 3 fails.
	_, err := c.run(ctx, inputs[:10], limit, func(_ context.Context, in int) (int, error) {
		if in == 3 {
			return 0, errUnexpected
		}
		return 2 * in, nil
	})
	if !errors.Is(err, errUnexpected) {
		t.Errorf("with a failing input: err = %v; want errUnexpected", err)
	}
	if !c.cancels {
		return
	}
	// One call fails; the others wait for their context to end.
	var failed atomic.Bool
	var hung atomic.Int32
	_, err = c.run(ctx, inputs[:10], limit, func(ctx context.Context, in int) (int, error) {
		if failed.CompareAndSwap(false, true) {
			return 0, errUnexpected
		}
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(hangGuard):
			hung.Add(1)
			return 2 * in, nil
		}
	})
	if !errors.Is(err, errUnexpected) || hung.Load() != 0 {
		t.Errorf("with a failing call: err = %v, %d calls not canceled; want errUnexpected, 0", err, hung.Load())
	}
}
