package taskdump_test

import (
	"context"
	"testing"

	"github.com/tasktuple/task"
	"github.com/tasktuple/task/taskdump"
)

func returnsNil(context.Context) error { return nil }

// TestEnabledAllocs: with the registry on, a call allocates, beyond what
// it allocates off (one per child of Group.Go, 66 for this Map, pinned in
// the core's tests), at most one slot per function running at once (the
// limit, and the group's ctx) and a few for the call: nothing per child.
func TestEnabledAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	taskdump.Enable()
	ctx := context.Background()
	const n, limit, perCall = 1000, 64, 8
	group := testing.AllocsPerRun(20, func() {
		g, _ := task.NewGroup(ctx)
		g.SetLimit(limit)
		for range n {
			g.Go(returnsNil)
		}
		if err := g.Wait(); err != nil {
			t.Fatal(err)
		}
	})
	if max := float64(1 + n + limit + perCall); group > max {
		t.Errorf("NewGroup, SetLimit(%d), %d Go, Wait: %v allocations with the registry on; want at most %v", limit, n, group, max)
	}
	inputs := make([]int, n)
	m := testing.AllocsPerRun(20, func() {
		if _, err := task.Map(ctx, inputs, limit, func(_ context.Context, i int) (int, error) { return i, nil }); err != nil {
			t.Fatal(err)
		}
	})
	if max := float64(66 + limit + perCall); m > max {
		t.Errorf("Map of %d, limit %d: %v allocations with the registry on; want at most %v", n, limit, m, max)
	}
}
