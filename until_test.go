//go:build go1.25

package task

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// replica returns after d (or a cancellation if ctx is done first) with v.
func replica(d time.Duration, v string) func(context.Context) (string, error) {
	return func(ctx context.Context) (string, error) {
		select {
		case <-time.After(d):
			return v, nil
		case <-ctx.Done():
			return "", context.Cause(ctx)
		}
	}
}

// agree2 is enough when two successes have the same value.
func agree2(vals []string, at []int) bool {
	for i, v := range vals {
		if slices.Contains(vals[i+1:], v) {
			return true
		}
	}
	return false
}

func TestUntilAgree(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var calls [][]int
		enough := func(vals []string, at []int) bool {
			calls = append(calls, slices.Clone(at))
			return agree2(vals, at)
		}
		start := time.Now()
		vals, at, left, err := Until(context.Background(), enough, nil,
			replica(10*time.Millisecond, "v1"), // first
			replica(20*time.Millisecond, "v2"), // second: disagrees
			replica(time.Hour, "v1"),           // slow: canceled
			replica(30*time.Millisecond, "v1"), // third: agrees with the first
		)
		if err != nil || !slices.Equal(vals, []string{"v1", "v2", "v1"}) || !slices.Equal(at, []int{0, 1, 3}) || !slices.Equal(left, []int{2}) {
			t.Fatalf("Until = %v, %v, %v, %v; want [v1 v2 v1] [0 1 3] [2] nil", vals, at, left, err)
		}
		if want := [][]int{{0}, {0, 1}, {0, 1, 3}}; !slices.EqualFunc(calls, want, slices.Equal) {
			t.Fatalf("enough saw %v; want %v, one call per success in completion order", calls, want)
		}
		if d := time.Since(start); d != 30*time.Millisecond {
			t.Fatalf("Until returned after %v; want 30ms: the slow replica is canceled at once", d)
		}
	})
}

func TestUntilCancelsWithErrLost(t *testing.T) {
	var cause atomic.Value
	slow := func(ctx context.Context) (int, error) {
		<-ctx.Done()
		cause.Store(context.Cause(ctx))
		return 0, ctx.Err()
	}
	var winnerCtx context.Context
	fast := func(ctx context.Context) (int, error) { winnerCtx = ctx; return 1, nil }
	vals, at, left, err := Until(context.Background(), func(vals []int, at []int) bool { return true }, nil, slow, fast, slow)
	if err != nil || !slices.Equal(vals, []int{1}) || !slices.Equal(at, []int{1}) || !slices.Equal(left, []int{0, 2}) {
		t.Fatalf("Until = %v, %v, %v, %v", vals, at, left, err)
	}
	if c := cause.Load(); c != ErrLost {
		t.Fatalf("the canceled function's cause = %v; want ErrLost", c)
	}
	if winnerCtx.Err() != nil {
		t.Fatalf("the success's context is canceled after Until returned: %v", winnerCtx.Err())
	}
}

func TestUntilNotEnough(t *testing.T) {
	ok := func(v string) func(context.Context) (string, error) {
		return func(context.Context) (string, error) { return v, nil }
	}
	vals, at, left, err := Until(context.Background(), agree2, nil, ok("a"), ok("b"), ok("c"))
	if !errors.Is(err, ErrNotEnough) || len(vals) != 3 || len(at) != 3 || left != nil {
		t.Fatalf("Until = %v, %v, %v, %v; want every success and ErrNotEnough", vals, at, left, err)
	}
	if want := "task: Until: enough never returned true: not enough succeeded"; err.Error() != want {
		t.Errorf("Until's error says %q; want %q", err, want)
	}
	boom := errors.New("boom")
	vals, _, _, err = Until(context.Background(), agree2, nil, ok("a"),
		func(context.Context) (string, error) { return "", boom }, ok("c"))
	var ce *CallError
	if !errors.As(err, &ce) || len(ce.Failures) != 1 || !errors.Is(err, boom) || len(vals) != 2 {
		t.Fatalf("Until = %v, %v; want the two successes and a *CallError with the failure", vals, err)
	}
	if got := err.Error(); got != "task: Until: fns[1]: boom" {
		t.Fatalf("the error reads %q", got)
	}
}

