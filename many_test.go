package task

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
)

// sources returns n pending tasks and their sources.
func sources(n int) ([]*Source[int], []*Task[int]) {
	srcs := make([]*Source[int], n)
	tasks := make([]*Task[int], n)
	for i := range srcs {
		srcs[i] = NewSource[int]()
		tasks[i] = srcs[i].Task()
	}
	return srcs, tasks
}

// rearm makes the tasks of completed sources pending again, so that a
// benchmark or an allocation count can wait for the same pending tasks
// many times without making new ones. Nothing may wait for them meanwhile.
func rearm(srcs []*Source[int]) {
	for _, s := range srcs {
		c := &s.t.core
		c.state.Store(pending)
		c.ch, c.err, c.orph = nil, nil, nil
		c.wg.Add(1)
	}
}

func TestAllOrderAndWaitsForEvery(t *testing.T) {
	for _, order := range orders(6) {
		synctest.Test(t, func(t *testing.T) {
			srcs, tasks := sources(6)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var got []int
			var err error
			done := make(chan struct{})
			go func() { got, err = All(ctx, tasks); close(done) }()
			for k, i := range order {
				synctest.Wait()
				select {
				case <-done:
					t.Fatalf("order %v: All returned after %d completions", order, k)
				default:
				}
				srcs[i].Complete(i*10, nil)
			}
			<-done
			if err != nil || !slices.Equal(got, []int{0, 10, 20, 30, 40, 50}) {
				t.Fatalf("order %v: All = %v, %v", order, got, err)
			}
		})
	}
}

func TestAllErrorsAndSettled(t *testing.T) {
	ctx := context.Background()
	tasks := []*Task[int]{FromResult(1), FromError[int](posErr{1}), FromResult(3), FromError[int](posErr{3})}
	got, err := All(ctx, tasks)
	if got != nil || !errors.Is(err, posErr{1}) || !errors.Is(err, posErr{3}) || !slices.Equal(positions(err), []int{1, 3}) {
		t.Errorf("All = %v, %v (positions %v)", got, err, positions(err))
	}
	got, err = All(ctx, tasks, Settled)
	if !slices.Equal(got, []int{1, 0, 3, 0}) || err == nil {
		t.Errorf("All Settled = %v, %v", got, err)
	}
	got, err = AllSeq(ctx, slices.Values(tasks))
	if got != nil || !slices.Equal(positions(err), []int{1, 3}) {
		t.Errorf("AllSeq = %v, %v", got, err)
	}
	got, err = AllSeq(ctx, slices.Values(tasks[:1]))
	if !slices.Equal(got, []int{1}) || err != nil {
		t.Errorf("AllSeq = %v, %v", got, err)
	}
}

func TestAllEmpty(t *testing.T) {
	ctx := context.Background()
	if got, err := All[int](ctx, nil); got == nil || len(got) != 0 || err != nil {
		t.Errorf("All(nil) = %#v, %v; want empty, nil", got, err)
	}
	if got, err := AllSeq(ctx, slices.Values([]*Task[int]{})); got == nil || len(got) != 0 || err != nil {
		t.Errorf("AllSeq(empty) = %#v, %v; want empty, nil", got, err)
	}
	if got, err := Map(ctx, []int{}, 1, func(context.Context, int) (int, error) { return 0, nil }); got == nil || err != nil {
		t.Errorf("Map(empty) = %#v, %v", got, err)
	}
	if err := WhenAll(ctx, []Awaiter{}...); err != nil {
		t.Errorf("WhenAll(empty) = %v", err)
	}
}

func TestAllCtxDone(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srcs, tasks := sources(3)
		srcs[0].Complete(5, nil)
		ctx, cancel := context.WithCancelCause(context.Background())
		cause := errors.New("stop")
		go cancel(cause)
		got, err := All(ctx, tasks, Settled)
		if !errors.Is(err, context.Canceled) || !errors.Is(err, cause) || !slices.Equal(got, []int{5, 0, 0}) {
			t.Errorf("All = %v, %v", got, err)
		}
		for _, tk := range tasks {
			if tk.linked() {
				t.Error("a link is left registered after All returned")
			}
		}
		srcs[1].Complete(6, nil)
		srcs[2].Complete(7, nil)
		if got, err := All(context.Background(), tasks); err != nil || !slices.Equal(got, []int{5, 6, 7}) {
			t.Errorf("All after completion = %v, %v", got, err)
		}
	})
}

