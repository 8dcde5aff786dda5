package task_test

import (
	"context"
	"fmt"

	"github.com/tasktuple/task"
)

// At a limit of 1, a child spawns a child of its own and waits for it.
// The new child cannot have a slot, since its parent holds the only one,
// so it is queued, and the wait starts it at once, in the waiter's place:
// no deadlock (errgroup's SetLimit blocks the parent's g.Go forever).
func ExampleGroup_SetLimit_nested() {
	n, err := task.Scope(context.Background(), func(ctx context.Context, g *task.Group) (int, error) {
		g.SetLimit(1)
		parent := task.Spawn(g, func(ctx context.Context) (int, error) {
			child := task.Spawn(g, func(ctx context.Context) (int, error) { return 20, nil })
			v, err := child.Wait(ctx) // runs child here
			return v + 1, err
		})
		return parent.Wait(ctx)
	})
	fmt.Println(n, err)
	// Output: 21 <nil>
}
