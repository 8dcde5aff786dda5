//go:build go1.25

package task

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
)

// TestPromiseRace: 50 goroutines race to complete one task, 20 times: one
// winner each time, and every waiter sees the winner's value.
func TestPromiseRace(t *testing.T) {
	for round := range 20 {
		tk, complete := Promise[int]()
		var winners atomic.Int32
		var winner atomic.Int32
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range 50 {
			wg.Go(func() {
				<-start
				if complete(i, nil) {
					winners.Add(1)
					winner.Store(int32(i))
				}
			})
		}
		waiters := make([]int, 10)
		var wwg sync.WaitGroup
		for w := range waiters {
			wwg.Go(func() { waiters[w], _ = tk.Wait(context.Background()) })
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
		if complete(-1, errors.New("late")) {
			t.Fatalf("round %d: a late complete succeeded", round)
		}
		if v, err := tk.Wait(context.Background()); v != int(winner.Load()) || err != nil {
			t.Fatalf("round %d: after a late complete, Wait = %v, %v", round, v, err)
		}
	}
}

// TestPromise: the task is pending until complete is called, and then holds
// what complete was given, the value along with an error.
func TestPromise(t *testing.T) {
	ctx := context.Background()
	tk, complete := Promise[int]()
	select {
	case <-tk.Done():
		t.Fatal("a Promise's task is complete before complete was called")
	default:
	}
	boom := errors.New("boom")
	if !complete(7, boom) {
		t.Fatal("the first complete reported false")
	}
	<-tk.Done()
	if v, err := tk.Wait(ctx); v != 7 || err != boom {
		t.Errorf("Wait = %v, %v; want 7, boom", v, err)
	}
	if complete(8, nil) {
		t.Error("a second complete reported true")
	}
	if v, err := tk.Wait(ctx); v != 7 || err != boom {
		t.Errorf("after a second complete, Wait = %v, %v; want 7, boom", v, err)
	}
}

// TestPromiseAllocs: a Promise is at most its task and its complete
// function (fewer where the compiler keeps one on the stack), and
// completing it and waiting for it allocate nothing more.
func TestPromiseAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under -race")
	}
	ctx := context.Background()
	n := testing.AllocsPerRun(100, func() {
		tk, complete := Promise[int]()
		complete(1, nil)
		tk.Wait(ctx)
	})
	if n > 2 {
		t.Errorf("Promise, complete and Wait: %v allocations; want at most 2", n)
	}
}
