package task

import (
	"context"
	"slices"

	"github.com/tasktuple/task/internal/probe"
)

// awaitCores is the slow path of every AwaitN: it waits for each task in
// turn (waiting for all of them is waiting for each), returns the context's
// error as soon as ctx is done first, and otherwise joins the outcomes in
// argument order, raising panics and Goexit.
func awaitCores(ctx context.Context, call string, cs []*core) (err error) {
	if p := probe.Load(); p != nil {
		var end func(error)
		ctx, end = p.Call(ctx, call)
		defer func() { end(err) }()
	}
	var seq sequence
	for _, c := range slices.Backward(cs) { // see sequence
		if err := seq.wait(ctx, c); err != nil {
			return gaveUp(call, "t", err, len(cs), func(i int) *core { return cs[i] })
		}
	}
	for _, c := range cs {
		if c.state.Load() != succeeded {
			f := newReport(call, "t")
			for i, c := range cs {
				f.addTask(i, c)
			}
			// The error is set before a panic or Goexit is raised, so
			// that the probes' end of the call sees it.
			err = f.err(ctx)
			f.raise()
			return err
		}
	}
	return nil // the success path: nothing to collect
}

// gaveUp is the error of a call that waits for n tasks when its ctx is done
// first: the context's error, and the tasks not completed yet. Nothing else
// is looked at: the tasks keep running, and a panic stays in its task.
func gaveUp(call, arg string, ctxErr error, n int, at func(int) *core) error {
	f := newReport(call, arg)
	for i := range n {
		if c := at(i); c.state.Load() == pending {
			f.unfinished(i, c.pendingName())
		}
	}
	f.e.Ctx = ctxErr
	return &f.e
}

// settled is the value of t for the Settled option: what its function
// produced if it has completed, else the zero value.
func (t *Task[T]) settled() T {
	if st := t.state.Load(); st == succeeded || st == failed {
		return t.val
	}
	var zero T
	return zero
}

// nilArg panics for a nil argument of a call, in the caller's goroutine.
func nilArg(fn, arg string) {
	panic("task: " + fn + ": " + arg + " is nil")
}
