package awaiterr

import (
	"context"
	"time"

	"github.com/tasktuple/task"
)

func load(ctx context.Context) (int, error)          { return 1, nil }
func name(ctx context.Context) (string, error)       { return "", nil }
func double(ctx context.Context, n int) (int, error) { return 2 * n, nil }
func seq(yield func(int) bool)                       {}

// True positives.

func dropped(ctx context.Context, t *task.Task[int], ts []*task.Task[int]) {
	t.Wait(ctx)                                                                                // want `the error of Wait is dropped: check it, it holds every failure of the work waited for`
	task.All(ctx, ts)                                                                          // want `the error of task.All is dropped`
	task.Run2(ctx, load, name)                                                                 // want `the error of task.Run2 is dropped`
	defer task.Await2(ctx, t, t)                                                               // want `the error of task.Await2 is dropped`
	v, _ := t.Wait(ctx)                                                                        // want `the error of Wait is dropped`
	a, b, c, _ := task.Await3(ctx, t, t, t)                                                    // want `the error of task.Await3 is dropped`
	vs, _ := task.All(ctx, ts)                                                                 // want `the error of task.All is dropped`
	ms, _ := task.Map(ctx, []int{1}, 2, double)                                                // want `the error of task.Map is dropped`
	r, _ := task.Scope(ctx, func(context.Context, *task.Group) (int, error) { return 1, nil }) // want `the error of task.Scope is dropped`
	w, i, _ := task.Hedge(ctx, 0, nil, load, load)                                             // want `the error of task.Hedge is dropped`
	h, j, _ := task.Hedge(ctx, time.Millisecond, func(int) {}, load, load)                     // want `the error of task.Hedge is dropped`
	var y, z, _ = task.Run2(ctx, load, load)                                                   // want `the error of task.Run2 is dropped`
	for v := range task.MapSeq(ctx, seq, 2, double) {                                          // want `the errors of task.MapSeq are dropped: range over v, err and check err`
		_ = v
	}
	for v, _ := range task.MapSeqUnordered(ctx, seq, 2, double) { // want `the errors of task.MapSeqUnordered are dropped`
		_ = v
	}
	_, _, _, _, _, _, _, _, _, _, _, _, _ = v, a, b, c, vs, ms, r, w, i, h, j, y, z
}

// Near misses.

func checked(ctx context.Context, t *task.Task[int], ts []*task.Task[int]) error {
	if _, err := t.Wait(ctx); err != nil {
		return err
	}
	a, b, err := task.Run2(ctx, load, name)
	_, _ = a, b
	if err != nil {
		return err
	}
	for v, err := range task.MapSeq(ctx, seq, 2, double) {
		if err != nil {
			return err
		}
		_ = v
	}
	for i, t := range task.WhenEach(ctx, ts) { // no error to drop
		_, _ = i, t
	}
	<-t.Done() // not a wait with an error
	select {
	case <-t.Done(): // a probe
	default:
	}
	p, complete := task.Promise[int]() // not a wait
	complete(1, nil)
	_, err = p.Wait(ctx) // assigned
	return err
}
