package badlimit

import (
	"context"
	"time"

	"github.com/tasktuple/task"
)

func double(ctx context.Context, n int) (int, error) { return 2 * n, nil }
func check(ctx context.Context, n int) error         { return nil }
func seq(yield func(int) bool)                       {}

const none = 0

// True positives.

func bad(ctx context.Context, in []int) {
	task.Map(ctx, in, 0, double)                    // want `task.Map with limit 0 panics: the limit must be at least 1, or negative for no limit`
	task.Map(ctx, in, none, double)                 // want `task.Map with limit 0 panics`
	task.ForEach(ctx, in, 0, check)                 // want `task.ForEach with limit 0 panics`
	task.MapWithin(ctx, time.Second, in, 0, double) // want `task.MapWithin with limit 0 panics`
	task.MapSeq(ctx, seq, -1, double)               // want `task.MapSeq with limit -1 panics: a sequence needs a limit of at least 1, the number of calls to run at once`
	task.MapSeqUnordered(ctx, seq, 1-1, double)     // want `task.MapSeqUnordered with limit 0 panics`
	task.Scope(ctx, func(ctx context.Context, g *task.Group) (int, error) {
		g.SetLimit(0) // want `SetLimit\(0\) panics: the limit must be at least 1, or negative for no limit`
		return 0, nil
	})
}

// Near misses: a negative limit is no limit, as errgroup's SetLimit(-1).

func good(ctx context.Context, in []int, n int) {
	task.Map(ctx, in, 1, double)
	task.Map(ctx, in, -1, double)
	task.ForEach(ctx, in, -1, check)
	task.MapWithin(ctx, time.Second, in, -1, double)
	task.Map(ctx, in, len(in), double)
	task.Map(ctx, in, n, double) // not a constant
	task.MapSeq(ctx, seq, 8, double)
	task.Scope(ctx, func(ctx context.Context, g *task.Group) (int, error) {
		g.SetLimit(-1)
		g.SetLimit(4)
		g.SetLimit(n)
		return 0, nil
	})
}
