//go:build go1.25

package task

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

// takeUntilStopped is the worker of Stopping's doc and example: it takes
// jobs until the stop, and looks at Stopping again before it starts a job
// it took, which it hands back if the stop came with it.
func takeUntilStopped(ctx context.Context, jobs chan int, handle func(int)) error {
	for {
		select {
		case <-Stopping(ctx):
			return nil
		case <-ctx.Done():
			return ctx.Err()
		case j := <-jobs:
			select {
			case <-Stopping(ctx):
				jobs <- j
				return nil
			default:
			}
			handle(j)
		}
	}
}

// takeInOneSelect is the worker the docs advised before: one select over
// Stopping, ctx.Done() and the jobs.
func takeInOneSelect(ctx context.Context, jobs chan int, handle func(int)) error {
	for {
		select {
		case <-Stopping(ctx):
			return nil
		case <-ctx.Done():
			return ctx.Err()
		case j := <-jobs:
			handle(j)
		}
	}
}

// startsAfterStop runs worker in a group with Grace over 100 jobs that
// wait in a buffered channel, stops the group while the first job runs,
// and reports whether a job started once Stop had returned.
func startsAfterStop(worker func(context.Context, chan int, func(int)) error) bool {
	jobs := make(chan int, 100)
	for j := range 100 {
		jobs <- j
	}
	running := make(chan struct{})
	gate := make(chan struct{})
	var stopped, after atomic.Bool
	g, _ := NewGroup(context.Background(), Grace(time.Hour))
	g.Go(func(ctx context.Context) error {
		return worker(ctx, jobs, func(j int) {
			if stopped.Load() {
				after.Store(true)
			}
			if j == 0 {
				close(running)
				<-gate
			}
		})
	})
	<-running
	g.Stop()
	stopped.Store(true)
	close(gate)
	if err := g.Wait(); err != nil {
		panic(err)
	}
	return after.Load() || len(jobs) != 99
}

// With the pattern of Stopping's doc no job starts once Stop has
// returned, though jobs are still waiting, in 200 stops; with one select,
// as the docs advised before, jobs do (the select takes one at random
// half the time: the check has teeth).
func TestStoppingWorkerTakesNothingAfterStop(t *testing.T) {
	const runs = 200
	late := 0
	for range runs {
		if startsAfterStop(takeUntilStopped) {
			late++
		}
	}
	if late > 0 {
		t.Fatalf("the worker of Stopping's doc started a job after Stop in %d of %d runs", late, runs)
	}
	for range runs {
		if startsAfterStop(takeInOneSelect) {
			late++
		}
	}
	if late == 0 {
		t.Fatalf("one select never started a job after Stop in %d runs; the check cannot fail", runs)
	}
	t.Logf("one select started a job after Stop in %d of %d runs", late, runs)
}

// errors.Is(err, ErrStopped) says that a stop, not a failure, left work
// unstarted (the package doc): true after a stop that left work, false
// after a failure that did, and false after a stop with Grace that left
// nothing unstarted and cut the work running at the end of the grace
// period, which is in Unfinished with ctx's error.
func TestErrStoppedSaysAStopLeftWork(t *testing.T) {
	boom := errors.New("boom")
	for _, tc := range []struct {
		name       string
		fail       bool // the inputs fail; else the caller's ctx is canceled by the first (limit 1) or the last to start
		limit      int
		notStarted int
		errStopped bool
		unfinished int
	}{
		{"a stop that left work", false, 1, 2, true, 0},
		{"a failure that left work", true, 1, 2, false, 0},
		{"a stop that cut every running input and left none", false, -1, 0, false, 3},
	} {
		durably(t, tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var started atomic.Int32
			_, err := Map(ctx, []int{0, 1, 2}, tc.limit, func(ctx context.Context, i int) (int, error) {
				if tc.fail {
					return 0, boom
				}
				if tc.limit == 1 {
					cancel()
					<-Stopping(ctx)
					return i, nil // finished within the grace period
				}
				if started.Add(1) == 3 {
					cancel() // every input has started
				}
				<-ctx.Done() // cut at the end of the grace period
				return 0, ctx.Err()
			}, Grace(time.Second))
			var ce *CallError
			if !errors.As(err, &ce) {
				t.Fatalf("err = %v; want a *CallError", err)
			}
			if ce.NotStarted != tc.notStarted || errors.Is(err, ErrStopped) != tc.errStopped || len(ce.Unfinished) != tc.unfinished || (len(ce.Failures) > 0) != tc.fail {
				t.Fatalf("err = %v: NotStarted %d, ErrStopped %v, %d unfinished, %d failures; want %d, %v, %d, failed %v",
					err, ce.NotStarted, errors.Is(err, ErrStopped), len(ce.Unfinished), len(ce.Failures), tc.notStarted, tc.errStopped, tc.unfinished, tc.fail)
			}
			if tc.unfinished > 0 && !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v; want context.Canceled for the work cut", err)
			}
		})
	}
}
