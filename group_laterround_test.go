//go:build go1.25

package task

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"testing/synctest"
)

// TestLaterRoundDoneCtx: a later round of a group made by NewGroup gets
// the group's context, which the first round's Wait canceled (Group.Wait).
// A child that returns its error makes Wait return an error holding
// context.Canceled, as errgroup's (never nil: the child did not do its
// work); with FirstError, that error itself, never a *CallError; and when
// the caller's ctx ends the round, its error with its cause. Found by the
// fault model's later rounds.
func TestLaterRoundDoneCtx(t *testing.T) {
	laterRound := func(ctx context.Context, opts ...Option) *Group {
		g, _ := NewGroup(ctx, opts...)
		g.Go(func(context.Context) error { return nil })
		if err := g.Wait(); err != nil {
			t.Fatalf("the first round: Wait = %v", err)
		}
		return g
	}
	t.Run("nothing failed", func(t *testing.T) {
		g := laterRound(context.Background())
		g.Go(func(ctx context.Context) error { return ctx.Err() })
		err := g.Wait()
		var ce *CallError
		if !errors.As(err, &ce) || !errors.Is(err, context.Canceled) || len(ce.Canceled) != 1 || len(ce.Failures) != 0 {
			t.Errorf("Wait = %v (%T); want a *CallError holding context.Canceled, the child in Canceled", err, err)
		}
	})
	t.Run("FirstError", func(t *testing.T) {
		g := laterRound(context.Background(), FirstError)
		g.Go(func(ctx context.Context) error { return ctx.Err() })
		if err := g.Wait(); err != context.Canceled {
			t.Errorf("Wait = %v (%T); want context.Canceled itself, as errgroup's", err, err)
		}
	})
	t.Run("the caller's cause", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			g := laterRound(ctx)
			g.SetLimit(2)
			gate := make(chan struct{})
			g.Go(func(ctx context.Context) error { return ctx.Err() })
			g.Go(func(context.Context) error { <-gate; return nil })
			synctest.Wait() // children[0] has returned; children[1] holds a slot
			g.Go(func(context.Context) error { return nil })
			g.Go(func(context.Context) error { return nil }) // waits for a slot
			cancel(errTestCause)                             // the stop leaves children[3] not started
			close(gate)
			if err := g.Wait(); !errors.Is(err, context.Canceled) || !errors.Is(err, errTestCause) {
				t.Errorf("Wait = %q; want the caller's ctx's error with its cause, %q", err, errTestCause)
			}
		})
	})
}

// TestRoundEndChildRace: the goroutine of a limited group's child of Go,
// once its function has returned (or called Goexit), looks for a child
// waiting for its slot; Wait may return, and a Go begin the next round,
// as it does. Found by the fault model's later rounds: on the rounds'
// first design a data race under -race, and now and then a child of the
// next round that did not take a freed slot; then, rarely, under CI's
// stress, a child of the next round refused as not started. The goroutine
// now takes the next child before its own child is counted out (handOff):
// the round cannot end while it looks.
func TestRoundEndChildRace(t *testing.T) {
	for _, zero := range []bool{true, false} {
		for _, exits := range []bool{false, true} {
			for range 1500 {
				g := new(Group)
				if !zero {
					g, _ = NewGroup(context.Background())
				}
				g.SetLimit(1)
				g.Go(func(context.Context) error {
					if exits {
						runtime.Goexit()
					}
					return nil
				})
				if e := endingOf(func() { g.Wait() }); e.exited != exits {
					t.Fatalf("zero Group %v: the first round, whose child exits %v: Wait ended %+v", zero, exits, e)
				}
				for range 3 {
					g.Go(func(context.Context) error { return nil }) // a new round
				}
				if err := g.Wait(); err != nil {
					t.Fatalf("zero Group %v: the second round: Wait = %v", zero, err)
				}
			}
		}
	}
}
