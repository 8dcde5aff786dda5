//go:build go1.25

package task

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// TestStartAllCallerCtx: the end of the caller's ctx is not a stop for a
// group with StartAll (only with Grace): every child given to Go, Spawn
// or TryGo after it still starts, with a canceled context, as errgroup's
// do, and so do those queued at the limit and a spawner blocked there by
// BlockAtLimit. With Grace, the end of ctx refuses them.
func TestStartAllCallerCtx(t *testing.T) {
	t.Run("after", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		g, _ := NewGroup(ctx, StartAll)
		cancel()
		var ran, sawCanceled atomic.Int32
		child := func(c context.Context) error {
			ran.Add(1)
			if c.Err() != nil {
				sawCanceled.Add(1)
			}
			return nil
		}
		g.Go(child)
		if !g.TryGo(child) {
			t.Errorf("TryGo after the caller's ctx ended = false")
		}
		tk := Spawn(g, func(c context.Context) (int, error) { return 1, child(c) })
		err := g.Wait()
		if v, terr := tk.Wait(context.Background()); v != 1 || terr != nil {
			t.Errorf("Spawn's task = %v, %v; want 1, nil", v, terr)
		}
		if ran.Load() != 3 || sawCanceled.Load() != 3 || err != nil {
			t.Fatalf("%d children ran, %d with a canceled ctx; Wait = %v; want 3, 3, nil", ran.Load(), sawCanceled.Load(), err)
		}
	})
	t.Run("queued and blocked", func(t *testing.T) {
		for _, block := range []bool{false, true} {
			synctest.Test(t, func(t *testing.T) {
				ctx, cancel := context.WithCancel(context.Background())
				opts := []Option{StartAll}
				if block {
					opts = append(opts, BlockAtLimit)
				}
				g, _ := NewGroup(ctx, opts...)
				g.SetLimit(1)
				gate := make(chan struct{})
				g.Go(func(context.Context) error { <-gate; return nil })
				var ran atomic.Int32
				spawned := make(chan struct{})
				go func() {
					g.Go(func(context.Context) error { ran.Add(1); return nil }) // queued, or blocked
					close(spawned)
				}()
				synctest.Wait()
				cancel()
				synctest.Wait()
				close(gate)
				<-spawned
				if err := g.Wait(); err != nil || ran.Load() != 1 {
					t.Errorf("BlockAtLimit %v: the child given at the limit ran %d times, Wait = %v; want once, nil", block, ran.Load(), err)
				}
			})
		}
	})
	t.Run("grace", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		g, _ := NewGroup(ctx, StartAll, Grace(time.Hour))
		cancel()
		var ran atomic.Bool
		g.Go(func(context.Context) error { ran.Store(true); return nil })
		err := g.Wait()
		var ce *CallError
		if ran.Load() || !errors.As(err, &ce) || ce.NotStarted != 1 {
			t.Fatalf("with Grace: ran %v, Wait = %#v; want the child not started", ran.Load(), err)
		}
	})
}
