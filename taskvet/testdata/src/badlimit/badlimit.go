package badlimit

import (
	"context"

	"github.com/tasktuple/task"
)

func double(ctx context.Context, n int) (int, error) { return 2 * n, nil }
func seq(yield func(int) bool)                       {}

const none = 0

// True positives.

func bad(ctx context.Context, in []int) {
	task.Map(ctx, in, 0, double)                // want `task.Map with limit 0 panics: the limit must be at least 1; for no limit, pass len\(inputs\)`
	task.Map(ctx, in, none, double)             // want `task.Map with limit 0 panics`
	task.MapSeq(ctx, seq, -1, double)           // want `task.MapSeq with limit -1 panics: the limit must be at least 1, the number of calls to run at once`
	task.MapSeqUnordered(ctx, seq, 1-1, double) // want `task.MapSeqUnordered with limit 0 panics`
	task.Scope(ctx, func(ctx context.Context, g *task.Group) (int, error) {
		g.SetLimit(-1) // want `SetLimit\(-1\) panics: the limit must be at least 1; for no limit, do not call SetLimit`
		return 0, nil
	})
}

// Near misses.

func good(ctx context.Context, in []int, n int) {
	task.Map(ctx, in, 1, double)
	task.Map(ctx, in, len(in), double)
	task.Map(ctx, in, n, double) // not a constant
	task.MapSeq(ctx, seq, 8, double)
	task.Scope(ctx, func(ctx context.Context, g *task.Group) (int, error) {
		g.SetLimit(4)
		g.SetLimit(n)
		return 0, nil
	})
}
