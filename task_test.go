//go:build go1.25

package task

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
)

func TestPromiseCompleted(t *testing.T) {
	ctx := context.Background()
	if v, err := fromResult("x").Wait(ctx); v != "x" || err != nil {
		t.Errorf("fromResult(x).Wait = %q, %v", v, err)
	}
	boom := errors.New("boom")
	if v, err := fromError[int](boom).Wait(ctx); v != 0 || err != boom {
		t.Errorf("fromError(boom).Wait = %v, %v", v, err)
	}
	select {
	case <-fromResult(1).Done():
	default:
		t.Error("Done of a completed task is not closed")
	}
}

func TestTryWaitAndDone(t *testing.T) {
	src := newSource[string]()
	tk := src.Task()
	if _, _, ok := tryWait(tk); ok {
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
	if v, err, ok := tryWait(tk); !ok || v != "v" || err != nil {
		t.Errorf("TryWait = %q, %v, %v", v, err, ok)
	}
}

// TestDoneNil: Done on a nil task says so.
func TestDoneNil(t *testing.T) {
	var tk *Task[int]
	if msg := catch(func() { tk.Done() }); msg != "task: Done: t is nil" {
		t.Errorf("Done on nil panicked with %q", msg)
	}
}

func TestWaitCtxDoneThenResult(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := newSource[int]()
		ctx, cancel := context.WithCancelCause(context.Background())
		cause := errors.New("deadline of the request")
		go cancel(cause)
		v, err := src.Task().Wait(ctx)
		if v != 0 || !errors.Is(err, context.Canceled) || !errors.Is(err, cause) {
			t.Fatalf("Wait = %v, %v; want 0, Canceled with cause", v, err)
		}
		src.Complete(7, nil)
		if v, err := src.Task().Wait(context.Background()); v != 7 || err != nil {
			t.Fatalf("later Wait = %v, %v; want 7, nil", v, err)
		}
		// A completed task wins over a done ctx.
		if v, err := src.Task().Wait(ctx); v != 7 || err != nil {
			t.Fatalf("Wait with done ctx on completed task = %v, %v; want 7, nil", v, err)
		}
	})
}

// TestManyWaiters: 100 goroutines wait on one task, some with a
// cancellable ctx, some blocked in Done; all see the same result.
func TestManyWaiters(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := newSource[int]()
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
		if r := recoverFrom(func() { tryWait(tk) }); r == nil {
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
	})
}

// TestWaitCompletedAllocs: Wait on a task that has succeeded allocates
// nothing (docs/performance.md; a cost, not a promise of the docs).
func TestWaitCompletedAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under -race")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tk := fromResult(1)
	if got := testing.AllocsPerRun(100, func() { tk.Wait(ctx) }); got != 0 {
		t.Errorf("Wait on a completed task: %v allocations; want 0", got)
	}
}
