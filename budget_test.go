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

// takes returns a function that takes d[in] (or returns a cancellation if
// ctx is done first) and returns in*10.
func takes(d map[int]time.Duration) func(context.Context, int) (int, error) {
	return func(ctx context.Context, in int) (int, error) {
		select {
		case <-time.After(d[in]):
			return in * 10, nil
		case <-ctx.Done():
			return -1, context.Cause(ctx) // a value that MapWithin must not keep
		}
	}
}

func TestMapWithinNothingSlow(t *testing.T) {
	out, left, err := MapWithin(context.Background(), time.Hour, []int{1, 2, 3}, -1,
		func(_ context.Context, in int) (int, error) { return in * 10, nil })
	if err != nil || left != nil || !slices.Equal(out, []int{10, 20, 30}) {
		t.Fatalf("MapWithin = %v, %v, %v", out, left, err)
	}
}

func TestMapWithinKeepsWhatFinished(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		shards := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
		d := map[int]time.Duration{}
		for _, s := range shards {
			d[s] = time.Duration(10+s) * time.Millisecond
		}
		d[3], d[7] = time.Second, time.Second
		var causes atomic.Int32
		slowOrFast := takes(d)
		fn := func(ctx context.Context, in int) (int, error) {
			v, err := slowOrFast(ctx, in)
			if err == ErrBudget {
				causes.Add(1)
			}
			return v, err
		}
		start := time.Now()
		out, left, err := MapWithin(context.Background(), 200*time.Millisecond, shards, -1, fn)
		if err != nil || !slices.Equal(left, []int{3, 7}) {
			t.Fatalf("MapWithin = %v, %v, %v; want left [3 7] and no error", out, left, err)
		}
		if want := []int{0, 10, 20, 0, 40, 50, 60, 0, 80, 90}; !slices.Equal(out, want) {
			t.Fatalf("out = %v; want %v", out, want)
		}
		if causes.Load() != 2 {
			t.Fatalf("%d calls saw the cause ErrBudget; want 2", causes.Load())
		}
		if e := time.Since(start); e != 200*time.Millisecond {
			t.Fatalf("MapWithin returned after %v; want the budget, 200ms", e)
		}
	})
}

// At the limit, the budget's end leaves the inputs running (canceled) and
// those not started.
func TestMapWithinLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := map[int]time.Duration{}
		for i := range 6 {
			d[i] = 100 * time.Millisecond
		}
		out, left, err := MapWithin(context.Background(), 250*time.Millisecond, []int{0, 1, 2, 3, 4, 5}, 1, takes(d))
		if err != nil || !slices.Equal(left, []int{2, 3, 4, 5}) || !slices.Equal(out, []int{0, 10, 0, 0, 0, 0}) {
			t.Fatalf("MapWithin = %v, %v, %v; want [0 10 0 0 0 0] [2 3 4 5] nil", out, left, err)
		}
	})
}

// No input starts after the budget's end, whether the calls look at their
// ctx or not, and with KeepGoing too (which runs every input of a Map
// whatever the caller's ctx does, but not past a budget).
func TestMapWithinStartsNothingAfter(t *testing.T) {
	for _, opts := range [][]Option{nil, {KeepGoing}, {Grace(time.Second)}} {
		synctest.Test(t, func(t *testing.T) {
			var started atomic.Int64
			fn := func(ctx context.Context, in int) (int, error) {
				started.Add(1)
				time.Sleep(150 * time.Millisecond) // ignores ctx
				return in + 1, nil
			}
			out, left, err := MapWithin(context.Background(), 200*time.Millisecond, []int{0, 1, 2, 3, 4}, 1, fn, opts...)
			if err != nil || !slices.Equal(left, []int{2, 3, 4}) || !slices.Equal(out, []int{1, 2, 0, 0, 0}) || started.Load() != 2 {
				t.Fatalf("%d options: MapWithin = %v, %v, %v with %d calls; want [1 2 0 0 0] [2 3 4] nil with 2",
					len(opts), out, left, err, started.Load())
			}
		})
	}
}

// A call that ignores its context and succeeds after the budget's end
// keeps its value.
func TestMapWithinLateSuccess(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fn := func(ctx context.Context, in int) (int, error) {
			if in == 1 {
				time.Sleep(time.Second) // ignores ctx
			}
			return in * 10, nil
		}
		out, left, err := MapWithin(context.Background(), 100*time.Millisecond, []int{0, 1}, -1, fn)
		if err != nil || left != nil || !slices.Equal(out, []int{0, 10}) {
			t.Fatalf("MapWithin = %v, %v, %v; want [0 10] [] nil", out, left, err)
		}
	})
}