func TestManyBadInput(t *testing.T) {
	ctx := context.Background()
	var nilCtx context.Context
	ok := FromResult(1)
	tasks := []*Task[int]{ok, ok, ok, nil}
	fn := func(context.Context, int) (int, error) { return 0, nil }
	for _, tc := range []struct {
		f    func()
		want string
	}{
		{func() { All(ctx, tasks) }, "task: All: tasks[3] is nil"},
		{func() { All(nilCtx, tasks[:1]) }, "task: All: ctx is nil"},
		{func() { AllSeq(ctx, slices.Values(tasks)) }, "task: AllSeq: task 3 of the sequence is nil"},
		{func() { AllSeq[int](ctx, nil) }, "task: AllSeq: tasks is nil"},
		{func() { WhenAny(ctx, tasks) }, "task: WhenAny: tasks[3] is nil"},
		{func() { WhenAny(ctx, []Awaiter{ok, nil}) }, "task: WhenAny: tasks[1] is nil"},
		{func() { WhenEach(ctx, tasks) }, "task: WhenEach: tasks[3] is nil"},
		{func() { WhenEach(nilCtx, tasks[:1]) }, "task: WhenEach: ctx is nil"},
		{func() { FirstOK(ctx, tasks) }, "task: FirstOK: tasks[3] is nil"},
		{func() { RunFirstOK(ctx, immediate[int], nil) }, "task: RunFirstOK: fns[1] is nil"},
		{func() { RunFirstOK(nilCtx, immediate[int]) }, "task: RunFirstOK: ctx is nil"},
		{func() { Map[int, int](ctx, []int{1}, 1, nil) }, "task: Map: fn is nil"},
		{func() { Map(nilCtx, []int{1}, 1, fn) }, "task: Map: ctx is nil"},
		{func() { Map(ctx, []int{1}, 0, fn) }, "task: Map: limit is 0; want at least 1"},
		{func() { Map(ctx, []int{1}, -1, fn) }, "task: Map: limit is -1; want at least 1"},
	} {
		if got := catch(tc.f); got != tc.want {
			t.Errorf("panic %q; want %q", got, tc.want)
		}
	}
	if _, err := WhenAny(ctx, []*Task[int]{}); err != ErrNoTasks {
		t.Errorf("WhenAny(empty) err = %v; want ErrNoTasks", err)
	}
	if _, _, err := FirstOK(ctx, []*Task[int]{}); err != ErrNoTasks {
		t.Errorf("FirstOK(empty) err = %v; want ErrNoTasks", err)
	}
	if _, _, err := RunFirstOK[int](ctx); err != ErrNoTasks {
		t.Errorf("RunFirstOK() err = %v; want ErrNoTasks", err)
	}
}

func TestWhenAny(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srcs, tasks := sources(5)
		ctx := context.Background()
		var i int
		var err error
		done := make(chan struct{})
		go func() { i, err = WhenAny(ctx, tasks); close(done) }()
		synctest.Wait()
		srcs[3].Complete(0, posErr{3}) // a failure counts, as in .NET
		<-done
		if i != 3 || err != nil {
			t.Fatalf("WhenAny = %d, %v; want 3, nil", i, err)
		}
		for _, tk := range tasks {
			if tk.linked() {
				t.Fatal("WhenAny left a link registered")
			}
		}
		srcs[1].Complete(1, nil)
		if i, err := WhenAny(ctx, []Awaiter{tasks[0], FromResult("x"), tasks[1]}); i != 1 || err != nil {
			t.Errorf("WhenAny of mixed tasks = %d, %v; want 1 (first completed in order)", i, err)
		}
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		if i, err := WhenAny(cctx, []*Task[int]{tasks[0], tasks[2]}); i != -1 || !errors.Is(err, context.Canceled) {
			t.Errorf("WhenAny with done ctx = %d, %v", i, err)
		}
	})
}

