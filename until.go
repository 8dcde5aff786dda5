package task

import (
	"context"
	"errors"
	"slices"
)

// ErrNotEnough is the error of [Until] when every function returned, none
// failed, and enough never returned true.
var ErrNotEnough = errors.New("task: Until: every function returned and enough never returned true")

// Until calls every function of fns concurrently, each in a new goroutine,
// and passes the successes, as they come, to enough: the call ends as soon
// as enough returns true. It is the policy of a predicate over results:
// two replicas that agree, a score good enough, the first n that pass a
// check. The rules are [Quorum]'s with enough in place of the count k:
//
//   - Until takes the functions' returns one at a time, in the order they
//     came, and calls enough on the caller's goroutine after each success,
//     with the successes taken so far: their values and positions, in that
//     order (vals[j] is the value of fns[at[j]]). It must not keep or
//     change the slices. Failures are not passed to it, and do not end the
//     call.
//   - When enough returns true, the functions still running are canceled
//     with the cause [ErrLost]: their cancellations are stops, not
//     failures. Until returns the successes enough saw, left and a nil
//     error. left holds, in ascending order, the positions of the functions
//     whose return Until had not taken when enough returned true: those
//     canceled, and those that returned while enough was deciding.
//   - If every function returns and enough never returned true, Until
//     returns every success, a nil left, and an error: a *[CallError] with
//     every failure ("task: Until: fns[i]: ..."), or [ErrNotEnough] if none
//     failed.
//   - If the caller's ctx is done first, enough is not called again, and
//     Until ends as above once every function has returned, with the
//     successes enough saw: the error is a *CallError whose Ctx is ctx's
//     error if ctx stopped a function, else as above.
//   - Until returns only after every function has returned; a panic or a
//     Goexit of a function is raised once they all have. A panic or Goexit
//     in enough cancels the functions (with ErrLost) and goes on once they
//     have returned.
//   - release, if not nil, gets the value of every success Until does not
//     return (those in left that succeeded, and those after ctx was done),
//     as [Hedge]'s. Without release such values are dropped.
//   - The contexts of the successes enough saw are not canceled when Until
//     returns.
//
// No functions, a nil ctx, enough or function panics before anything
// starts.
func Until[T any](ctx context.Context, enough func(vals []T, at []int) bool, release func(T), fns ...func(context.Context) (T, error)) (vals []T, at []int, left []int, err error) {
	checkFns("Until", ctx, fns)
	if enough == nil {
		nilArg("Until", "enough")
	}
	r := newRacer(ctx, kindUntil, fns)
	r.need = 0 // no success decides alone: trigger leaves the call to enough
	r.release = release
	for i := range fns {
		r.launch(i, true)
	}
	seen := make([]bool, len(fns))
	vals, at = make([]T, 0, len(fns)), make([]int, 0, len(fns))
	ended := false // the loop ended: no panic or Goexit of enough
	defer func() {
		if !ended {
			r.decide(nil)
			r.join()           // wait for every function before enough's panic goes on
			r.releaseRest(nil) // nothing is returned: every success goes to release
		}
	}()
	decided := false
	for range fns {
		i := <-r.returned // outs[i] and vals[i] are written before the send
		seen[i] = true
		if decided || r.outs[i].state != succeeded || ctx.Err() != nil {
			continue
		}
		vals = append(vals, r.vals[i])
		at = append(at, i)
		if enough(vals, at) {
			decided = true
			for j, s := range seen {
				if !s {
					left = append(left, j)
				}
			}
			r.decide(at)
		}
	}
	ended = true
	won, err := r.settleRace(at)
	if won != nil {
		return vals, at, left, nil
	}
	if err == nil {
		err = ErrNotEnough
	}
	return vals, at, nil, err
}

// decide ends a race that the caller decides (Quorum, Until): won are the
// winners, whose contexts stay alive (nil: none, for a panic or Goexit of
// Until's enough); the others are canceled with the cause ErrLost, as by
// trigger.
func (r *race) decide(won []int) {
	r.lmu.Lock()
	defer r.lmu.Unlock()
	if won != nil {
		r.won = won // the caller appends to it no more
		r.winner.Store(int32(won[len(won)-1]) + 1)
	}
	r.fail(ErrLost)
	for j, l := range r.lanes {
		if l != nil && !slices.Contains(won, j) {
			l.cancel(ErrLost)
		}
	}
}
