package task

import "context"

// Until calls every function of fns concurrently until enough, a
// predicate over the successes (two replicas agree), returns true. It calls
// enough on the caller's goroutine after each success, with the successes
// so far in the order they came (vals[j] is the value of fns[at[j]]);
// enough must not keep or change the slices. The rules are [Quorum]'s with
// enough in place of k:
//
//   - When enough returns true, the functions still running are canceled
//     with the cause [ErrLost], and Until returns the successes enough saw,
//     left (the positions whose return it had not taken, ascending) and a
//     nil error.
//   - Failures do not end the call. If enough never returns true, Until
//     returns every success, a nil left, and a *[CallError] with every
//     failure, or, if none failed, an error that wraps [ErrNotEnough], as
//     with no functions.
//   - If ctx is done first, enough is not called again, and a function
//     that ctx stopped makes the error a *CallError with Ctx set.
//   - A panic or Goexit in enough cancels the functions and goes on once
//     they have returned.
//
// release, if not nil, gets the successes Until does not return. A nil
// ctx, enough or function panics before anything starts.
func Until[T any](ctx context.Context, enough func(vals []T, at []int) bool, release func(T), fns ...func(context.Context) (T, error)) (vals []T, at []int, left []int, err error) {
	checkFns("Until", ctx, fns)
	if enough == nil {
		nilArg("Until", "enough")
	}
	if len(fns) == 0 {
		return nil, nil, nil, &notEnoughError{"Until", "no functions"}
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
			r.join(r.outs)     // wait for every function before enough's panic goes on
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
		err = &notEnoughError{"Until", "enough never returned true"}
	}
	return vals, at, nil, err
}
