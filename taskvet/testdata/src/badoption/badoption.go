package badoption

import (
	"context"
	"iter"
	"time"

	"github.com/tasktuple/task"
)

func double(ctx context.Context, n int) (int, error) { return 2 * n, nil }
func check(ctx context.Context, n int) error         { return nil }
func ok(ctx context.Context) (int, error)            { return 0, nil }
func body(ctx context.Context, g *task.Group) (int, error) {
	return 0, nil
}

var seq iter.Seq[int]

// True positives.

func bad(ctx context.Context, in []int, ts []*task.Task[int], t *task.Task[int], d time.Duration) {
	task.ForEach(ctx, in, 8, check, task.Settled)                                         // want `^task: ForEach: Settled does not apply to ForEach$`
	task.ForEach[int](ctx, in, 8, check, task.KeepGoing, task.Settled)                    // want `^task: ForEach: Settled does not apply to ForEach$`
	task.Map(ctx, in, 1, double, task.BlockAtLimit, task.FirstError, task.StartAll)       // want `^task: Map: BlockAtLimit does not apply to Map$` `^task: Map: StartAll does not apply to Map$`
	task.ForEach(ctx, in, 8, check, []task.Option{task.KeepGoing, task.Settled}...)       // want `^task: ForEach: Settled does not apply to ForEach$`
	task.ForEach(ctx, in, 8, check, ([]task.Option{1: (task.Settled)})...)                // want `^task: ForEach: Settled does not apply to ForEach$`
	task.All(ctx, ts, task.Grace(time.Second))                                            // want `^task: All: Grace does not apply to All$`
	task.All(ctx, ts, task.Grace(d))                                                      // want `^task: All: Grace does not apply to All$`
	task.Run2(ctx, ok, ok, task.Settled, task.BlockAtLimit)                               // want `^task: Run2: BlockAtLimit does not apply to Run2$`
	task.Await2(ctx, t, t, task.KeepGoing)                                                // want `^task: Await2: KeepGoing does not apply to Await2$`
	task.MapWithin(ctx, time.Second, in, 1, double, task.Settled)                         // want `^task: MapWithin: Settled does not apply to MapWithin$`
	task.MapSeq(ctx, seq, 1, double, task.FirstError)                                     // want `^task: MapSeq: FirstError does not apply to MapSeq$`
	task.MapSeqUnordered(ctx, seq, 1, double, task.Settled)                               // want `^task: MapSeqUnordered: Settled does not apply to MapSeqUnordered$`
	task.NewGroup(ctx, task.Settled)                                                      // want `^task: NewGroup: Settled does not apply to NewGroup$`
	task.NewGroup(ctx, task.KeepGoing, task.StartAll)                                     // want `^task: NewGroup: StartAll does not apply with KeepGoing, which starts every child$`
	task.NewGroup(ctx, task.StartAll, task.FirstError, task.KeepGoing)                    // want `^task: NewGroup: StartAll does not apply with KeepGoing, which starts every child$`
	task.Scope(ctx, body, task.KeepGoing, task.Grace(time.Second), task.StartAll)         // want `^task: Scope: StartAll does not apply with KeepGoing, which starts every child$`
	task.Scope(ctx, body, []task.Option{task.StartAll, task.Option{}, task.KeepGoing}...) // want `^task: Scope: StartAll does not apply with KeepGoing, which starts every child$`
	g, _ := task.NewGroup(ctx,
		task.FirstError,
		task.Settled, // want `^task: NewGroup: Settled does not apply to NewGroup$`
	)
	_ = g
}

// Near misses: the options taken, the zero Option, and options that are
// not constant.

func pick(keep bool) task.Option {
	if keep {
		return task.KeepGoing
	}
	return task.Option{}
}

func good(ctx context.Context, in []int, ts []*task.Task[int], keep bool) {
	task.ForEach(ctx, in, 8, check, task.KeepGoing, task.FirstError, task.Grace(time.Second))
	task.ForEach(ctx, in, 8, check, task.Option{})
	opt := task.Settled
	task.ForEach(ctx, in, 8, check, opt)
	opts := []task.Option{task.Settled}
	task.ForEach(ctx, in, 8, check, opts...)
	task.ForEach(ctx, in, 8, check, pick(keep))
	task.All(ctx, ts, task.Settled)
	task.NewGroup(ctx, task.KeepGoing, task.FirstError, task.BlockAtLimit)
	task.NewGroup(ctx, task.StartAll, task.FirstError)
	start := task.StartAll
	task.NewGroup(ctx, task.KeepGoing, start)
	task.Scope(ctx, body, task.Settled, task.StartAll, task.BlockAtLimit)
	forEach := task.ForEach[int]
	forEach(ctx, in, 8, check, task.Settled) // not a call of task.ForEach itself
}
