//go:build go1.25

package task

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

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
		v, i, err := Hedge(context.Background(), 0, nil, slow, failing, fast, slow)
		if v != "fast" || i != 2 || err != nil {
			t.Fatalf("Hedge = %q, %d, %v", v, i, err)
		}
		if losersDone.Load() != 2 {
			t.Errorf("Hedge returned before its losers: %d of 2 done", losersDone.Load())
		}
		_, i, err = Hedge(context.Background(), 0, nil, failing, failing)
		if i != -1 || !slices.Equal(positions(err), []int{0, 1}) {
			t.Errorf("all failing: %d, %v", i, err)
		}
		r := recoverFrom(func() {
			Hedge(context.Background(), 0, nil, fast, func(ctx context.Context) (string, error) {
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

// TestRunFirstOKWinnerContext: the winner's context is alive after
// Hedge returns and canceled with the caller's ctx; the losers' are
// canceled with ErrLost.
func TestRunFirstOKWinnerContext(t *testing.T) {
	parent, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	ctxs := make([]context.Context, 3)
	fn := func(i int) func(context.Context) (int, error) {
		return func(ctx context.Context) (int, error) {
			mu.Lock()
			ctxs[i] = ctx
			mu.Unlock()
			if i == 1 {
				return 1, nil
			}
			<-ctx.Done()
			return 0, ctx.Err()
		}
	}
	v, i, err := Hedge(parent, 0, nil, fn(0), fn(1), fn(2))
	if v != 1 || i != 1 || err != nil {
		t.Fatalf("Hedge = %v, %v, %v; want 1, 1, nil", v, i, err)
	}
	if err := ctxs[1].Err(); err != nil {
		t.Errorf("winner's ctx after return: %v; want alive", err)
	}
	for _, j := range []int{0, 2} {
		if c := context.Cause(ctxs[j]); c != ErrLost {
			t.Errorf("loser %d: cause %v; want ErrLost", j, c)
		}
	}
	stop := errors.New("stop")
	parent2, cancel2 := context.WithCancelCause(parent)
	var kept context.Context
	Hedge(parent2, 0, nil, func(ctx context.Context) (int, error) { kept = ctx; return 0, nil })
	cancel2(stop)
	select {
	case <-kept.Done():
	case <-time.After(time.Minute): // hang guard
		t.Fatal("canceling the caller's ctx did not cancel the winner's")
	}
	if context.Cause(kept) != stop || kept.Err() != context.Canceled {
		t.Errorf("winner's ctx: %v, cause %v; want Canceled, stop", kept.Err(), context.Cause(kept))
	}
}

// TestRunFirstOKReleases: calls on a long-lived ctx leave nothing
// registered with it once their winners' contexts are unreachable.
func TestRunFirstOKReleases(t *testing.T) {
	parent := newCountingCtx()
	var held context.Context
	for i := range 100 {
		Hedge(parent, 0, nil, func(ctx context.Context) (int, error) {
			if i == 0 {
				held = ctx
			}
			return 0, nil
		}, func(ctx context.Context) (int, error) {
			<-ctx.Done()
			return 0, ctx.Err()
		})
	}
	for range 200 {
		runtime.GC()
		if parent.registered() <= 1 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if n := parent.registered(); n != 1 {
		t.Fatalf("%d registrations left with the caller's ctx; want 1, the winner's context still held", n)
	}
	// The held one still hears its parent.
	parent.cancel()
	select {
	case <-held.Done():
	case <-time.After(time.Minute): // hang guard
		t.Fatal("a held winner's context was not canceled with its parent")
	}
}

// countingCtx is a cancelable context that counts the AfterFunc
// registrations made with it, as a long-lived parent would hold them.
type countingCtx struct {
	context.Context // Background: Value and Deadline
	done            chan struct{}
	mu              sync.Mutex
	fns             map[*func()]bool // guarded by mu
	canceled        bool             // guarded by mu
}

func newCountingCtx() *countingCtx {
	return &countingCtx{Context: context.Background(), done: make(chan struct{}), fns: map[*func()]bool{}}
}

func (c *countingCtx) Done() <-chan struct{} { return c.done }

func (c *countingCtx) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.canceled {
		return context.Canceled
	}
	return nil
}

func (c *countingCtx) AfterFunc(f func()) func() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	key := &f
	c.fns[key] = true
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		ok := c.fns[key]
		delete(c.fns, key)
		return ok
	}
}

func (c *countingCtx) registered() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.fns)
}

func (c *countingCtx) cancel() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.canceled = true
	close(c.done)
	for f := range c.fns {
		go (*f)()
	}
	clear(c.fns)
}

