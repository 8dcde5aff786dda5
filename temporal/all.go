package wtask

import (
	"strconv"

	"go.temporal.io/sdk/workflow"
)

// All waits for every future in futures and returns their values in the
// order of futures, with the rules of AwaitN: every failure is kept as a
// *[task.PositionError] whose Arg is "futures[i]", and if ctx is canceled
// first All returns at once, the futures not ready listed in
// CallError.Unfinished. With [Settled] the values come back along with the
// error. With no futures, All returns an empty slice and nil at once.
//
//	fs := make([]wtask.Future[int64], len(files))
//	for i, f := range files {
//		fs[i] = size.Execute(ctx, f)
//	}
//	sizes, err := wtask.All(ctx, fs)
//
// All starts nothing and cancels nothing; to start many activities with a
// bound on how many run at once, use [Map].
func All[T any](ctx workflow.Context, futures []Future[T], opts ...Option) ([]T, error) {
	if ctx == nil {
		nilArg("All", "ctx")
	}
	for i, f := range futures {
		if f.f == nil {
			zeroFuture("All", "futures["+strconv.Itoa(i)+"]")
		}
	}
	out := make([]T, len(futures))
	ready := true
	for _, f := range futures {
		if !f.f.IsReady() {
			ready = false
			break
		}
	}
	if !ready {
		waitReady(ctx, func() bool {
			for _, f := range futures {
				if !f.f.IsReady() {
					return false
				}
			}
			return true
		})
	}
	fl := newFailures("All", "futures")
	for i, f := range futures {
		out[i] = value(ctx, f, i, &fl)
	}
	err := fl.err(ctx)
	if err != nil && options(opts)&settled == 0 {
		return nil, err
	}
	return out, err
}

// waitReady blocks until ready reports true or ctx is canceled.
func waitReady(ctx workflow.Context, ready func() bool) {
	// The error is ctx's cancellation, seen by the caller in the futures
	// that are not ready.
	_ = workflow.Await(ctx, ready)
}

// value returns the value of the future at position i and records its
// error in fl: a future not ready (ctx was canceled first) is unfinished; a
// CanceledError once ctx is canceled was stopped by ctx; any other error is
// a failure.
func value[T any](ctx workflow.Context, f Future[T], i int, fl *failures) T {
	var v T
	if !f.f.IsReady() {
		fl.unfinished(i)
		return v
	}
	if err := f.f.Get(ctx, &v); err != nil {
		fl.add(i, outcome{err: err, stop: classify(ctx, false, err)})
	}
	return v
}
