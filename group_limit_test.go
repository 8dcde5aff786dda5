//go:build go1.25

package task

import (
	"context"
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
