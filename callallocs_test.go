package task

import (
	"context"
	"slices"
	"testing"
	"time"
)

// TestCallAllocs pins the allocations of one whole call of each form, over
// 16 functions, inputs or children that return at once: the per-call
// counts, which the per-child pins (TestGroupGoAllocsOnePerChild,
// TestSpawnAllocsTwoPerChild) subtract away. A count that grows fails here
// even when it is one allocation per call. testing.AllocsPerRun runs at
// GOMAXPROCS 1, where the counts repeat exactly (with two processors a
// wait can find a child not yet run, and then makes its record: see
// docs/guard.md).
func TestCallAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	ctx := context.Background()
	ins := make([]int, 16)
	double := func(_ context.Context, in int) (int, error) { return 2 * in, nil }
	none := func(context.Context, int) error { return nil }
	errOnly := func(context.Context) error { return nil }
	two := func(vals []int, at []int) bool { return len(vals) >= 2 }
	spawnAll := func(limit int) func() {
		return func() {
			Scope(ctx, func(ctx context.Context, g *Group) ([]int, error) {
				g.SetLimit(limit)
				ts := make([]*Task[int], len(ins))
				for i := range ts {
					ts[i] = Spawn(g, immediate[int])
				}
				return All(ctx, ts)
			})
		}
	}
	scopeGo := func(limit int) func() {
		return func() {
			Scope(ctx, func(ctx context.Context, g *Group) (int, error) {
				g.SetLimit(limit)
				for range ins {
					g.Go(returnsNil)
				}
				return 0, nil
			})
		}
	}
	newGroupGo := func(limit int, opts ...Option) func() {
		return func() {
			g, _ := NewGroup(ctx, opts...)
			g.SetLimit(limit)
			for range ins {
				g.Go(returnsNil)
			}
			g.Wait()
		}
	}
	zeroGroupGo := func() {
		var g Group
		for range ins {
			g.Go(returnsNil)
		}
		g.Wait()
	}
	for _, tc := range []struct {
		name string
		want float64
		f    func()
	}{
		{"Run2", 2, func() { Run2(ctx, immediate[int], immediate[string]) }},
		{"Go + Await2", 4, func() { Await2(ctx, Go(ctx, immediate[int]), Go(ctx, immediate[string])) }},
		{"Do of 3", 4, func() { Do(ctx, errOnly, errOnly, errOnly) }},
		{"Map of 16, no limit", 3, func() { Map(ctx, ins, -1, double) }},
		{"Map of 16, limit 8", 3, func() { Map(ctx, ins, 8, double) }},
		{"ForEach of 16, no limit", 3, func() { ForEach(ctx, ins, -1, none) }},
		{"ForEach of 16, limit 8", 3, func() { ForEach(ctx, ins, 8, none) }},
		{"MapSeq of 16, limit 8", 13, func() {
			for range MapSeq(ctx, slices.Values(ins), 8, double) {
			}
		}},
		{"Scope + 16 g.Go, no limit", 17, scopeGo(-1)},
		{"Scope + 16 g.Go, limit 8", 17, scopeGo(8)},
		{"Scope + 16 Spawn + All, no limit", 35, spawnAll(-1)},
		{"Scope + 16 Spawn + All, limit 8", 28, spawnAll(8)},
		{"NewGroup + 16 g.Go + Wait, no limit", 17, newGroupGo(-1)},
		{"NewGroup + 16 g.Go + Wait, limit 8", 17, newGroupGo(8)},
		{"NewGroup + 16 g.Go + Wait, KeepGoing", 17, newGroupGo(-1, KeepGoing)},               // its ctx is the group's, made when looked at
		{"NewGroup + 16 g.Go + Wait, limit 8, BlockAtLimit", 18, newGroupGo(8, BlockAtLimit)}, // the channel that wakes the blocked spawner
		{"zero Group + 16 g.Go + Wait", 17, zeroGroupGo},
		{"Hedge of 3", 38, func() { Hedge(ctx, 0, nil, immediate[int], immediate[int], immediate[int]) }},
		// Hedge's, and the winners' positions and values, and the
		// cleanup of the second winner's context.
		{"Quorum 2 of 3", 42, func() { Quorum(ctx, 2, nil, immediate[int], immediate[int], immediate[int]) }},
		// Quorum's but the count of winners, with the successes' values
		// and positions and what Until has seen of the returns.
		{"Until 2 of 3", 43, func() { Until(ctx, two, nil, immediate[int], immediate[int], immediate[int]) }},
		// Map's: the budget is in Map's allocation, and needs no timer (at one P,
		// every input is taken in the workers' first turn).
		{"MapWithin of 16, no limit", 3, func() { MapWithin(ctx, time.Hour, ins, -1, double) }},
		{"MapWithin of 16, limit 8", 3, func() { MapWithin(ctx, time.Hour, ins, 8, double) }},
	} {
		if got := testing.AllocsPerRun(100, tc.f); got != tc.want {
			t.Errorf("%s: %v allocations a call; want %v", tc.name, got, tc.want)
		}
	}
}