func TestFirstOK(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srcs, tasks := sources(4)
		var v, i int
		var err error
		done := make(chan struct{})
		go func() { v, i, err = FirstOK(context.Background(), tasks); close(done) }()
		synctest.Wait()
		srcs[0].Complete(0, posErr{0})
		srcs[2].Complete(0, posErr{2})
		synctest.Wait()
		srcs[1].Complete(11, nil)
		<-done
		if v != 11 || i != 1 || err != nil {
			t.Fatalf("FirstOK = %v, %d, %v; want 11, 1, nil", v, i, err)
		}
		if tasks[3].state.Load() != pending || tasks[3].linked() {
			t.Error("FirstOK touched a loser it did not start")
		}
		srcs[3].Complete(0, posErr{3})
		srcs2, tasks2 := sources(3)
		for k, s := range srcs2 {
			s.Complete(0, posErr{k})
		}
		_, i, err = FirstOK(context.Background(), tasks2)
		if i != -1 || !slices.Equal(positions(err), []int{0, 1, 2}) {
			t.Errorf("FirstOK all failing = %d, %v", i, err)
		}
	})
}

func TestRunFirstOK(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var losersDone atomic.Int32
		slow := func(ctx context.Context) (string, error) {
			<-ctx.Done()
			losersDone.Add(1)
			if context.Cause(ctx) != ErrLost {
				t.Errorf("loser's cause = %v; want ErrLost", context.Cause(ctx))
			}
			return "", ctx.Err()
		}
		fast := func(ctx context.Context) (string, error) { return "fast", nil }
		failing := func(ctx context.Context) (string, error) { return "", errors.New("replica down") }
		v, i, err := RunFirstOK(context.Background(), slow, failing, fast, slow)
		if v != "fast" || i != 2 || err != nil {
			t.Fatalf("RunFirstOK = %q, %d, %v", v, i, err)
		}
		if losersDone.Load() != 2 {
			t.Errorf("RunFirstOK returned before its losers: %d of 2 done", losersDone.Load())
		}
		_, i, err = RunFirstOK(context.Background(), failing, failing)
		if i != -1 || !slices.Equal(positions(err), []int{0, 1}) {
			t.Errorf("all failing: %d, %v", i, err)
		}
		r := recoverFrom(func() {
			RunFirstOK(context.Background(), fast, func(ctx context.Context) (string, error) {
				<-ctx.Done()
				panic("loser panicked")
			})
		})
		var pe *PanicError
		if err, ok := r.(error); !ok || !errors.As(err, &pe) || pe.Value != "loser panicked" {
			t.Errorf("a loser's panic after a win: recovered %v", r)
		}
	})
}

func TestWhenEachCompletionOrder(t *testing.T) {
	for _, order := range orders(5) {
		synctest.Test(t, func(t *testing.T) {
			srcs, tasks := sources(5)
			srcs[order[0]].Complete(order[0], nil) // completed before the loop
			var got []int
			done := make(chan struct{})
			go func() {
				for i, tk := range WhenEach(context.Background(), tasks) {
					if v, _, ok := tk.TryWait(); !ok || v != i {
						t.Errorf("yielded task %d not complete or wrong: %v %v", i, v, ok)
					}
					got = append(got, i)
				}
				close(done)
			}()
			for _, i := range order[1:] {
				synctest.Wait()
				srcs[i].Complete(i, nil)
			}
			<-done
			if !slices.Equal(got, order) {
				t.Errorf("WhenEach order %v; want %v", got, order)
			}
		})
	}
}

func TestWhenEachBreakAndCtx(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srcs, tasks := sources(4)
		srcs[2].Complete(2, nil)
		for i := range WhenEach(context.Background(), tasks) {
			if i != 2 {
				t.Fatalf("first yield %d; want 2", i)
			}
			break
		}
		for _, tk := range tasks {
			if tk.linked() {
				t.Fatal("a link is left registered after break")
			}
		}
		ctx, cancel := context.WithCancel(context.Background())
		n := 0
		go func() { synctest.Wait(); cancel() }()
		for range WhenEach(ctx, tasks) {
			n++
		}
		if n != 1 || ctx.Err() == nil {
			t.Errorf("with ctx canceled: %d yields; want 1", n)
		}
		for _, tk := range tasks {
			if tk.linked() {
				t.Fatal("a link is left registered after ctx ended the loop")
			}
		}
		for _, s := range srcs {
			s.Complete(0, nil)
		}
	})
}

