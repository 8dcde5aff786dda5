package task

import (
	"context"
	"iter"
	"strconv"
	"unsafe"
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
// A range over WhenEach(ctx, tasks) allocates nothing while every task has
// completed, and two objects, whatever the number of tasks, when it waits.
//
// A nil ctx or task panics when WhenEach is called.
func WhenEach[T any](ctx context.Context, tasks []*Task[T]) iter.Seq2[int, *Task[T]] {
	checkEach(ctx, (*[]unsafe.Pointer)(unsafe.Pointer(&tasks)))
	return func(yield func(int, *Task[T]) bool) {
		whenEach(ctx, tasks, yield)
	}
}

// WhenEach must stay within the inliner's budget (80; it costs 79) and its
// iterator must not keep yield: where WhenEach is inlined into a range, the
// compiler sees the iterator and keeps it, the loop body and the body's
// state on the stack, so the range allocates only what whenEach does.
// TestFastPathInlined and TestManyAllocs pin both. Where WhenEach is not
// inlined (called through a func value, or from a function too large to
// inline into), those three are heap objects, and so is tasks, which the
// iterator then captures by reference because checkEach takes its address.
//
// Rejected: calling checkAwaiters, as the other combinators do. With the
// dictionary a generic call passes, WhenEach costs 83; with a generic check
// of tasks alone, 81. Checking in the iterator would panic at the range, not
// at the call. A check through an interface, a method of a named []*Task[T]
// type, fits the budget but allocates the slice header it is given.

// checkEach is checkAwaiters for WhenEach. It is not generic, so calling it
// passes no dictionary: it sees the tasks as pointers of no particular type
// ([]*Task[T] and []unsafe.Pointer have the same layout), enough to tell
// nil.
func checkEach(ctx context.Context, tasks *[]unsafe.Pointer) {
	if ctx == nil {
		nilArg("WhenEach", "ctx")
	}
	for i, t := range *tasks {
		if t == nil {
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
