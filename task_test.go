package task

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

func TestFromResultAndFromError(t *testing.T) {
	ctx := context.Background()
	if v, err := FromResult("x").Wait(ctx); v != "x" || err != nil {
		t.Errorf("FromResult(x).Wait = %q, %v", v, err)
	}
	boom := errors.New("boom")
	if v, err := FromError[int](boom).Wait(ctx); v != 0 || err != boom {
		t.Errorf("FromError(boom).Wait = %v, %v", v, err)
	}
	if got := catch(func() { FromError[int](nil) }); got != "task: FromError: err is nil" {
		t.Errorf("FromError(nil) panic = %q", got)
	}
	select {
	case <-FromResult(1).Done():
	default:
		t.Error("Done of a completed task is not closed")
	}
}

func TestBadArguments(t *testing.T) {
	ctx := context.Background()
	var nilTask *Task[int]
	var nilCtx context.Context
	for _, tc := range []struct {
		f    func()
		want string
	}{
		{func() { Go(nilCtx, immediate[int]) }, "task: Go: ctx is nil"},
		{func() { Go[int](ctx, nil) }, "task: Go: fn is nil"},
		{func() { nilTask.Wait(ctx) }, "task: Wait: t is nil"},
		{func() { FromResult(1).Wait(nilCtx) }, "task: Wait: ctx is nil"},
		{func() { nilTask.TryWait() }, "task: TryWait: t is nil"},
		{func() { WhenAll(nilCtx) }, "task: WhenAll: ctx is nil"},
		{func() { WhenAll(ctx, FromResult(1), nilTask) }, "task: WhenAll: tasks[1] is nil"},
		{func() { WhenAll(ctx, FromResult(1), nil) }, "task: WhenAll: tasks[1] is nil"},
		{func() { new(Task[int]).Wait(ctx) }, errZeroTask},
		{func() { Await1(ctx, new(Task[int])) }, errZeroTask},
		{func() { All(ctx, []*Task[int]{new(Task[int])}) }, errZeroTask},
	} {
		if got := catch(tc.f); got != tc.want {
			t.Errorf("panic %q; want %q", got, tc.want)
		}
	}
}

func TestTryWaitAndDone(t *testing.T) {
	src := NewSource[string]()
	tk := src.Task()
	if _, _, ok := tk.TryWait(); ok {
		t.Fatal("TryWait on a pending task reported done")
	}
	d := tk.Done()
	if d != tk.Done() {
		t.Error("Done returned different channels while pending")
	}
	select {
	case <-d:
		t.Fatal("Done closed while pending")
	default:
	}
	src.Complete("v", nil)
	<-d
	if v, err, ok := tk.TryWait(); !ok || v != "v" || err != nil {
		t.Errorf("TryWait = %q, %v, %v", v, err, ok)
	}
}

// TestManyWaiters: 100 goroutines wait on one task, some with a
// cancellable ctx, some blocked in Done; all see the same result.
func TestManyWaiters(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := NewSource[int]()
		boom := errors.New("boom")
		var wrong atomic.Int32
		var wg sync.WaitGroup
		for i := range 100 {
			wg.Go(func() {
				ctx := context.Background()
				switch i % 3 {
				case 1:
					var cancel context.CancelFunc
					ctx, cancel = context.WithCancel(ctx)
					defer cancel()
				case 2:
					<-src.Task().Done()
				}
				if v, err := src.Task().Wait(ctx); v != 42 || err != boom {
					wrong.Add(1)
				}
			})
		}
		synctest.Wait()
		src.Complete(42, boom)
		wg.Wait()
		if n := wrong.Load(); n != 0 {
			t.Errorf("%d of 100 waiters saw a different result", n)
		}
	})
}

// TestSourceRace: 50 goroutines race to complete one task, 20 times: one
// winner each time, and every waiter sees the winner's value.
func TestSourceRace(t *testing.T) {
	for round := range 20 {
		src := NewSource[int]()
		var winners atomic.Int32
		var winner atomic.Int32
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range 50 {
			wg.Go(func() {
				<-start
				if src.Complete(i, nil) {
					winners.Add(1)
					winner.Store(int32(i))
				}
			})
		}
		waiters := make([]int, 10)
		var wwg sync.WaitGroup
		for w := range waiters {
			wwg.Go(func() { waiters[w], _ = src.Task().Wait(context.Background()) })
		}
		close(start)
		wg.Wait()
		wwg.Wait()
		if n := winners.Load(); n != 1 {
			t.Fatalf("round %d: %d winners; want 1", round, n)
		}
		for w, v := range waiters {
			if v != int(winner.Load()) {
				t.Fatalf("round %d: waiter %d saw %d; winner was %d", round, w, v, winner.Load())
			}
		}
		if src.Complete(-1, errors.New("late")) {
			t.Fatalf("round %d: a late Complete succeeded", round)
		}
		if v, err := src.Task().Wait(context.Background()); v != int(winner.Load()) || err != nil {
			t.Fatalf("round %d: after a late Complete, Wait = %v, %v", round, v, err)
		}
	}
}