func TestMapOrderAndLimit(t *testing.T) {
	for _, limit := range []int{1, 3, 8, 100} {
		var running, peak atomic.Int32
		in := make([]int, 50)
		for i := range in {
			in[i] = i
		}
		got, err := Map(context.Background(), in, limit, func(ctx context.Context, x int) (string, error) {
			n := running.Add(1)
			for {
				p := peak.Load()
				if n <= p || peak.CompareAndSwap(p, n) {
					break
				}
			}
			runtime.Gosched()
			running.Add(-1)
			return fmt.Sprint(x * 2), nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range got {
			if s != fmt.Sprint(i*2) {
				t.Fatalf("limit %d: out[%d] = %q", limit, i, s)
			}
		}
		if p := peak.Load(); p > int32(limit) {
			t.Errorf("limit %d exceeded: %d calls at once", limit, p)
		}
	}
}

// TestMapLimitReached uses gates so that the limit is reached exactly.
func TestMapLimitReached(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const limit = 4
		gate := make(chan struct{})
		var running atomic.Int32
		done := make(chan struct{})
		go func() {
			Map(context.Background(), make([]int, 20), limit, func(ctx context.Context, _ int) (int, error) {
				running.Add(1)
				<-gate
				running.Add(-1)
				return 0, nil
			})
			close(done)
		}()
		synctest.Wait()
		if n := running.Load(); n != limit {
			t.Errorf("%d calls running with limit %d; want exactly %d", n, limit, limit)
		}
		close(gate)
		<-done
	})
}

func TestMapFailFastAndKeepGoing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var started atomic.Int32
		fn := func(ctx context.Context, x int) (int, error) {
			started.Add(1)
			if x == 3 {
				return 0, posErr{x}
			}
			if x < 3 {
				<-ctx.Done() // siblings running at the failure see the cancellation
				return 0, context.Cause(ctx)
			}
			return x, nil
		}
		in := []int{0, 1, 2, 3, 4, 5, 6, 7}
		got, err := Map(context.Background(), in, 4, fn)
		if got != nil || !slices.Equal(positions(err), []int{3}) {
			t.Errorf("Map fail-fast = %v, %v (positions %v)", got, err, positions(err))
		}
		if n := started.Load(); n != 4 {
			t.Errorf("%d calls started; want 4 (none after the failure)", n)
		}

		started.Store(0)
		keep := func(ctx context.Context, x int) (int, error) {
			started.Add(1)
			if x%2 == 1 {
				return x, posErr{x}
			}
			return x, nil
		}
		got, err = Map(context.Background(), in, 3, keep, KeepGoing, Settled)
		if !slices.Equal(positions(err), []int{1, 3, 5, 7}) || !slices.Equal(got, in) || started.Load() != 8 {
			t.Errorf("Map KeepGoing = %v, %v, %d started", got, err, started.Load())
		}
	})
}

func TestMapPanicAndGoexit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := recoverFrom(func() {
			Map(context.Background(), []int{0, 1, 2}, 2, func(ctx context.Context, x int) (int, error) {
				if x == 1 {
					panic("map boom")
				}
				return x, nil
			})
		})
		var pe *PanicError
		if err, ok := r.(error); !ok || !errors.As(err, &pe) || pe.Value != "map boom" {
			t.Errorf("recovered %v", r)
		}
		var wg sync.WaitGroup
		exited := false
		wg.Go(func() {
			returned := false
			defer func() { exited = !returned && recover() == nil }()
			Map(context.Background(), []int{0, 1, 2}, 2, func(ctx context.Context, x int) (int, error) {
				if x == 0 {
					runtime.Goexit()
				}
				return x, nil
			}, KeepGoing)
			returned = true
		})
		wg.Wait()
		if !exited {
			t.Error("a Goexit in Map's function was not passed on")
		}
	})
}
