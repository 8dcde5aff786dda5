package task

import (
	"context"
	"testing"
)

// TestRacingStackStartsAtPanickingFrame: TestStackStartsAtPanickingFrame
// for the races, whose panic is raised once every function has returned.
func TestRacingStackStartsAtPanickingFrame(t *testing.T) {
	checkFirstFrames(t, []entryPoint{
		{"Hedge", func(ctx context.Context, fn func(context.Context) error) any {
			return recoverFrom(func() { Hedge(ctx, 0, nil, withValue(fn)) })
		}},
		{"Hedge delay", func(ctx context.Context, fn func(context.Context) error) any {
			return recoverFrom(func() { Hedge(ctx, 1, func(int) {}, withValue(fn), withValue(fn)) })
		}},
		{"Quorum", func(ctx context.Context, fn func(context.Context) error) any {
			return recoverFrom(func() { Quorum(ctx, 2, nil, oneInt, withValue(fn)) })
		}},
		{"Until", func(ctx context.Context, fn func(context.Context) error) any {
			enough := func(vals []int, at []int) bool { return len(vals) == 2 }
			return recoverFrom(func() { Until(ctx, enough, nil, oneInt, withValue(fn)) })
		}},
	})
}
