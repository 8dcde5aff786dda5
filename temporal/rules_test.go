package wtask_test

import (
	"errors"
	"testing"
	"time"

	"github.com/tasktuple/task"
	wtask "github.com/tasktuple/task/temporal"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"
)

// The tests in this file pin the core's rules for telling cancellations
// from failures, with the SDK's CanceledError, on functions and timers
// only (no activities), in workflow time.

// TestOwnErrorAfterCancel: a function that returns an error of its own
// after the call canceled it is a failure, not a cancellation: nothing a
// function returns is dropped.
func TestOwnErrorAfterCancel(t *testing.T) {
	t.Parallel()
	var err error
	run(t, nil, func(ctx workflow.Context) error {
		_, _, _, err = wtask.Run3(ctx,
			fail[int](time.Second, errors.New("first")),
			func(ctx workflow.Context) (int, error) {
				_ = workflow.Sleep(ctx, time.Hour) // canceled
				return 0, errors.New("cleanup failed")
			},
			after(time.Hour, 3))
		return nil
	})
	var ce *task.CallError
	if !errors.As(err, &ce) || args(ce.Failures) != "f1 f2" || args(ce.Canceled) != "f3" {
		t.Fatalf("Run3 = %v; want failures f1 f2, f3 canceled", err)
	}
	want := "task: Run3: f1: first\ntask: Run3: f2: cleanup failed"
	if err.Error() != want {
		t.Errorf("Run3 error:\n%s\nwant:\n%s", err, want)
	}
}

// TestOwnCancelBeforeFailure: a CanceledError before anything was canceled
// is a failure of its own.
func TestOwnCancelBeforeFailure(t *testing.T) {
	t.Parallel()
	var err error
	run(t, nil, func(ctx workflow.Context) error {
		_, _, err = wtask.Run2(ctx,
			fail[int](time.Second, temporal.NewCanceledError("gave up")),
			after(time.Minute, 2))
		return nil
	})
	var ce *task.CallError
	if !errors.As(err, &ce) || args(ce.Failures) != "f1" || args(ce.Canceled) != "f2" {
		t.Fatalf("Run2 = %v; want f1 failed, f2 canceled", err)
	}
}

// TestKeepGoing: nothing is canceled, every failure is reported, and with
// Settled the values come back.
func TestKeepGoing(t *testing.T) {
	t.Parallel()
	var err error
	var v2 int
	var sizes []int
	var errMap error
	run(t, nil, func(ctx workflow.Context) error {
		_, v2, _, err = wtask.Run3(ctx,
			fail[int](time.Second, errors.New("a")),
			after(time.Hour, 2),
			fail[int](2*time.Hour, errors.New("c")),
			wtask.KeepGoing, wtask.Settled)
		sizes, errMap = wtask.Map(ctx, []int{1, -2, 3, -4, 5}, 2, func(ctx workflow.Context, n int) (int, error) {
			if err := workflow.Sleep(ctx, time.Duration(n*n)*time.Second); err != nil {
				return 0, err
			}
			if n < 0 {
				return 0, errors.New("negative")
			}
			return n, nil
		}, wtask.KeepGoing, wtask.Settled)
		return nil
	})
	var ce *task.CallError
	if !errors.As(err, &ce) || args(ce.Failures) != "f1 f3" || len(ce.Canceled) != 0 || v2 != 2 {
		t.Errorf("Run3 with KeepGoing = %v, f2 = %d; want failures f1 f3, nothing canceled, f2 = 2", err, v2)
	}
	if !errors.As(errMap, &ce) || args(ce.Failures) != "inputs[1] inputs[3]" || show(sizes) != "[1 0 3 0 5]" {
		t.Errorf("Map with KeepGoing = %v, %v; want failures at inputs[1] and inputs[3], [1 0 3 0 5]", sizes, errMap)
	}
}

// TestAwaitAfterCancel: once ctx is canceled, a ready future that failed
// with a CanceledError was stopped by ctx (Unfinished, with its error), a
// future not ready is unfinished with no error, and a ready failure of
// its own is still a failure.
func TestAwaitAfterCancel(t *testing.T) {
	t.Parallel()
	var err error
	run(t, nil, func(ctx workflow.Context) error {
		f1 := wtask.Go(ctx, after(time.Hour, 1))
		f2, _ := wtask.NewFuture[string](ctx)
		f3, s3 := wtask.NewFuture[float64](ctx)
		s3.SetError(errors.New("own"))
		_, _ = f1.Get(ctx) // returns when the workflow is canceled
		_, _, _, err = wtask.Await3(ctx, f1, f2, f3)
		return nil
	}, func(env *testsuite.TestWorkflowEnvironment) {
		env.RegisterDelayedCallback(env.CancelWorkflow, time.Minute)
	})
	var ce *task.CallError
	if !errors.As(err, &ce) || args(ce.Failures) != "f3" || args(ce.Unfinished) != "f1 f2" {
		t.Fatalf("Await3 = %v; want f3 failed, f1 and f2 unfinished", err)
	}
	if !temporal.IsCanceledError(ce.Unfinished[0].Err) || ce.Unfinished[1].Err != nil || !temporal.IsCanceledError(ce.Ctx) {
		t.Errorf("Unfinished = %v, %v, Ctx = %v; want a CanceledError, nil, and a CanceledError",
			ce.Unfinished[0].Err, ce.Unfinished[1].Err, ce.Ctx)
	}
}

// TestMapStopsOnCancel: without KeepGoing, Map starts nothing once ctx is
// canceled, and says so even when no call was stopped.
func TestMapStopsOnCancel(t *testing.T) {
	t.Parallel()
	var err error
	calls := 0
	run(t, nil, func(ctx workflow.Context) error {
		cctx, cancel := workflow.WithCancel(ctx)
		cancel()
		_, err = wtask.Map(cctx, []int{1, 2, 3, 4}, 1, func(ctx workflow.Context, n int) (int, error) {
			calls++
			return n, nil
		})
		return nil
	})
	var ce *task.CallError
	if !errors.As(err, &ce) || !temporal.IsCanceledError(ce.Ctx) || len(ce.Failures) != 0 || calls != 0 {
		t.Errorf("Map after cancellation = %v, %d calls; want Ctx canceled, no call", err, calls)
	}
}