func TestMapWithinFailure(t *testing.T) {
	boom := errors.New("boom")
	synctest.Test(t, func(t *testing.T) {
		d := map[int]time.Duration{0: 10 * time.Millisecond, 2: time.Second}
		fn := func(ctx context.Context, in int) (int, error) {
			if in == 1 {
				time.Sleep(50 * time.Millisecond)
				return 0, boom
			}
			return takes(d)(ctx, in)
		}
		// Fail-fast: the failure came first and cancels input 2; nothing is
		// left by the budget.
		out, left, err := MapWithin(context.Background(), 200*time.Millisecond, []int{0, 1, 2}, -1, fn)
		var ce *CallError
		if !errors.As(err, &ce) || !errors.Is(err, boom) || len(ce.Canceled) != 1 || left != nil || out[0] != 0 {
			t.Fatalf("MapWithin = %v, %v, %#v; want the failure, input 2 canceled, nothing left", out, left, err)
		}
		if got := err.Error(); got != "task: MapWithin: inputs[1]: boom" {
			t.Fatalf("err reads %q", got)
		}
		// KeepGoing: the budget's end leaves input 2; the failure is the error.
		out, left, err = MapWithin(context.Background(), 200*time.Millisecond, []int{0, 1, 2}, -1, fn, KeepGoing)
		if !errors.Is(err, boom) || !slices.Equal(left, []int{2}) || out[0] != 0 {
			t.Fatalf("MapWithin(KeepGoing) = %v, %v, %v; want the failure, left [2]", out, left, err)
		}
		// FirstError: the failure as fn returned it.
		_, left, err = MapWithin(context.Background(), 200*time.Millisecond, []int{0, 1, 2}, -1, fn, KeepGoing, FirstError)
		if err != boom || !slices.Equal(left, []int{2}) {
			t.Fatalf("MapWithin(FirstError) = %v, %v; want boom itself, left [2]", left, err)
		}
	})
}

// The caller's ctx, unlike the budget, fails the call.
func TestMapWithinCallerCtx(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		d := map[int]time.Duration{0: 10 * time.Millisecond, 1: time.Second}
		out, left, err := MapWithin(ctx, 200*time.Millisecond, []int{0, 1}, -1, takes(d))
		var ce *CallError
		if !errors.As(err, &ce) || !errors.Is(ce.Ctx, context.DeadlineExceeded) || left != nil || !slices.Equal(out, []int{0, 0}) {
			t.Fatalf("MapWithin = %v, %v, %v; want a *CallError with Ctx, nothing left", out, left, err)
		}
		if ce.Call != "MapWithin" {
			t.Fatalf("the call is named %q", ce.Call)
		}
	})
}

// With Grace, the budget's end stops the call; the calls running keep a
// live context for the grace period and see Stopping closed.
func TestMapWithinGrace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fn := func(ctx context.Context, in int) (int, error) {
			<-Stopping(ctx)
			time.Sleep(20 * time.Millisecond) // finishes within the grace period
			return in, ctx.Err()
		}
		out, left, err := MapWithin(context.Background(), 100*time.Millisecond, []int{1, 2}, -1, fn, Grace(50*time.Millisecond))
		if err != nil || left != nil || !slices.Equal(out, []int{1, 2}) {
			t.Fatalf("MapWithin = %v, %v, %v; want [1 2] [] nil: they finished in the grace period", out, left, err)
		}
	})
}

// A budget that is not positive is over at once: nothing starts.
func TestMapWithinZeroBudget(t *testing.T) {
	var ran atomic.Bool
	out, left, err := MapWithin(context.Background(), 0, []int{1, 2, 3}, 2,
		func(_ context.Context, in int) (int, error) { ran.Store(true); return in, nil })
	if err != nil || !slices.Equal(left, []int{0, 1, 2}) || ran.Load() || len(out) != 3 {
		t.Fatalf("MapWithin = %v, %v, %v (ran %v); want every position left", out, left, err, ran.Load())
	}
}

