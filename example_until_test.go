package task_test

import (
	"context"
	"fmt"
	"slices"

	"github.com/tasktuple/task"
)

// A read that ends as soon as two replicas agree. Replica a answers v7,
// then b answers v6 (it missed a write), then c answers v7: enough. d is
// slow, and is canceled (task.ErrLost) and listed in left.
func ExampleUntil() {
	ctx := context.Background()
	answered := map[string]chan struct{}{"a": make(chan struct{}), "b": make(chan struct{})}
	read := func(name, after, v string) func(context.Context) (string, error) {
		return func(ctx context.Context) (string, error) {
			if after == "never" {
				<-ctx.Done() // the slow replica
				return "", context.Cause(ctx)
			}
			if after != "" {
				<-answered[after]
			}
			if ch, ok := answered[name]; ok {
				defer close(ch)
			}
			return v, nil
		}
	}
	twoAgree := func(vals []string, at []int) bool {
		for i, v := range vals {
			if slices.Contains(vals[i+1:], v) {
				return true
			}
		}
		return false
	}
	vals, at, left, err := task.Until(ctx, twoAgree,
		read("a", "", "v7"), read("b", "a", "v6"), read("c", "b", "v7"), read("d", "never", "v7"))
	fmt.Println(vals, at, left, err)
	// Output: [v7 v6 v7] [0 1 2] [3] <nil>
}
