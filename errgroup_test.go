//go:build go1.25

package task

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
)

// The error-only forms: Group.Go and TryGo, ForEach and Do.

func TestGroupGo(t *testing.T) {
	boom := errors.New("boom")
	var ran atomic.Int32
	_, err := Scope(context.Background(), func(ctx context.Context, g *Group) (int, error) {
		g.Go(func(context.Context) error { ran.Add(1); return nil })
		Spawn(g, func(context.Context) (int, error) { ran.Add(1); return 1, nil })
		g.Go(func(context.Context) error { ran.Add(1); return boom })
		return 0, nil
	})
	var ce *CallError
	if !errors.As(err, &ce) || len(ce.Failures) != 1 || ce.Failures[0].Arg != "children[2]" || !errors.Is(err, boom) {
		t.Fatalf("err = %v; want children[2]'s boom", err)
	}
	if err.Error() != "task: Scope: children[2]: boom" || ran.Load() != 3 {
		t.Errorf("err = %q, %d ran; want %q, 3", err, ran.Load(), "task: Scope: children[2]: boom")
	}
}

// TestGroupGoLimit: at most limit children of Group.Go run at once; they
// start in spawn order; a failure cancels the ones still waiting, which are
// listed with the cancellations; with KeepGoing, every child runs.
func TestGroupGoLimit(t *testing.T) {
	for _, keepGoing := range []bool{false, true} {
		t.Run(fmt.Sprint("keepGoing=", keepGoing), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var opts []Option
				if keepGoing {
					opts = append(opts, KeepGoing)
				}
				var mu sync.Mutex
				var running, peak int
				var started []int
				_, err := Scope(context.Background(), func(ctx context.Context, g *Group) (int, error) {
					g.SetLimit(2)
					for i := range 10 {
						g.Go(func(context.Context) error {
							mu.Lock()
							running++
							peak = max(peak, running)
							started = append(started, i)
							mu.Unlock()
							defer func() { mu.Lock(); running--; mu.Unlock() }()
							if i == 3 {
								return fmt.Errorf("child %d", i)
							}
							return nil
						})
					}
					return 0, nil
				}, opts...)
				var ce *CallError
				if !errors.As(err, &ce) || len(ce.Failures) != 1 || ce.Failures[0].Index != 3 {
					t.Fatalf("err = %v; want children[3]'s failure", err)
				}
				if peak > 2 {
					t.Errorf("%d ran at once; the limit is 2", peak)
				}
				if keepGoing {
					if len(started) != 10 || len(ce.Canceled) != 0 {
						t.Errorf("started %v, %d canceled; want all 10, none canceled", started, len(ce.Canceled))
					}
					return
				}
				// Children 0..3 ran, in some order: two goroutines take the
				// queued children; the rest never started.
				if len(started)+ce.NotStarted != 10 {
					t.Errorf("%d started, %d not started; want 10 in all", len(started), ce.NotStarted)
				}
				for _, i := range ce.NotStartedAt() {
					if slices.Contains(started, i) {
						t.Errorf("children[%d] counted as not started, but started", i)
					}
				}
			})
		})
	}
}