func TestMapWithinArgs(t *testing.T) {
	fn := func(_ context.Context, in int) (int, error) { return in, nil }
	for _, tc := range []struct {
		want string
		f    func()
	}{
		{"task: MapWithin: ctx is nil", func() { MapWithin(nil, time.Second, []int{1}, 1, fn) }}, //lint:ignore SA1012 the nil ctx is the case
		{"task: MapWithin: fn is nil", func() { MapWithin[int, int](context.Background(), time.Second, []int{1}, 1, nil) }},
		{"task: MapWithin: limit is 0; want at least 1, or a negative limit for none", func() { MapWithin(context.Background(), time.Second, []int{1}, 0, fn) }},
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

// NamedBy names MapWithin's calls by their input in its errors.
func TestMapWithinNamed(t *testing.T) {
	_, _, err := MapWithin(context.Background(), time.Hour, []string{"shard-a", "shard-b"}, -1,
		NamedBy(func(s string) string { return s }, func(_ context.Context, s string) (int, error) {
			if s == "shard-b" {
				return 0, errors.New("down")
			}
			return 1, nil
		}))
	if err == nil || err.Error() != "task: MapWithin: shard-b: down" {
		t.Fatalf("MapWithin = %v; want the failure under its input's name", err)
	}
}

// A failure does not bring the budget's end into err: with KeepGoing, with
// a failure after the budget's end, and with a failure during Grace, err
// is the failure alone and left what the budget left, no position in both.
func TestMapWithinFailureAndBudget(t *testing.T) {
	boom := errors.New("boom")
	for _, tc := range []struct {
		name string
		opts []Option
		fail func(ctx context.Context) // input 0 fails once it returns
		left []int
		// canceled: input 1, waiting on its ctx during Grace, returns the
		// cancellation the failure sent: the call stopped it, not the budget.
		canceled []int
	}{
		{"KeepGoing", []Option{KeepGoing}, func(context.Context) { time.Sleep(50 * time.Millisecond) }, []int{1, 3}, nil}, // input 2 takes its place
		{"after the budget", nil, func(context.Context) { time.Sleep(300 * time.Millisecond) }, []int{1, 2, 3}, nil},
		{"during Grace", []Option{Grace(time.Second)}, func(ctx context.Context) { <-Stopping(ctx); time.Sleep(10 * time.Millisecond) }, []int{2, 3}, []int{1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				fn := func(ctx context.Context, in int) (int, error) {
					switch in {
					case 0:
						tc.fail(ctx)
						return 0, boom
					case 1:
						<-ctx.Done()
						return 0, ctx.Err()
					}
					time.Sleep(time.Second) // ignores ctx, succeeds after the budget
					return in, nil
				}
				_, left, err := MapWithin(context.Background(), 200*time.Millisecond, []int{0, 1, 2, 3}, 2, fn, tc.opts...)
				var ce *CallError
				if !errors.As(err, &ce) || err.Error() != "task: MapWithin: inputs[0]: boom" {
					t.Fatalf("%s: err = %v; want the failure alone", tc.name, err)
				}
				if ce.Ctx != nil || ce.Unfinished != nil || ce.NotStarted != 0 || ce.NotStartedAt() != nil || !slices.Equal(indexes(ce.Canceled), tc.canceled) {
					t.Fatalf("%s: err counts what the budget left: %#v", tc.name, ce)
				}
				if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ErrBudget) || errors.Is(err, ErrStopped) {
					t.Fatalf("%s: err holds the budget's end: %v", tc.name, err)
				}
				if !slices.Equal(left, tc.left) {
					t.Fatalf("%s: left = %v; want %v", tc.name, left, tc.left)
				}
			})
		})
	}
}

// A call that returns context.Canceled after the budget's end was stopped
// by it, as one that returns its ctx's error, unless a failure canceled
// the call first.
func TestMapWithinCanceledAfterBudget(t *testing.T) {
	boom := errors.New("boom")
	synctest.Test(t, func(t *testing.T) {
		fn := func(ctx context.Context, in int) (int, error) {
			if in == 1 {
				<-ctx.Done()
				return 0, context.Canceled
			}
			return in, nil
		}
		out, left, err := MapWithin(context.Background(), 100*time.Millisecond, []int{0, 1, 2}, -1, fn)
		if err != nil || !slices.Equal(left, []int{1}) || !slices.Equal(out, []int{0, 0, 2}) {
			t.Fatalf("MapWithin = %v, %v, %v; want [0 0 2] [1] nil", out, left, err)
		}
	})
	synctest.Test(t, func(t *testing.T) {
		fn := func(ctx context.Context, in int) (int, error) {
			if in == 0 {
				time.Sleep(50 * time.Millisecond)
				return 0, boom
			}
			<-ctx.Done()                       // the failure's cancellation
			time.Sleep(100 * time.Millisecond) // returns after the budget's end
			return 0, context.Canceled
		}
		_, left, err := MapWithin(context.Background(), 100*time.Millisecond, []int{0, 1}, -1, fn)
		var ce *CallError
		if !errors.As(err, &ce) || len(ce.Canceled) != 1 || ce.Canceled[0].Index != 1 || left != nil {
			t.Fatalf("MapWithin = %v, %#v; want input 1 canceled by the failure, nothing left", left, err)
		}
	})
}
