package task

import (
	"context"
	"iter"
	"reflect"
	"strconv"
)

// WhenEach returns an iterator over tasks in the order they complete,
// yielding each task once with its position in tasks: the counterpart of
// .NET 9's Task.WhenEach. Tasks that completed before the loop began come
// first, in the order of tasks.
//
//	for i, t := range task.WhenEach(ctx, tasks) {
//		v, err := t.Wait(ctx) // complete: does not block
//		...
//	}
//
// The iteration ends when every task has been yielded, when the loop body
// breaks out, or when ctx is done; check ctx.Err() after the loop to tell
// the last case. In every case nothing is left registered with the tasks
// and no goroutine is left behind: WhenEach starts none. The tasks are not
// affected. Each range over the iterator starts again from the beginning.
//
// A nil ctx or task panics when WhenEach is called.
func WhenEach[T any](ctx context.Context, tasks []*Task[T]) iter.Seq2[int, *Task[T]] {
	checkEach(ctx, tasks)
	return func(yield func(int, *Task[T]) bool) {
		whenEach(ctx, tasks, yield)
	}
}

// checkEach panics for a nil ctx or task of WhenEach. It is not generic,
// so that WhenEach stays small enough to inline into a range and the
// iterator stays on the caller's stack: tasks is a []*Task[T], read through
// reflect.
func checkEach(ctx context.Context, tasks any) {
	if ctx == nil {
		nilArg("WhenEach", "ctx")
	}
	l := reflect.ValueOf(tasks)
	for i := range l.Len() {
		if l.Index(i).IsNil() {
			nilArg("WhenEach", "tasks["+strconv.Itoa(i)+"]")
		}
	}
}

// whenEach is the iterator of WhenEach. It keeps neither yield nor its
// watch, so both stay in the caller's frame; the links and the channel of
// the watch are the only allocations, made when a task is pending.
func whenEach[T any](ctx context.Context, tasks []*Task[T], yield func(int, *Task[T]) bool) {
	var w watch
	waiting := 0
	defer w.stop(func(i int) *core { return &tasks[i].core })
	for i, t := range tasks {
		if t.state.Load() == pending {
			if w.links == nil {
				// Capacity len(tasks): every position is sent at most
				// once, so no completion is ever dropped.
				w = newWatch(len(tasks), len(tasks))
			}
			if w.add(i, &t.core) {
				waiting++
				continue
			}
		}
		// Completed before the loop reached it: yield at once.
		if !yield(i, t) {
			return
		}
	}
	for range waiting {
		i, err := w.next(ctx)
		if err != nil || !yield(i, tasks[i]) {
			return
		}
	}
}