// A failure does not end the call: enough decides on the successes.
func TestUntilFailureDoesNotEnd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		failing := func(ctx context.Context) (string, error) { return "", errors.New("down") }
		vals, at, left, err := Until(context.Background(), agree2, nil,
			failing, replica(10*time.Millisecond, "x"), replica(20*time.Millisecond, "x"))
		if err != nil || len(vals) != 2 || !slices.Equal(at, []int{1, 2}) || left != nil {
			t.Fatalf("Until = %v, %v, %v, %v; want the two agreeing successes, no error", vals, at, left, err)
		}
	})
}

func TestUntilCtxDone(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Millisecond)
		defer cancel()
		var calls int
		vals, at, left, err := Until(ctx, func(vals []string, at []int) bool { calls++; return false }, nil,
			replica(10*time.Millisecond, "a"), replica(time.Hour, "b"), replica(time.Hour, "c"))
		var ce *CallError
		if !errors.As(err, &ce) || !errors.Is(ce.Ctx, context.DeadlineExceeded) || len(ce.Unfinished) != 2 {
			t.Fatalf("Until = %#v; want a *CallError with Ctx and two unfinished", err)
		}
		if calls != 1 || !slices.Equal(vals, []string{"a"}) || !slices.Equal(at, []int{0}) || left != nil {
			t.Fatalf("Until = %v, %v, %v after %d calls of enough; want [a] [0] [] after 1", vals, at, left, calls)
		}
	})
}

func TestUntilPanicInEnough(t *testing.T) {
	var returned atomic.Int32
	slow := func(ctx context.Context) (int, error) {
		defer returned.Add(1)
		<-ctx.Done()
		return 0, ctx.Err()
	}
	fast := func(ctx context.Context) (int, error) { returned.Add(1); return 1, nil }
	defer func() {
		if p := recover(); p != "enough: bad" {
			t.Fatalf("recovered %v; want enough's own panic value", p)
		}
		if n := returned.Load(); n != 3 {
			t.Fatalf("%d functions had returned when enough's panic reached the caller; want 3", n)
		}
	}()
	Until(context.Background(), func([]int, []int) bool { panic("enough: bad") }, nil, slow, fast, slow)
}

func TestUntilFunctionPanic(t *testing.T) {
	defer func() {
		p := recover()
		var pe *PanicError
		if e, ok := p.(error); !ok || !errors.As(e, &pe) || pe.Value != "f1" {
			t.Fatalf("recovered %v; want a *PanicError of fns[1]", p)
		}
	}()
	Until(context.Background(), func([]int, []int) bool { return false }, nil,
		func(context.Context) (int, error) { return 1, nil },
		func(context.Context) (int, error) { panic("f1") })
}

func TestUntilArgs(t *testing.T) {
	ok := func(context.Context) (int, error) { return 1, nil }
	yes := func([]int, []int) bool { return true }
	for _, tc := range []struct {
		want string
		f    func()
	}{
		{"task: Until: ctx is nil", func() { Until(nil, yes, nil, ok) }}, //lint:ignore SA1012 the nil ctx is the case
		{"task: Until: enough is nil", func() { Until[int](context.Background(), nil, nil, ok) }},
		{"task: Until: fns[1] is nil", func() { Until(context.Background(), yes, nil, ok, nil) }},
	} {
		func() {
			defer func() {
				if p := recover(); p == nil || !strings.Contains(p.(string), tc.want) {
					t.Errorf("panic %v; want %q", p, tc.want)
				}
			}()
			tc.f()
		}()
	}
}

