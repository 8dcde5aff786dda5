//go:build go1.25

package task

import (
	"context"
	"errors"
	"slices"
	"testing"
	"testing/synctest"
)

func TestAllOrderAndWaitsForEvery(t *testing.T) {
	for _, order := range orders(6) {
		synctest.Test(t, func(t *testing.T) {
			srcs, tasks := sources(6)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var got []int
			var err error
			done := make(chan struct{})
			go func() { got, err = All(ctx, tasks); close(done) }()
			for k, i := range order {
				synctest.Wait()
				select {
				case <-done:
					t.Fatalf("order %v: All returned after %d completions", order, k)
				default:
				}
				srcs[i].Complete(i*10, nil)
			}
			<-done
			if err != nil || !slices.Equal(got, []int{0, 10, 20, 30, 40, 50}) {
				t.Fatalf("order %v: All = %v, %v", order, got, err)
			}
		})
	}
}

func TestAllErrorsAndSettled(t *testing.T) {
	ctx := context.Background()
	tasks := []*Task[int]{fromResult(1), fromError[int](posErr{1}), fromResult(3), fromError[int](posErr{3})}
	got, err := All(ctx, tasks)
	if got != nil || !errors.Is(err, posErr{1}) || !errors.Is(err, posErr{3}) || !slices.Equal(positions(err), []int{1, 3}) {
		t.Errorf("All = %v, %v (positions %v)", got, err, positions(err))
	}
	got, err = All(ctx, tasks, Settled)
	if !slices.Equal(got, []int{1, 0, 3, 0}) || err == nil {
		t.Errorf("All Settled = %v, %v", got, err)
	}
}

func TestAllEmpty(t *testing.T) {
	ctx := context.Background()
	if got, err := All[int](ctx, nil); got == nil || len(got) != 0 || err != nil {
		t.Errorf("All(nil) = %#v, %v; want empty, nil", got, err)
	}
	if got, err := Map(ctx, []int{}, 1, func(context.Context, int) (int, error) { return 0, nil }); got == nil || err != nil {
		t.Errorf("Map(empty) = %#v, %v", got, err)
	}
}

func TestAllCtxDone(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srcs, tasks := sources(3)
		srcs[0].Complete(5, nil)
		ctx, cancel := context.WithCancelCause(context.Background())
		cause := errors.New("stop")
		go cancel(cause)
		got, err := All(ctx, tasks, Settled)
		if !errors.Is(err, context.Canceled) || !errors.Is(err, cause) || !slices.Equal(got, []int{5, 0, 0}) {
			t.Errorf("All = %v, %v", got, err)
		}
		for _, tk := range tasks {
			if tk.linked() {
				t.Error("a link is left registered after All returned")
			}
		}
		srcs[1].Complete(6, nil)
		srcs[2].Complete(7, nil)
		if got, err := All(context.Background(), tasks); err != nil || !slices.Equal(got, []int{5, 6, 7}) {
			t.Errorf("All after completion = %v, %v", got, err)
		}
	})
}

// TestAllRepeatedCancellable checks the reuse of a sequence's link with a
// task that tasks repeats: woken once, then registered with the next task;
// or unregistered when ctx is done.
func TestAllRepeatedCancellable(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srcs, tasks := lettered("ppqpq")
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var got []int
		var err error
		done := make(chan struct{})
		go func() { got, err = All(ctx, tasks); close(done) }()
		synctest.Wait()
		srcs['p'].Complete(1, nil)
		synctest.Wait()
		srcs['q'].Complete(2, nil)
		<-done
		if want := []int{1, 1, 2, 1, 2}; err != nil || !slices.Equal(got, want) {
			t.Errorf("All = %v, %v; want %v, nil", got, err, want)
		}

		srcs, tasks = lettered("ppqpq")
		done = make(chan struct{})
		go func() { got, err = All(ctx, tasks); close(done) }()
		synctest.Wait()
		cancel()
		<-done
		if !errors.Is(err, context.Canceled) {
			t.Errorf("All with ctx canceled: err = %v; want context.Canceled", err)
		}
		for _, tk := range tasks {
			if tk.linked() {
				t.Fatal("a link is left registered after All returned")
			}
		}
		for _, s := range srcs {
			s.Complete(0, nil)
		}
	})
}
