package task

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// The library bugs the fault model found and that were fixed, each kept
// as the minimal reproduction it was reported with (see bugs_test.go for
// those still open).

// TestReceivedUncomparableListedOnce: Scope, "a child's failure that the
// body's error wraps is not listed again", also when the error cannot be
// compared.
func TestReceivedUncomparableListedOnce(t *testing.T) {
	_, err := Scope(context.Background(), func(ctx context.Context, g *Group) (int, error) {
		child := Spawn(g, func(context.Context) (int, error) { return 0, listFailure{"not", "comparable"} })
		_, err := child.Wait(ctx)
		return 0, err // the body received it: its own to report
	})
	var ce *CallError
	if !errors.As(err, &ce) || !slices.Equal(indexes(ce.Failures), []int{-1}) {
		t.Errorf("Scope = %v; want the body's failure alone", err)
	}
}

// TestWaitedChildGoexit: a wait that starts a child waiting for a slot
// behaves as if the child had had one: a Goexit of that child does not end
// the wait before it has waited for its other tasks, and is not listed
// next to the waiter's.
func TestWaitedChildGoexit(t *testing.T) {
	// The body waits with All for a running child that panics late and a
	// child that calls Goexit. Without a limit, All waits for both and
	// raises the panic in the body, the one the Scope raises; at a limit of
	// 1 the second child waits for the slot, and All starts it.
	for _, limit := range []int{NoLimit, 1} {
		var e ending
		synctest.Test(t, func(t *testing.T) {
			e = endingOf(func() {
				Scope(context.Background(), func(ctx context.Context, g *Group) (int, error) {
					g.SetLimit(limit)
					gate := make(chan struct{})
					time.AfterFunc(time.Second, func() { close(gate) })
					panics := Spawn(g, func(context.Context) (int, error) { <-gate; panic("late") })
					exits := Spawn(g, func(context.Context) (int, error) { runtime.Goexit(); return 0, nil })
					All(context.Background(), []*Task[int]{panics, exits})
					return 0, nil
				})
			})
		})
		pe, ok := e.panicVal.(*PanicError)
		switch {
		case !ok:
			t.Errorf("limit %d: Scope ended %+v; want the body's panic", limit, e)
		case pe.Arg != "body" || pe.Others != nil:
			t.Errorf("limit %d: Scope raised the panic of %s, with %v; want the body's, raised by All, with nothing else", limit, pe.Arg, pe.Others)
		}
	}
}
func TestNoStartAfterSeenFailure(t *testing.T) {

	// At a limit of 1, a child holds the slot; All takes its tasks last
	// first: it starts the child that fails, sees it fail, then must not
	// start the other. The race is lost in a few runs of a hundred.
	for range 1000 {
		synctest.Test(t, func(t *testing.T) {
			var started atomic.Bool
			Scope(context.Background(), func(ctx context.Context, g *Group) (int, error) {
				g.SetLimit(1)
				gate := make(chan struct{})
				defer close(gate)
				Spawn(g, func(context.Context) (int, error) { <-gate; return 0, nil })
				later := Spawn(g, func(context.Context) (int, error) { started.Store(true); return 0, nil })
				fails := Spawn(g, func(context.Context) (int, error) { return 0, errors.New("fails") })
				All(context.Background(), []*Task[int]{later, fails})
				return 0, nil
			})
			if started.Load() {
				t.Fatal("a child waiting for a slot started after a failure the wait had seen")
			}
		})
	}
}

func TestPanicAfterStopKeepsStop(t *testing.T) {

	for _, opts := range [][]Option{nil, {Grace(time.Minute)}} {
		var r any
		synctest.Test(t, func(t *testing.T) {
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			r = recoverFrom(func() {
				ForEach(ctx, []int{0, 1}, 1, func(ctx context.Context, i int) error {
					cancel(errTestCause)
					<-Stopping(ctx) // inputs[1] is left by the stop
					panic("after the stop")
				}, opts...)
			})
		})
		pe, ok := r.(*PanicError)
		switch {
		case !ok:
			t.Errorf("ForEach %v: recovered %v; want a *PanicError", opts, r)
		case pe.Others == nil || pe.Others.NotStarted != 1 || !errors.Is(pe, context.Canceled) || !errors.Is(pe, errTestCause):
			t.Errorf("ForEach %v: the panic holds %v; want 1 not started and Canceled with the cause", opts, pe.Others)
		}
	}
}