func TestGroupTryGo(t *testing.T) {
	_, err := Scope(context.Background(), func(ctx context.Context, g *Group) (int, error) {
		g.SetLimit(1)
		release := make(chan struct{})
		if !g.TryGo(func(context.Context) error { <-release; return nil }) {
			return 0, errors.New("the first TryGo refused")
		}
		if g.TryGo(func(context.Context) error { return nil }) {
			return 0, errors.New("TryGo at the limit started")
		}
		close(release)
		return 0, nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestGroupGoPanic(t *testing.T) {
	e := endingOf(func() {
		Scope(context.Background(), func(ctx context.Context, g *Group) (int, error) {
			g.Go(func(context.Context) error { panic("bug") })
			return 0, nil
		})
	})
	pe, ok := e.panicVal.(*PanicError)
	if !ok || pe.Value != "bug" || pe.Arg != "children[0]" || pe.Call != "Scope" {
		t.Fatalf("Scope ended %+v; want children[0]'s panic", e)
	}
}

func TestGroupGoBadArguments(t *testing.T) {
	for _, tc := range []struct {
		f    func()
		want string
	}{
		{func() { (*Group)(nil).Go(func(context.Context) error { return nil }) }, "task: Group.Go: g is nil"},
		{func() {
			Scope(context.Background(), func(ctx context.Context, g *Group) (int, error) { g.Go(nil); return 0, nil })
		}, "task: Group.Go: fn is nil"},
		{func() { (*Group)(nil).TryGo(func(context.Context) error { return nil }) }, "task: Group.TryGo: g is nil"},
		{func() { Do(context.Background(), nil) }, "task: Do: fns[0] is nil"},
		{func() { ForEach(context.Background(), []int{1}, 0, func(context.Context, int) error { return nil }) }, "task: ForEach: limit is 0; want at least 1, or a negative limit for none"},
	} {
		if got := panicMessage(tc.f); !strings.Contains(got, tc.want) {
			t.Errorf("panic %q; want %q", got, tc.want)
		}
	}
}

// panicMessage returns what f panics with, as a string.
func panicMessage(f func()) (msg string) {
	defer func() { msg = fmt.Sprint(recover()) }()
	f()
	return ""
}

func TestForEach(t *testing.T) {
	ctx := context.Background()
	inputs := []int{0, 1, 2, 3, 4, 5, 6, 7}
	var sum atomic.Int64
	if err := ForEach(ctx, inputs, -1, func(_ context.Context, x int) error { sum.Add(int64(x)); return nil }); err != nil || sum.Load() != 28 {
		t.Fatalf("ForEach = %v, sum %d; want nil, 28", err, sum.Load())
	}
	if err := ForEach(ctx, []int(nil), 1, func(context.Context, int) error { return errors.New("called") }); err != nil {
		t.Errorf("ForEach over no inputs = %v; want nil", err)
	}
	var calls atomic.Int32
	err := ForEach(ctx, inputs, 1, func(_ context.Context, x int) error {
		calls.Add(1)
		if x == 2 {
			return errors.New("two")
		}
		return nil
	})
	if err == nil || err.Error() != "task: ForEach: inputs[2]: two\ntask: ForEach: 5 not started: a failure canceled the call" || calls.Load() != 3 {
		t.Errorf("ForEach = %q after %d calls; want inputs[2]'s failure after 3 (no call after it)", err, calls.Load())
	}
	var ce *CallError
	if !errors.As(err, &ce) || ce.NotStarted != 5 || errors.Is(err, ErrStopped) || !slices.Equal(ce.NotStartedAt(), []int{3, 4, 5, 6, 7}) {
		t.Errorf("ForEach: NotStarted %d, at %v, ErrStopped %v; want 5, [3 4 5 6 7], false", ce.NotStarted, ce.NotStartedAt(), errors.Is(err, ErrStopped))
	}
	calls.Store(0)
	err = ForEach(ctx, inputs, 2, func(_ context.Context, x int) error {
		calls.Add(1)
		if x%2 == 1 {
			return fmt.Errorf("odd %d", x)
		}
		return nil
	}, KeepGoing)
	if !errors.As(err, &ce) || len(ce.Failures) != 4 || calls.Load() != 8 || ce.NotStarted != 0 {
		t.Errorf("ForEach with KeepGoing = %v after %d calls; want 4 failures after 8", err, calls.Load())
	}
}

func TestDo(t *testing.T) {
	ctx := context.Background()
	if err := Do(ctx); err != nil {
		t.Errorf("Do() = %v; want nil", err)
	}
	var ran atomic.Int32
	ok := func(context.Context) error { ran.Add(1); return nil }
	if err := Do(ctx, ok, ok, ok); err != nil || ran.Load() != 3 {
		t.Errorf("Do = %v, %d ran; want nil, 3", err, ran.Load())
	}
	boom := errors.New("boom")
	err := Do(ctx,
		func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() },
		func(context.Context) error { return boom })
	var ce *CallError
	if !errors.As(err, &ce) || err.Error() != "task: Do: fns[1]: boom" || len(ce.Canceled) != 1 {
		t.Errorf("Do = %q; want fns[1]'s boom, fns[0] canceled", err)
	}
	e := endingOf(func() { Do(ctx, ok, func(context.Context) error { panic("bug") }) })
	if pe, ok := e.panicVal.(*PanicError); !ok || pe.Arg != "fns[1]" || !strings.Contains(pe.Error(), "bug") {
		t.Errorf("Do ended %+v; want fns[1]'s panic", e)
	}
}
