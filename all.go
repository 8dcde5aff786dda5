package task

import (
	"context"
	"slices"
	"strconv"
)

// All waits for every task in tasks to complete and returns their values in
// the order of tasks, with the error rules of AwaitN: every failure is kept
// as a *[PositionError] whose Index is the position in tasks, panics and
// Goexit are passed on, and if ctx is done first All returns the context's
// error at once while the tasks keep running. With [Settled] the values of
// completed tasks come back along with the error.
//
// tasks is neither copied nor kept. With no tasks, All returns an empty
// slice and nil at once. A nil ctx or task panics before anything is waited
// for.
func All[T any](ctx context.Context, tasks []*Task[T], opts ...Option) ([]T, error) {
	if ctx == nil {
		nilArg("All", "ctx")
	}
	for i, t := range tasks {
		if t == nil {
			nilArg("All", "tasks["+strconv.Itoa(i)+"]")
		}
	}
	settled := options("All", famAwait, opts)&settled != 0
	var seq sequence
	for _, t := range slices.Backward(tasks) { // see sequence
		if err := seq.wait(ctx, &t.core); err != nil {
			err = gaveUp("All", "tasks", err, len(tasks), func(i int) *core { return &tasks[i].core })
			if !settled {
				return nil, err
			}
			return values(tasks), err
		}
	}
	f := newReport("All", "tasks")
	for i, t := range tasks {
		if t.state.Load() != succeeded {
			f.addTask(i, &t.core)
		}
	}
	err := f.result(ctx)
	if err != nil && !settled {
		return nil, err
	}
	return values(tasks), err
}

// values collects the values of tasks as the Settled option defines them.
func values[T any](tasks []*Task[T]) []T {
	out := make([]T, len(tasks))
	for i, t := range tasks {
		out[i] = t.settled()
	}
	return out
}
