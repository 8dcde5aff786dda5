//go:build go1.25

package task

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"testing/synctest"
)

// At the limit, Spawn and Go return and their child waits for a slot
// (Spawn's doc); with BlockAtLimit they block until a slot is free.
func TestSpawnAtLimit(t *testing.T) {
	for _, block := range []bool{false, true} {
		for _, form := range []string{"Spawn", "Go"} {
			name := form
			var opts []Option
			if block {
				name, opts = form+" with BlockAtLimit", []Option{BlockAtLimit}
			}
			durably(t, name, func(t *testing.T) {
				g, _ := NewGroup(context.Background(), opts...)
				g.SetLimit(1)
				release := make(chan struct{})
				g.Go(func(context.Context) error { <-release; return nil })
				var ran atomic.Bool
				returned := make(chan struct{})
				go func() {
					if form == "Spawn" {
						Spawn(g, func(context.Context) (int, error) { ran.Store(true); return 0, nil })
					} else {
						g.Go(func(context.Context) error { ran.Store(true); return nil })
					}
					close(returned)
				}()
				synctest.Wait()
				g.mu.Lock()
				queued := g.lim.queued
				g.mu.Unlock()
				select {
				case <-returned:
					if block {
						t.Fatalf("%s returned at the limit", name)
					}
					if queued != 1 || ran.Load() {
						t.Fatalf("%s: %d waiting for a slot, ran %v; want 1, false", name, queued, ran.Load())
					}
				default:
					if !block {
						t.Fatalf("%s blocked at the limit", name)
					}
					if queued != 0 {
						t.Fatalf("%s: %d waiting for a slot; want none (the caller blocks)", name, queued)
					}
				}
				close(release)
				<-returned
				if err := g.Wait(); err != nil || !ran.Load() {
					t.Fatalf("%s: Wait = %v, ran %v; want nil, true", name, err, ran.Load())
				}
			})
		}
	}
}

// A child that fails frees its slot: a spawner that takes that slot must
// find the failure, and start nothing (SetLimit: after a failure that
// cancels the group, a child never starts). The spawner's Go races with
// the failure here; in whatever order they come, B never runs: before the
// failure, Go blocks at the limit (BlockAtLimit) or queues B, and after it
// refuses B.
func TestFailedSlotStartsNothing(t *testing.T) {
	errA := errors.New("A failed")
	for _, block := range []bool{false, true} {
		var opts []Option
		if block {
			opts = []Option{BlockAtLimit}
		}
		for range 3000 {
			g, _ := NewGroup(context.Background(), opts...)
			g.SetLimit(1)
			gate := make(chan struct{})
			g.Go(func(context.Context) error { <-gate; return errA })
			var ran atomic.Bool
			close(gate)
			g.Go(func(context.Context) error { ran.Store(true); return nil })
			if err := g.Wait(); !errors.Is(err, errA) || ran.Load() {
				t.Fatalf("BlockAtLimit %v: Wait = %v, B ran %v; want A's failure, false", block, err, ran.Load())
			}
		}
	}
}