// TestHedge: functions start one delay apart, or at once when one fails;
// the first success wins and the rest never start.
func TestHedge(t *testing.T) {
	type step struct {
		after time.Duration
		ok    bool
	}
	for _, c := range []struct {
		name    string
		steps   []step // what each function does once started
		delay   time.Duration
		starts  []time.Duration
		winner  int
		elapsed time.Duration
	}{
		{"the first answers in time", []step{{10 * time.Millisecond, true}, {0, true}}, 50 * time.Millisecond,
			[]time.Duration{0}, 0, 10 * time.Millisecond},
		{"the second overtakes the first", []step{{200 * time.Millisecond, true}, {10 * time.Millisecond, true}, {0, true}}, 50 * time.Millisecond,
			[]time.Duration{0, 50 * time.Millisecond}, 1, 60 * time.Millisecond},
		{"a failure starts the next at once", []step{{10 * time.Millisecond, false}, {10 * time.Millisecond, true}}, 50 * time.Millisecond,
			[]time.Duration{0, 10 * time.Millisecond}, 1, 20 * time.Millisecond},
		{"delay 0 starts all", []step{{30 * time.Millisecond, true}, {20 * time.Millisecond, true}, {10 * time.Millisecond, false}}, 0,
			[]time.Duration{0, 0, 0}, 1, 20 * time.Millisecond},
	} {
		synctest.Test(t, func(t *testing.T) {
			start := time.Now()
			var mu sync.Mutex
			var starts []time.Duration
			var fns []func(context.Context) (int, error)
			for i, s := range c.steps {
				fns = append(fns, func(ctx context.Context) (int, error) {
					mu.Lock()
					starts = append(starts, time.Since(start))
					mu.Unlock()
					select {
					case <-time.After(s.after):
					case <-ctx.Done():
						return 0, ctx.Err()
					}
					if !s.ok {
						return 0, errors.New("replica down")
					}
					return i, nil
				})
			}
			v, i, err := Hedge(context.Background(), c.delay, nil, fns...)
			if i != c.winner || v != c.winner || err != nil {
				t.Errorf("%s: Hedge = %v, %v, %v; want winner %d", c.name, v, i, err, c.winner)
			}
			if !slices.Equal(starts, c.starts) {
				t.Errorf("%s: started at %v; want %v", c.name, starts, c.starts)
			}
			if got := time.Since(start); got != c.elapsed {
				t.Errorf("%s: returned after %v; want %v", c.name, got, c.elapsed)
			}
		})
	}
}

// TestHedgeFailures: when every started function fails, the error names
// each; when ctx ends, no new function starts.
func TestHedgeFailures(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		down := func(context.Context) (int, error) { return 0, errors.New("down") }
		_, i, err := Hedge(context.Background(), time.Second, nil, down, down)
		want := "task: Hedge: fns[0]: down\ntask: Hedge: fns[1]: down"
		if i != -1 || err == nil || err.Error() != want {
			t.Errorf("Hedge = %d, %v; want -1 and\n%s", i, err, want)
		}
	})
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
		defer cancel()
		var started atomic.Int32
		slow := func(ctx context.Context) (int, error) {
			started.Add(1)
			<-ctx.Done()
			return 0, ctx.Err()
		}
		_, _, err := Hedge(ctx, 100*time.Millisecond, nil, slow, slow, slow)
		if n := started.Load(); n != 2 || !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("started %d, err %v; want 2 started and the deadline", n, err)
		}
		var ce *CallError
		if !errors.As(err, &ce) || !slices.Equal(indexes(ce.Unfinished), []int{0, 1}) {
			t.Errorf("err = %v; want fns[0] and fns[1] unfinished", err)
		}
	})
	if msg := catch(func() { Hedge(context.Background(), -time.Second, nil, immediate[int]) }); msg != "task: Hedge: delay is -1s; want 0 or more" {
		t.Errorf("negative delay: %q", msg)
	}
	if msg := catch(func() { Hedge(context.Background(), 0, nil, immediate[int], nil) }); msg != "task: Hedge: fns[1] is nil" {
		t.Errorf("nil function: %q", msg)
	}
}

// TestReleasePanics: a panic in release does not stop the other releases;
// once every value was released, the first panic reaches the caller as a
// *PanicError naming the call, "release" and the position of the value. A
// function's panic comes first.
func TestReleasePanics(t *testing.T) {
	won := func(context.Context) (int, error) { return 0, nil }
	late := func(v int) func(context.Context) (int, error) {
		return func(ctx context.Context) (int, error) { <-ctx.Done(); return v, nil }
	}
	yes := func([]int, []int) bool { return true }
	for name, call := range map[string]func(func(int)){
		"Hedge":  func(rel func(int)) { Hedge(context.Background(), 0, rel, won, late(1), late(2)) },
		"Quorum": func(rel func(int)) { Quorum(context.Background(), 1, rel, won, late(1), late(2)) },
		"Until":  func(rel func(int)) { Until(context.Background(), yes, rel, won, late(1), late(2)) },
	} {
		var released []int
		r := recoverFrom(func() {
			call(func(v int) { released = append(released, v); panic(v * 10) })
		})
		pe, ok := r.(*PanicError)
		if !ok || pe.Value != 10 || pe.Call != name || pe.Arg != "release" || pe.Index != 1 {
			t.Errorf("%s: recovered %#v; want a *PanicError of release, value 10", name, r)
			continue
		}
		if !slices.Equal(released, []int{1, 2}) {
			t.Errorf("%s: released %v; want [1 2]", name, released)
		}
		if msg := pe.Error(); !strings.HasPrefix(msg, "task: "+name+": release: panic: 10") {
			t.Errorf("%s: message %q", name, msg)
		}
	}

	var released []int
	r := recoverFrom(func() {
		Hedge(context.Background(), 0, func(v int) { released = append(released, v); panic("release") },
			won, late(1), func(ctx context.Context) (int, error) { <-ctx.Done(); panic("loser") })
	})
	if pe, ok := r.(*PanicError); !ok || pe.Value != "loser" || pe.Arg != "fns[2]" || !slices.Equal(released, []int{1}) {
		t.Errorf("a function's and release's panics: recovered %#v, released %v; want the function's, [1]", r, released)
	}
}