// Named names Until's functions in its errors.
func TestUntilNamed(t *testing.T) {
	_, _, _, err := Until(context.Background(), func([]int, []int) bool { return false }, nil,
		Named("replica-b", func(context.Context) (int, error) { return 0, errors.New("down") }),
		func(context.Context) (int, error) { return 1, nil })
	if err == nil || err.Error() != "task: Until: replica-b: down" {
		t.Fatalf("Until = %v; want the failure under its name", err)
	}
}

// TestUntilSlowEnough: the ends that come while enough runs are not taken
// once it says true. Those functions are in left with the ones it canceled;
// every success Until does not return goes to release, in argument order:
// one that came while enough ran, and one that came after the cancellation.
func TestUntilSlowEnough(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		second := make(chan struct{})
		var released []int
		calls := 0
		enough := func(vals, at []int) bool {
			calls++
			close(second)   // fns[1] succeeds and fns[3] fails while enough runs
			synctest.Wait() // both have returned; fns[2] waits for its ctx
			return true
		}
		vals, at, left, err := Until(context.Background(), enough, func(v int) { released = append(released, v) },
			func(context.Context) (int, error) { return 0, nil },
			func(context.Context) (int, error) { <-second; return 1, nil },
			func(ctx context.Context) (int, error) { <-ctx.Done(); return 2, nil }, // succeeds though canceled
			func(context.Context) (int, error) { <-second; return 0, errors.New("down") },
		)
		if err != nil || calls != 1 || !slices.Equal(vals, []int{0}) || !slices.Equal(at, []int{0}) {
			t.Fatalf("Until = %v, %v, %v, %v after %d calls of enough; want [0] [0] and no error after 1", vals, at, left, err, calls)
		}
		if !slices.Equal(left, []int{1, 2, 3}) {
			t.Errorf("left = %v; want [1 2 3]: those running and those that ended while enough ran", left)
		}
		if !slices.Equal(released, []int{1, 2}) {
			t.Errorf("released %v; want [1 2], every success not returned", released)
		}
	})
}

// TestUntilReleasesWhatItDoesNotReturn: the successes after the caller's
// ctx is done, and every success when enough panics, go to release; the
// successes Until returns do not.
func TestUntilReleasesWhatItDoesNotReturn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var released []int
		rel := func(v int) { released = append(released, v) }
		ctx, cancel := context.WithCancel(context.Background())
		vals, _, _, err := Until(ctx, func([]int, []int) bool { cancel(); return false }, rel,
			func(context.Context) (int, error) { return 1, nil },
			func(ctx context.Context) (int, error) { <-ctx.Done(); return 2, nil })
		if !slices.Equal(vals, []int{1}) || err == nil || !slices.Equal(released, []int{2}) {
			t.Errorf("ctx done: Until = %v, %v, released %v; want [1], an error, [2] released", vals, err, released)
		}

		released = nil
		vals, _, _, err = Until(context.Background(), func([]int, []int) bool { return false }, rel,
			func(context.Context) (int, error) { return 1, nil },
			func(context.Context) (int, error) { return 2, nil })
		if len(vals) != 2 || !errors.Is(err, ErrNotEnough) || released != nil {
			t.Errorf("not enough: Until = %v, %v, released %v; want both values returned, none released", vals, err, released)
		}

		released = nil
		r := recoverFrom(func() {
			Until(context.Background(), func(vals, _ []int) bool {
				if len(vals) == 2 {
					panic("bad")
				}
				return false
			}, rel,
				func(context.Context) (int, error) { return 1, nil },
				func(context.Context) (int, error) { return 2, nil },
				func(ctx context.Context) (int, error) { <-ctx.Done(); return 3, nil })
		})
		slices.Sort(released)
		if r != "bad" || !slices.Equal(released, []int{1, 2, 3}) {
			t.Errorf("enough panicked: recovered %v, released %v; want bad, [1 2 3]", r, released)
		}
	})
}
