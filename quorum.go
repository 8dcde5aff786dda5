package task

import (
	"context"
	"strconv"
)

// Quorum calls every function of fns concurrently, each in a new
// goroutine, and returns once k of them have succeeded: their values and
// positions, in the order they succeeded. The rules are [Hedge]'s with k
// winners in place of one:
//
//   - As soon as the k-th success comes, the functions still running are
//     canceled with the cause [ErrLost]; their cancellations are stops,
//     listed in nothing (Quorum returns no error).
//   - As soon as k can no longer be reached (len(fns)-k+1 functions have
//     failed), the others are canceled with that failure as the cause, and
//     Quorum returns nil values and positions and a *[CallError] with every
//     failure ("task: Quorum: fns[i]: ...") and the cancellations in its
//     Canceled. With fewer functions than k, none is called, and the error
//     wraps [ErrNotEnough].
//   - release, if not nil, gets the value of every success Quorum does not
//     return, as Hedge's.
//
// A quorum read of 2 of 3 replicas is Quorum(ctx, 2, nil, r1, r2, r3); a
// quorum write that must reach 2 of 3 fails as soon as 2 have failed.
// Quorum panics if k is less than 1, and for a nil ctx or function, before
// anything starts.
func Quorum[T any](ctx context.Context, k int, release func(T), fns ...func(context.Context) (T, error)) ([]T, []int, error) {
	checkFns("Quorum", ctx, fns)
	if k < 1 {
		panic("task: Quorum: k is " + strconv.Itoa(k) + "; want at least 1")
	}
	if len(fns) < k {
		why := "no functions"
		if n := len(fns); n > 0 {
			why = "k is " + strconv.Itoa(k) + ", with " + strconv.Itoa(n) + " function"
			if n > 1 {
				why += "s"
			}
		}
		return nil, nil, &notEnoughError{"Quorum", why}
	}
	r := newRacer(ctx, kindQuorum, fns)
	r.need = 0 // decided here, not in the functions' goroutines (see race.decide)
	r.release = release
	for i := range fns {
		r.launch(i, true) // every function is called, even after the quorum
	}
	// The rule, applied in the order the functions end: the k-th success
	// wins; the len(fns)-k+1-th failure of its own loses.
	winners := make([]int, 0, k)
	fails, decided := 0, false
	for range fns {
		i := <-r.returned // outs[i] is written and classified before the send
		switch o := &r.outs[i]; {
		case decided:
		case o.state == succeeded:
			winners = append(winners, i)
			if decided = len(winners) == k; decided {
				r.decide(winners)
			}
		case o.ownFailure():
			fails++
			if decided = fails == len(fns)-k+1; decided {
				r.lose(i, o)
			}
		}
	}
	won, err := r.settleRace(nil)
	if won == nil {
		return nil, nil, err
	}
	vals := make([]T, len(won))
	for x, i := range won {
		vals[x] = r.vals[i]
	}
	return vals, won, nil
}
