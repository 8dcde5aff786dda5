package task

import (
	"context"
	"slices"
	"strconv"
)

// An Awaiter is any *[Task], whatever its value type, for the calls that
// wait for tasks without looking at their values. Only *Task implements it.
type Awaiter interface {
	// Done returns a channel that is closed when the task completes.
	Done() <-chan struct{}
	awaiter() *core
}

// WhenAll waits for every task to complete and returns their errors as
// AwaitN does, a *[CallError] in argument order ("task: WhenAll: tasks[1]: ..."): the untyped form of AwaitN, for tasks of
// any mix of types whose values are not needed. tasks may be a slice passed
// as tasks...; it is not copied and not kept. With no tasks, WhenAll returns
// nil at once.
//
// If ctx is done first, WhenAll returns the context's error at once and the
// tasks keep running. Panics and Goexit are passed on as AwaitN does.
func WhenAll(ctx context.Context, tasks ...Awaiter) error {
	if ctx == nil {
		panic("task: WhenAll: ctx is nil")
	}
	ok := true
	for i, t := range tasks {
		var c *core
		if t != nil {
			c = t.awaiter()
		}
		if c == nil {
			panic("task: WhenAll: tasks[" + strconv.Itoa(i) + "] is nil")
		}
		ok = ok && c.state.Load() == succeeded
	}
	if ok {
		return nil // every task has succeeded: one pass, no allocation
	}
	var seq sequence
	for _, t := range slices.Backward(tasks) { // see sequence
		if err := seq.wait(ctx, t.awaiter()); err != nil {
			return gaveUp("WhenAll", "tasks", err, len(tasks), func(i int) *core { return tasks[i].awaiter() })
		}
	}
	f := newReport("WhenAll", "tasks")
	for i, t := range tasks {
		f.addTask(i, t.awaiter())
	}
	return f.result(ctx)
}
