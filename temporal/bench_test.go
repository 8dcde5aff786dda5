package wtask_test

import (
	"context"
	"errors"
	"testing"
	"time"

	wtask "github.com/tasktuple/task/temporal"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

// The benchmarks run inside one workflow in the SDK's test environment:
// the workflow runs the b.N loop, so each iteration costs what the call
// costs in a workflow, without the environment's setup. Each pairs this
// package (impl=wtask) with the SDK code that does the same by hand
// (impl=sdk). docs/benchmarks-temporal.md has the figures.

// bench runs body b.N times in a workflow.
func bench(b *testing.B, body func(ctx workflow.Context, n int) error) {
	env := newEnv()
	// The loop of a benchmark of ready futures never yields: lift the
	// deadlock detector's limit of one second per workflow task.
	env.SetWorkerOptions(worker.Options{DeadlockDetectionTimeout: time.Hour})
	env.RegisterActivity(echo)
	env.RegisterWorkflowWithOptions(func(ctx workflow.Context) error {
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
			StartToCloseTimeout: time.Minute,
			RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 1},
		})
		b.ReportAllocs()
		b.ResetTimer()
		err := body(ctx, b.N)
		b.StopTimer()
		return err
	}, workflow.RegisterOptions{Name: "bench"})
	env.ExecuteWorkflow("bench")
	if err := env.GetWorkflowError(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkAwait16 awaits 16 ready futures of four types.
func BenchmarkAwait16(b *testing.B) {
	b.Run("impl=wtask", func(b *testing.B) {
		bench(b, func(ctx workflow.Context, n int) error {
			f1, f2, f3, f4 := ready(ctx, 1), ready(ctx, "2"), ready(ctx, 3.0), ready(ctx, point{4, 4})
			for range n {
				_, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, err := wtask.Await16(ctx,
					f1, f2, f3, f4, f1, f2, f3, f4, f1, f2, f3, f4, f1, f2, f3, f4)
				if err != nil {
					return err
				}
			}
			return nil
		})
	})
	b.Run("impl=sdk", func(b *testing.B) {
		bench(b, func(ctx workflow.Context, n int) error {
			f1, f2, f3, f4 := ready(ctx, 1).Untyped(), ready(ctx, "2").Untyped(), ready(ctx, 3.0).Untyped(), ready(ctx, point{4, 4}).Untyped()
			for range n {
				if err := await16SDK(ctx, f1, f2, f3, f4); err != nil {
					return err
				}
			}
			return nil
		})
	})
}

// await16SDK is Await16 of four futures, four times each, written against
// the SDK: a variable and a Get per future, the first error returned.
func await16SDK(ctx workflow.Context, f1, f2, f3, f4 workflow.Future) error {
	var (
		v1, v5, v9, v13  int
		v2, v6, v10, v14 string
		v3, v7, v11, v15 float64
		v4, v8, v12, v16 point
	)
	for _, g := range []struct {
		f workflow.Future
		v any
	}{
		{f1, &v1}, {f2, &v2}, {f3, &v3}, {f4, &v4},
		{f1, &v5}, {f2, &v6}, {f3, &v7}, {f4, &v8},
		{f1, &v9}, {f2, &v10}, {f3, &v11}, {f4, &v12},
		{f1, &v13}, {f2, &v14}, {f3, &v15}, {f4, &v16},
	} {
		if err := g.f.Get(ctx, g.v); err != nil {
			return err
		}
	}
	return nil
}

// ready returns a ready future of v.
func ready[T any](ctx workflow.Context, v T) wtask.Future[T] {
	f, s := wtask.NewFuture[T](ctx)
	s.SetValue(v)
	return f
}

// echo is the benchmarks' activity.
func echo(_ context.Context, n int) (int, error) { return n, nil }

// BenchmarkRun16 runs 16 activities with fail-fast: Run16, against the
// Selector code the SDK's split/merge sample starts from, completed with
// what Run16 does (cancel the others on the first failure, wait for them
// all, every error kept) (impl=sdk), and against the same with a coroutine
// per activity, as the SDK's goroutine sample does (impl=sdk-go), which is
// how Run16 runs its functions.
func BenchmarkRun16(b *testing.B) {
	b.Run("impl=wtask", func(b *testing.B) {
		e := wtask.NewActivity(echo)
		var fs [16]func(workflow.Context) (int, error)
		for i := range fs {
			fs[i] = e.Bind(i)
		}
		bench(b, func(ctx workflow.Context, n int) error {
			for range n {
				_, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, err := wtask.Run16(ctx,
					fs[0], fs[1], fs[2], fs[3], fs[4], fs[5], fs[6], fs[7],
					fs[8], fs[9], fs[10], fs[11], fs[12], fs[13], fs[14], fs[15])
				if err != nil {
					return err
				}
			}
			return nil
		})
	})
	b.Run("impl=sdk-go", func(b *testing.B) {
		bench(b, func(ctx workflow.Context, n int) error {
			for range n {
				if _, err := run16SDKGo(ctx); err != nil {
					return err
				}
			}
			return nil
		})
	})
	b.Run("impl=sdk", func(b *testing.B) {
		bench(b, func(ctx workflow.Context, n int) error {
			for range n {
				if _, err := run16SDK(ctx); err != nil {
					return err
				}
			}
			return nil
		})
	})
}

// run16SDK is Run16 of the echo activity written against the SDK: a
// cancelable context with WaitForCancellation (the drain), a Selector over
// the futures, the first failure cancels the rest, and the loop goes on
// until every future is ready.
func run16SDK(ctx workflow.Context) ([16]int, error) {
	var out [16]int
	cctx, cancel := workflow.WithCancel(ctx)
	defer cancel()
	cctx = workflow.WithWaitForCancellation(cctx, true)
	sel := workflow.NewSelector(ctx)
	errs := make([]error, 16)
	failed := false
	for i := range out {
		f := workflow.ExecuteActivity(cctx, echo, i)
		sel.AddFuture(f, func(f workflow.Future) {
			if err := f.Get(ctx, &out[i]); err != nil {
				if !failed && !temporal.IsCanceledError(err) {
					failed = true
					cancel()
				}
				errs[i] = err
			}
		})
	}
	for range out {
		sel.Select(ctx)
	}
	if err := errors.Join(errs...); err != nil {
		return [16]int{}, err
	}
	return out, nil
}

// run16SDKGo is run16SDK with a coroutine per activity and a WaitGroup.
func run16SDKGo(ctx workflow.Context) ([16]int, error) {
	var out [16]int
	cctx, cancel := workflow.WithCancel(ctx)
	defer cancel()
	cctx = workflow.WithWaitForCancellation(cctx, true)
	wg := workflow.NewWaitGroup(ctx)
	errs := make([]error, 16)
	failed := false
	for i := range out {
		wg.Add(1)
		workflow.Go(cctx, func(ctx workflow.Context) {
			defer wg.Done()
			if err := workflow.ExecuteActivity(ctx, echo, i).Get(ctx, &out[i]); err != nil {
				if !failed && !temporal.IsCanceledError(err) {
					failed = true
					cancel()
				}
				errs[i] = err
			}
		})
	}
	wg.Wait(ctx)
	if err := errors.Join(errs...); err != nil {
		return [16]int{}, err
	}
	return out, nil
}
