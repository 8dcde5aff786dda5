package task

import (
	"context"
	"time"
)

// Hedge runs replicas and returns the value and position of the first to
// succeed. It starts fns[0] at once, then each next function when delay has
// passed since the last one started, or at once when a running one fails,
// until one succeeds, ctx is done, or all have started; with a delay of 0
// all start at once, each in a new goroutine. A function never started is
// in no error.
//
// As soon as one succeeds, the others' contexts are canceled with the cause
// [ErrLost]; the winner's lives on after Hedge returns, until ctx ends.
// Hedge returns once every function it started has returned. If every
// function fails, the position is -1 and the error a *[CallError] with
// every failure ("task: Hedge: fns[1]: ..."); with no functions, an error
// that wraps [ErrNotEnough].
//
// release, if not nil, is called with the value of every function that
// succeeded but did not win, on the caller's goroutine, in argument order,
// before Hedge returns. A panic in release is raised, as a *[PanicError]
// whose Arg is "release", once every release has run, unless a function
// panicked.
//
// A negative delay, a nil ctx or a nil function panics before anything
// starts.
func Hedge[T any](ctx context.Context, delay time.Duration, release func(T), fns ...func(context.Context) (T, error)) (T, int, error) {
	checkFns("Hedge", ctx, fns)
	if delay < 0 {
		panic("task: Hedge: delay is " + delay.String() + "; want 0 or more")
	}
	if len(fns) == 0 {
		var zero T
		return zero, -1, &notEnoughError{"Hedge", "no functions"}
	}
	r := newRacer(ctx, kindHedge, fns)
	r.release = release
	if delay == 0 {
		for i := range fns {
			r.launch(i, true) // every function is called, even after a win
		}
		return r.result()
	}
	r.launch(0, false)
	if len(fns) > 1 {
		r.stagger(ctx, delay)
	}
	return r.result()
}

// stagger starts the functions after the first, one each delay, or at once
// when one fails, until one succeeds or ctx is done.
func (r *racer[T]) stagger(ctx context.Context, delay time.Duration) {
	timer := time.NewTimer(delay)
	defer timer.Stop()
	for next := 1; next < len(r.fns); next++ {
		select {
		case <-timer.C:
		case i := <-r.returned:
			if r.outs[i].state == succeeded { // written before the send
				return
			}
		case <-ctx.Done():
			return
		}
		if !r.launch(next, false) {
			return
		}
		timer.Reset(delay)
	}
}

// result waits for every started function and returns the winner, or the
// failures. The winner's context is left alive, for a cleanup to release.
func (r *racer[T]) result() (T, int, error) {
	won, err := r.settleRace(nil)
	if len(won) > 0 {
		return r.vals[won[0]], won[0], nil
	}
	var zero T
	return zero, -1, err
}
