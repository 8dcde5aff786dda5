package task

import (
	"context"
	"strconv"
)

// WhenAny waits until one of tasks completes, successfully or not, and
// returns its position: the counterpart of .NET's Task.WhenAny. The tasks are
// not affected; wait for tasks[i] to get its value or error. If several have
// completed already, the first of them in tasks is returned.
//
// If ctx is done first, WhenAny returns -1 and the context's error. With no
// tasks it returns -1 and [ErrNoTasks]. tasks may be a []*Task[T] or a
// []Awaiter of tasks of mixed types. A nil ctx or task panics at once.
//
// WhenAny registers with every pending task, with two allocations whatever
// the number of tasks and no goroutine, and unregisters before it returns.
func WhenAny[A Awaiter](ctx context.Context, tasks []A) (int, error) {
	checkAwaiters("WhenAny", ctx, tasks)
	if len(tasks) == 0 {
		return -1, ErrNoTasks
	}
	for i, t := range tasks {
		if t.awaiter().state.Load() != pending {
			return i, nil
		}
	}
	w := newWatch(len(tasks), 1)
	defer w.stop(func(i int) *core { return tasks[i].awaiter() })
	for i, t := range tasks {
		if !w.add(i, t.awaiter()) {
			return i, nil
		}
	}
	return w.next(ctx)
}

// checkAwaiters panics for a nil ctx or task.
func checkAwaiters[A Awaiter](name string, ctx context.Context, tasks []A) {
	if ctx == nil {
		nilArg(name, "ctx")
	}
	for i, t := range tasks {
		if Awaiter(t) == nil || t.awaiter() == nil {
			nilArg(name, "tasks["+strconv.Itoa(i)+"]")
		}
	}
}

// A watch is a set of links, one per task, sharing one channel. The
// tasks keep pointers to the links, not to the watch: a watch is a value
// in the frame of its call, and its links and channel are its only
// allocations.
type watch struct {
	links []link
	ch    chan int
	added int // links[:added] may be registered: stop looks at no others
}

func newWatch(n, capacity int) watch {
	ch := make(chan int, capacity)
	links := make([]link, n)
	for i := range links {
		links[i] = link{ch: ch, i: i}
	}
	return watch{links: links, ch: ch}
}

// add registers link i with c and reports whether c was still pending.
func (w *watch) add(i int, c *core) bool {
	w.added = i + 1
	return c.register(&w.links[i])
}

// next returns the position of the next task to complete, or the
// context's error.
func (w *watch) next(ctx context.Context) (int, error) {
	d := ctx.Done()
	if d == nil {
		return <-w.ch, nil
	}
	select {
	case i := <-w.ch:
		return i, nil
	case <-ctx.Done():
		return -1, contextError(ctx)
	}
}

// stop unregisters every link still registered.
func (w *watch) stop(at func(int) *core) {
	for i := range w.added {
		at(i).unregister(&w.links[i])
	}
}

// FirstOK waits for the first of tasks to complete successfully and
// returns its value and position: the counterpart of JavaScript's
// Promise.any. The other tasks are left alone: FirstOK did not start them,
// so it neither cancels nor waits for them, and a panic in one of them stays
// in that task for its owner to wait for (see the package documentation).
//
// If every task fails, FirstOK returns -1 and their errors as All does
// (a *[CallError]), raising panics and Goexit as All does. If ctx is done first it
// returns -1 and the context's error. With no tasks it returns [ErrNoTasks].
func FirstOK[T any](ctx context.Context, tasks []*Task[T]) (T, int, error) {
	var zero T
	checkAwaiters("FirstOK", ctx, tasks)
	if len(tasks) == 0 {
		return zero, -1, ErrNoTasks
	}
	for i, t := range tasks {
		if t.state.Load() == succeeded {
			return t.val, i, nil
		}
	}
	w := newWatch(len(tasks), len(tasks))
	defer w.stop(func(i int) *core { return &tasks[i].core })
	failed := 0
	for i, t := range tasks {
		if !w.add(i, &t.core) {
			// Completed since the loop above looked.
			if t.state.Load() == succeeded {
				return t.val, i, nil
			}
			failed++
		}
	}
	for failed < len(tasks) {
		i, err := w.next(ctx)
		if err != nil {
			return zero, -1, gaveUp("FirstOK", "tasks", err, len(tasks), func(i int) *core { return &tasks[i].core })
		}
		if tasks[i].state.Load() == succeeded {
			return tasks[i].val, i, nil
		}
		failed++
	}
	f := newReport("FirstOK", "tasks")
	for i, t := range tasks {
		f.addTask(i, &t.core)
	}
	return zero, -1, f.result(ctx)
}
