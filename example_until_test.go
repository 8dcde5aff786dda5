package task_test

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/tasktuple/task"
)

// A read that ends as soon as two replicas agree. Replica a answers v7,
// then b answers v6 (it missed a write), then c answers v7: enough. d is
// slow, and is canceled (task.ErrLost) and listed in left.
func ExampleUntil() {
	ctx := context.Background()
	read := func(after time.Duration, v string) func(context.Context) (string, error) {
		return func(ctx context.Context) (string, error) {
			select {
			case <-time.After(after):
				return v, nil
			case <-ctx.Done(): // d, canceled once two agree
				return "", context.Cause(ctx)
			}
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
	vals, at, left, err := task.Until(ctx, twoAgree, nil,
		read(0, "v7"), read(50*time.Millisecond, "v6"), read(100*time.Millisecond, "v7"), read(time.Hour, "v7"))
	fmt.Println(vals, at, left, err)
	// Output: [v7 v6 v7] [0 1 2] [3] <nil>
}
