//go:build go1.25

package task

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
)

// The rules of a call (rules.go): what is a failure and what a stop, and
// what a failure cancels.

// TestRunFailFast: the first failure cancels every sibling with the failure
// as cause, and the siblings' cancellation errors are not reported.
func TestRunFailFast(t *testing.T) {
	for _, c := range runs() {
		for p := 1; p <= c.n; p++ {
			name := fmt.Sprintf("%s/f%d fails", c.name, p)
			synctest.Test(t, func(t *testing.T) {
				sl := newSlots(c.n, kWaitCtx)
				for _, s := range sl[1:] {
					if s.i%2 == 0 {
						s.kind = kWaitCause
					}
				}
				sl[p-1].kind = kError
				got, err := c.fn(context.Background(), sl)
				if ps := positions(err); !slices.Equal(ps, []int{p - 1}) {
					t.Fatalf("%s: err = %v, positions %v; want only f%d", name, err, ps, p)
				}
				if errors.Is(err, context.Canceled) {
					t.Errorf("%s: induced cancellation reported: %v", name, err)
				}
				checkZero(t, name, got)
				for _, s := range sl {
					ctx := *s.ctx.Load()
					cause := context.Cause(ctx)
					var pe *PositionError
					if !errors.As(cause, &pe) || pe.Index != p-1 || pe.Err != (posErr{p}) {
						t.Errorf("%s: f%d saw cause %v; want the PositionError of posErr{%d}", name, s.i, cause, p)
					}
				}
			})
		}
	}
}

// TestRunKeepGoing: a failure cancels nothing, each function gets the
// caller's ctx, and Settled returns every value.
func TestRunKeepGoing(t *testing.T) {
	for _, c := range runs() {
		for p := 1; p <= c.n; p++ {
			name := fmt.Sprintf("%s/f%d fails/KeepGoing", c.name, p)
			synctest.Test(t, func(t *testing.T) {
				ctx := context.WithValue(context.Background(), posErr{0}, "parent")
				sl := newSlots(c.n, kValue)
				gate := make(chan struct{})
				for _, s := range sl {
					s.gate = gate
				}
				sl[p-1].kind = kError
				sl[p-1].gate = nil
				var got []any
				var err error
				done := make(chan struct{})
				go func() {
					got, err = c.fn(ctx, sl, KeepGoing, Settled)
					close(done)
				}()
				synctest.Wait() // f_p has failed; the others wait at the gate
				for _, s := range sl {
					if s.i != p && (*s.ctx.Load()).Err() != nil {
						t.Errorf("%s: f%d's ctx was canceled", name, s.i)
					}
				}
				close(gate)
				<-done
				if ps := positions(err); !slices.Equal(ps, []int{p - 1}) {
					t.Fatalf("%s: err = %v; want only f%d", name, err, p)
				}
				checkValues(t, name, got, c.n)
				for _, s := range sl {
					if *s.ctx.Load() != ctx {
						t.Errorf("%s: f%d did not get the caller's ctx", name, s.i)
					}
				}
			})
		}
	}
}

// TestRunParentCanceled: when the caller's ctx is canceled with a cause,
// the error is the context's, with the cause reachable, and a real error
// that comes after is reported first.
func TestRunParentCanceled(t *testing.T) {
	cause := errors.New("shutting down")
	for _, c := range runs() {
		for _, real := range []int{0, 1, c.n} {
			name := fmt.Sprintf("%s/real=%d", c.name, real)
			synctest.Test(t, func(t *testing.T) {
				ctx, cancel := context.WithCancelCause(context.Background())
				sl := newSlots(c.n, kWaitCtx)
				for _, s := range sl[1:] {
					if s.i%2 == 0 {
						s.kind = kWaitCause
					}
				}
				if real > 0 {
					sl[real-1].kind = kError
					sl[real-1].gate = make(chan struct{})
				}
				var err error
				done := make(chan struct{})
				go func() {
					_, err = c.fn(ctx, sl)
					close(done)
				}()
				synctest.Wait()
				cancel(cause)
				synctest.Wait()
				if real > 0 {
					close(sl[real-1].gate)
				}
				<-done
				if !errors.Is(err, context.Canceled) || !errors.Is(err, cause) {
					t.Fatalf("%s: err = %v; want Canceled and the cause", name, err)
				}
				ps := positions(err)
				if real > 0 {
					if !errors.Is(err, posErr{real}) || len(ps) != 2 || ps[0] != real-1 {
						t.Errorf("%s: err = %v, positions %v; want f%d's error then the context's", name, err, ps, real)
					}
				} else if len(ps) != 0 {
					if !slices.Equal(ps, []int{-1}) {
						t.Errorf("%s: positions %v; want only the context error", name, ps)
					}
				}
			})
		}
	}
}

