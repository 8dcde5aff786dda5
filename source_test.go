package task

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
)

// TestSourceRace: 50 goroutines race to complete one task, 20 times: one
// winner each time, and every waiter sees the winner's value.
func TestSourceRace(t *testing.T) {
	for round := range 20 {
		src := newSource[int]()
		var winners atomic.Int32
		var winner atomic.Int32
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range 50 {
			wg.Go(func() {
				<-start
				if src.Complete(i, nil) {
					winners.Add(1)
					winner.Store(int32(i))
				}
			})
		}
		waiters := make([]int, 10)
		var wwg sync.WaitGroup
		for w := range waiters {
			wwg.Go(func() { waiters[w], _ = src.Task().Wait(context.Background()) })
		}
		close(start)
		wg.Wait()
		wwg.Wait()
		if n := winners.Load(); n != 1 {
			t.Fatalf("round %d: %d winners; want 1", round, n)
		}
		for w, v := range waiters {
			if v != int(winner.Load()) {
				t.Fatalf("round %d: waiter %d saw %d; winner was %d", round, w, v, winner.Load())
			}
		}
		if src.Complete(-1, errors.New("late")) {
			t.Fatalf("round %d: a late Complete succeeded", round)
		}
		if v, err := src.Task().Wait(context.Background()); v != int(winner.Load()) || err != nil {
			t.Fatalf("round %d: after a late Complete, Wait = %v, %v", round, v, err)
		}
	}
}
