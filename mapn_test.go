//go:build go1.25

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

// TestMapKeepGoingPanics: with KeepGoing, every input of Map and ForEach is
// processed, and each value and failure is where it belongs, when every
// other call panics, whatever the limit; then the first panic is raised.
// A call that panics ends its worker, which another takes the place of.
func TestMapKeepGoingPanics(t *testing.T) {
	for _, each := range []bool{false, true} {
		for _, limit := range []int{1, 2, 3, -1} {
			name := fmt.Sprintf("each=%v/limit=%d", each, limit)
			var calls atomic.Int32
			var got []int
			e := endingOf(func() {
				ins := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
				fn := func(_ context.Context, i int) (int, error) {
					calls.Add(1)
					if i%2 == 1 {
						panic(fmt.Sprint("boom ", i))
					}
					return 10 * i, nil
				}
				if each {
					ForEach(context.Background(), ins, limit, func(ctx context.Context, i int) error { _, err := fn(ctx, i); return err }, KeepGoing)
					return
				}
				got, _ = Map(context.Background(), ins, limit, fn, KeepGoing, Settled)
			})
			if n := calls.Load(); n != 10 {
				t.Errorf("%s: %d of 10 inputs processed", name, n)
			}
			pe, ok := e.panicVal.(*PanicError)
			if !ok || pe.Value != "boom 1" {
				t.Errorf("%s: ended %+v; want the panic of input 1 raised", name, e)
			}
			if got != nil {
				t.Errorf("%s: Map returned %v; want nothing, a panic raised", name, got)
			}
		}
	}
}

// TestMapKeepGoingGoexit: with KeepGoing, every input is processed even
// when calls call runtime.Goexit, whatever the limit; then the Goexit is
// repeated (issue 8, bug 2).
func TestMapKeepGoingGoexit(t *testing.T) {
	for _, limit := range []int{1, 2, 6} {
		for _, exitAt := range [][]int{{0}, {0, 1}, {5}, {0, 1, 2, 3, 4, 5}} {
			name := fmt.Sprintf("limit=%d/exit=%v", limit, exitAt)
			var calls atomic.Int32
			e := endingOf(func() {
				Map(context.Background(), []int{0, 1, 2, 3, 4, 5}, limit, func(ctx context.Context, i int) (int, error) {
					calls.Add(1)
					for _, x := range exitAt {
						if i == x {
							runtime.Goexit()
						}
					}
					return i, nil
				}, KeepGoing)
			})
			if !e.exited {
				t.Errorf("%s: Map ended %+v; want runtime.Goexit repeated", name, e)
			}
			if n := calls.Load(); n != 6 {
				t.Errorf("%s: %d of 6 inputs processed", name, n)
			}
		}
	}
}

// TestMapStoppedByCtx: when ctx ends Map before every input has started,
// the error says so even if no call was stopped: the zero results of the
// inputs never started are never read as success.
func TestMapStoppedByCtx(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var calls int
	out, err := Map(ctx, []int{0, 1, 2, 3, 4, 5}, 1, func(_ context.Context, i int) (int, error) {
		calls++ // limit 1: one call at a time
		if i == 2 {
			cancel() // input 2 itself finishes anyway
		}
		return i, nil
	})
	const want = "task: Map: context canceled\ntask: Map: 3 not started: the call stopped taking new work"
	if calls != 3 || out != nil || !errors.Is(err, context.Canceled) || err.Error() != want {
		t.Errorf("Map = %v, %q after %d calls; want nil, %q, after 3", out, err, calls, want)
	}
}
