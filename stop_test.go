//go:build go1.25

package task

import (
	"context"
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