// TestCancellationRule: the ambiguous cases of what is a failure and what
// is a cancellation the call caused. Nothing a function returns is lost:
// each error is either a failure or kept in Canceled or Unfinished.
func TestCancellationRule(t *testing.T) {
	notFound := errors.New("not found")
	// f1 fails with notFound once f2 is running; f2 waits for the
	// cancellation, then returns what the case says.
	for _, c := range []struct {
		name       string
		ret        func(ctx context.Context) error
		report     []int // positions in Failures
		canceled   []int // positions in Canceled
		firstIsF1  bool
		unfinished bool
	}{
		{"ctx.Err", func(ctx context.Context) error { return ctx.Err() }, []int{0}, []int{1}, true, false},
		{"wrapped ctx.Err", func(ctx context.Context) error { return fmt.Errorf("gave up: %w", ctx.Err()) }, []int{0}, []int{1}, true, false},
		{"the cause", func(ctx context.Context) error { return context.Cause(ctx) }, []int{0}, []int{1}, true, false},
		{"wrapped cause", func(ctx context.Context) error { return fmt.Errorf("gave up: %w", context.Cause(ctx)) }, []int{0}, []int{1}, true, false},
		{"same sentinel, on its own", func(context.Context) error { return notFound }, []int{0, 1}, nil, true, false},
		{"its own deadline", func(context.Context) error { return fmt.Errorf("inner: %w", context.DeadlineExceeded) }, []int{0, 1}, nil, true, false},
		{"nil: finished anyway", func(context.Context) error { return nil }, []int{0}, nil, true, false},
	} {
		synctest.Test(t, func(t *testing.T) {
			started := make(chan struct{})
			_, _, err := Run2(context.Background(),
				func(context.Context) (int, error) { <-started; return 0, notFound },
				func(ctx context.Context) (int, error) {
					close(started)
					<-ctx.Done()
					return 0, c.ret(ctx)
				})
			var ce *CallError
			if !errors.As(err, &ce) {
				t.Fatalf("%s: err = %v", c.name, err)
			}
			if got := indexes(ce.Failures); !slices.Equal(got, c.report) {
				t.Errorf("%s: Failures at %v; want %v\n%v", c.name, got, c.report, err)
			}
			if got := indexes(ce.Canceled); !slices.Equal(got, c.canceled) {
				t.Errorf("%s: Canceled at %v; want %v", c.name, got, c.canceled)
			}
			if ce.Ctx != nil || len(ce.Unfinished) > 0 {
				t.Errorf("%s: Ctx = %v, Unfinished = %v; want none: the caller's ctx is fine", c.name, ce.Ctx, ce.Unfinished)
			}
			if strings.Count(err.Error(), "\n")+1 != len(c.report) {
				t.Errorf("%s: message %q; want one line per failure", c.name, err)
			}
		})
	}
	t.Run("Canceled before any failure is a failure", func(t *testing.T) {
		_, _, err := Run2(context.Background(), failWith[int](context.Canceled), immediate[int])
		var ce *CallError
		if !errors.As(err, &ce) || len(ce.Failures) != 1 || !errors.Is(err, context.Canceled) || ce.Ctx != nil {
			t.Errorf("err = %#v; want f1's context.Canceled as a failure", err)
		}
	})
	t.Run("caller's ctx, KeepGoing", func(t *testing.T) {
		ctx, cancel := context.WithCancelCause(context.Background())
		stop := errors.New("shutting down")
		_, _, err := Run2(ctx,
			func(ctx context.Context) (int, error) { cancel(stop); return 0, context.Cause(ctx) },
			func(ctx context.Context) (int, error) { <-ctx.Done(); return 0, ctx.Err() }, KeepGoing)
		var ce *CallError
		if !errors.As(err, &ce) || len(ce.Failures) != 0 || !slices.Equal(indexes(ce.Unfinished), []int{0, 1}) ||
			!errors.Is(err, context.Canceled) || !errors.Is(err, stop) {
			t.Errorf("err = %v; want both positions unfinished, the cancellation and its cause", err)
		}
	})
}
