package task_test

import (
	"context"
	"fmt"
	"time"

	"github.com/tasktuple/task"
)

// A search page over 10 shards with a 200ms budget, rendered from the
// shards that answered. Each shard is a hedged call: its replica is asked
// too if the primary has not answered within 50ms. Shard 3's primary is
// slow but its replica answers; shards 7 and 9 answer from neither in time.
func ExampleMapWithin() {
	ctx := context.Background()
	shards := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	ask := func(shard int, replica bool) func(context.Context) (string, error) {
		return func(ctx context.Context) (string, error) {
			slow := shard == 7 || shard == 9 || shard == 3 && !replica
			if slow {
				<-ctx.Done() // longer than the budget
				return "", context.Cause(ctx)
			}
			if replica {
				return fmt.Sprintf("hits of %d (replica)", shard), nil
			}
			return fmt.Sprintf("hits of %d", shard), nil
		}
	}
	search := func(ctx context.Context, shard int) (string, error) {
		hits, _, err := task.Hedge(ctx, 50*time.Millisecond, nil, ask(shard, false), ask(shard, true))
		return hits, err
	}
	hits, left, err := task.MapWithin(ctx, 200*time.Millisecond, shards, -1, search)
	for i, h := range hits {
		if h != "" {
			fmt.Println(i, h)
		}
	}
	fmt.Println("not in time:", left, err)
	// Output:
	// 0 hits of 0
	// 1 hits of 1
	// 2 hits of 2
	// 3 hits of 3 (replica)
	// 4 hits of 4
	// 5 hits of 5
	// 6 hits of 6
	// 8 hits of 8
	// not in time: [7 9] <nil>
}