func TestGoPanicReachesEveryWaiter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tk := Go(context.Background(), func(context.Context) (int, error) { panic("kaput") })
		for range 3 {
			r := recoverFrom(func() { tk.Wait(context.Background()) })
			pe, ok := r.(*PanicError)
			if !ok || pe.Value != "kaput" || !strings.Contains(string(pe.Stack), "task_test.go") {
				t.Fatalf("Wait panicked with %T %v; want *PanicError kaput with its stack", r, r)
			}
			if !strings.Contains(pe.Error(), "kaput") || !strings.Contains(pe.Error(), "task_test.go") {
				t.Errorf("Error() = %q; want the value and the stack", pe.Error())
			}
		}
		if r := recoverFrom(func() { tk.TryWait() }); r == nil {
			t.Error("TryWait of a panicked task did not panic")
		}
	})
}

func TestGoGoexitReachesWaiter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tk := Go(context.Background(), func(context.Context) (int, error) { runtime.Goexit(); return 1, nil })
		returned, exited := false, false
		done := make(chan struct{})
		go func() {
			defer close(done)
			defer func() { exited = !returned && recover() == nil }()
			tk.Wait(context.Background())
			returned = true
		}()
		<-done
		if !exited {
			t.Fatal("Wait on a task whose function called Goexit did not Goexit")
		}
		if _, err := WhenAll(context.Background()), error(nil); err != nil {
			t.Fatal(err)
		}
	})
}

// TestRunContext checks the lazily made child context of RunN.
func TestRunContext(t *testing.T) {
	type key struct{}
	parent := context.WithValue(context.Background(), key{}, "v")
	boom := errors.New("boom")
	var before, after error
	var leaked context.Context
	looked := make(chan struct{})
	_, _, err := Run2(parent,
		func(ctx context.Context) (int, error) {
			if ctx.Value(key{}) != "v" {
				t.Error("Value does not reach the parent")
			}
			if _, ok := ctx.Deadline(); ok {
				t.Error("Deadline set without one in the parent")
			}
			before = ctx.Err()
			close(looked)
			<-ctx.Done()
			after = ctx.Err()
			leaked = ctx
			return 0, ctx.Err()
		},
		func(ctx context.Context) (string, error) { <-looked; return "", boom })
	if before != nil || after != context.Canceled {
		t.Errorf("Err before/after failure = %v/%v; want nil/Canceled", before, after)
	}
	if err == nil || !errors.Is(err, boom) || errors.Is(err, context.Canceled) {
		t.Errorf("err = %v; want only boom", err)
	}
	if !errors.Is(context.Cause(leaked), boom) {
		t.Errorf("Cause = %v; want boom", context.Cause(leaked))
	}

	// A function that never looks at ctx before RunN returns finds it
	// canceled afterwards.
	_, _, _ = Run2(context.Background(),
		func(ctx context.Context) (int, error) { leaked = ctx; return 0, nil },
		immediate[int])
	if leaked.Err() != context.Canceled {
		t.Errorf("ctx.Err() after Run2 returned = %v; want Canceled", leaked.Err())
	}
	select {
	case <-leaked.Done():
	default:
		t.Error("ctx.Done() not closed after Run2 returned")
	}
	if s, ok := leaked.(interface{ String() string }); !ok || s.String() == "" {
		t.Error("the context has no String method")
	}

	// Err of a failed group without the child made yet stays the same once
	// the child is made.
	_, _, _ = Run2(context.Background(),
		func(ctx context.Context) (int, error) { return 0, boom },
		func(ctx context.Context) (int, error) {
			// f1 may not have failed yet: wait for it.
			for ctx.Err() == nil {
				runtime.Gosched()
			}
			e1 := ctx.Err()
			<-ctx.Done()
			if e2 := ctx.Err(); e1 != e2 || !errors.Is(context.Cause(ctx), boom) {
				t.Errorf("Err changed from %v to %v, cause %v", e1, e2, context.Cause(ctx))
			}
			return 0, nil
		})
}

func TestRunDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		start := time.Now()
		_, _, err := Run2(ctx,
			func(ctx context.Context) (int, error) {
				if d, ok := ctx.Deadline(); !ok || d != start.Add(time.Second) {
					t.Errorf("Deadline = %v, %v", d, ok)
				}
				<-ctx.Done()
				return 0, ctx.Err()
			},
			func(ctx context.Context) (int, error) {
				<-ctx.Done()
				return 0, context.Cause(ctx)
			})
		if !errors.Is(err, context.DeadlineExceeded) || positions(err) != nil && len(positions(err)) != 1 {
			t.Errorf("err = %v; want only DeadlineExceeded", err)
		}
		if d := time.Since(start); d != time.Second {
			t.Errorf("Run2 returned after %v; want 1s", d)
		}
	})
}

func TestWhenAll(t *testing.T) {
	ctx := context.Background()
	if err := WhenAll(ctx); err != nil {
		t.Errorf("WhenAll() = %v", err)
	}
	boom := errors.New("boom")
	tasks := []Awaiter{FromResult(1), FromError[string](boom), FromResult(2.5), FromError[int](posErr{3})}
	err := WhenAll(ctx, tasks...)
	if !errors.Is(err, boom) || !errors.Is(err, posErr{3}) {
		t.Errorf("WhenAll = %v; want both errors", err)
	}
	if ps := positions(err); len(ps) != 2 || ps[0] != 1 || ps[1] != 3 {
		t.Errorf("positions %v; want [1 3]", ps)
	}
	if !raceEnabled {
		ok := []Awaiter{FromResult(1), FromResult("a")}
		if n := testing.AllocsPerRun(100, func() { WhenAll(ctx, ok...) }); n != 0 {
			t.Errorf("WhenAll of completed tasks: %v allocations", n)
		}
	}
}

// TestOrphanPanicCrashes runs a program whose Go task panics and is never
// waited for: the panic must crash it once the task is collected.
func TestOrphanPanicCrashes(t *testing.T) {
	if os.Getenv("TASK_TEST_ORPHAN") == "1" {
		tk := Go(context.Background(), func(context.Context) (int, error) { panic("orphaned") })
		<-tk.Done()
		tk = nil
		for range 1000 {
			runtime.GC()
			time.Sleep(time.Millisecond)
		}
		os.Exit(0) // not crashed: the test fails
	}
	if testing.Short() {
		t.Skip("runs a subprocess")
	}
	out, err := subprocess(t, "TestOrphanPanicCrashes", "TASK_TEST_ORPHAN=1")
	if err == nil || !strings.Contains(out, "never waited for") || !strings.Contains(out, "orphaned") {
		t.Fatalf("subprocess err = %v, output:\n%s", err, out)
	}
}

// TestObservedPanicDoesNotCrash: a panic handed to a waiter is not raised
// again when the task is collected.
func TestObservedPanicDoesNotCrash(t *testing.T) {
	if os.Getenv("TASK_TEST_OBSERVED") == "1" {
		tk := Go(context.Background(), func(context.Context) (int, error) { panic("seen") })
		recoverFrom(func() { tk.Wait(context.Background()) })
		tk = nil
		for range 200 {
			runtime.GC()
			time.Sleep(time.Millisecond)
		}
		os.Exit(0)
	}
	if testing.Short() {
		t.Skip("runs a subprocess")
	}
	if out, err := subprocess(t, "TestObservedPanicDoesNotCrash", "TASK_TEST_OBSERVED=1"); err != nil {
		t.Fatalf("subprocess err = %v, output:\n%s", err, out)
	}
}

// TestPanicNilGodebug: with GODEBUG=panicnil=1, panic(nil) recovers as nil;
// it must still come back as a panic, never as success.
func TestPanicNilGodebug(t *testing.T) {
	if os.Getenv("TASK_TEST_PANICNIL") == "1" {
		r := recoverFrom(func() {
			Run2(context.Background(), immediate[int], func(context.Context) (int, error) { panic(nil) })
		})
		var pe *PanicError
		if err, ok := r.(error); !ok || !errors.As(err, &pe) || pe.Value != nil {
			os.Exit(3)
		}
		tk := Go(context.Background(), func(context.Context) (int, error) { panic(nil) })
		r = recoverFrom(func() { tk.Wait(context.Background()) })
		if pe, ok := r.(*PanicError); !ok || pe.Value != nil {
			os.Exit(4)
		}
		os.Exit(0)
	}
	if testing.Short() {
		t.Skip("runs a subprocess")
	}
	if out, err := subprocess(t, "TestPanicNilGodebug", "TASK_TEST_PANICNIL=1", "GODEBUG=panicnil=1"); err != nil {
		t.Fatalf("subprocess err = %v, output:\n%s", err, out)
	}
}

func subprocess(t *testing.T, test string, env ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.v")
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}
