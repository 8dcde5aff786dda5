package task_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/tasktuple/task"
)

// A quorum read: 2 of 3 replicas. Replica a answers first, then c; b is
// slow, and is canceled (task.ErrLost) as soon as the quorum is reached.
func ExampleQuorum() {
	ctx := context.Background()
	read := func(name string, after time.Duration) func(context.Context) (string, error) {
		return func(ctx context.Context) (string, error) {
			select {
			case <-time.After(after):
				return "v7 from " + name, nil
			case <-ctx.Done(): // b, canceled once 2 have answered
				return "", context.Cause(ctx)
			}
		}
	}
	vals, at, err := task.Quorum(ctx, 2, nil, read("a", 0), read("b", time.Hour), read("c", 50*time.Millisecond))
	fmt.Println(vals, at, err)
	// Output: [v7 from a v7 from c] [0 2] <nil>
}

// A quorum write that must reach 2 of 3 replicas fails as soon as 2 have
// failed: the third is canceled, and the error has both failures.
func ExampleQuorum_write() {
	ctx := context.Background()
	down := func(ctx context.Context) (int, error) { return 0, errors.New("replica down") }
	slow := func(ctx context.Context) (int, error) {
		<-ctx.Done() // canceled once 2 of 3 can no longer succeed
		return 0, ctx.Err()
	}
	_, _, err := task.Quorum(ctx, 2, nil, down, down, slow)
	fmt.Println(err)
	// Output:
	// task: Quorum: fns[0]: replica down
	// task: Quorum: fns[1]: replica down
}

// The connection a replica makes after the quorum is closed.
func ExampleQuorum_release() {
	ctx := context.Background()
	conns, at, err := task.Quorum(ctx, 1, func(c *conn) { c.Close() },
		func(ctx context.Context) (*conn, error) { return &conn{"replica-1"}, nil },
		func(ctx context.Context) (*conn, error) {
			<-ctx.Done() // lost, but the dial completes anyway
			return &conn{"replica-2"}, nil
		},
	)
	fmt.Println(conns[0].addr, at, err)
	// Output:
	// closed replica-2
	// replica-1 [0] <nil>
}

// The replicas come from configuration, which may list fewer than the
// quorum needs, or none: the call returns an error a caller can test, and
// calls nothing.
func ExampleQuorum_tooFew() {
	ctx := context.Background()
	read := func(addr string) func(context.Context) (string, error) {
		return func(context.Context) (string, error) { return "v7 from " + addr, nil }
	}
	for _, addrs := range [][]string{{"a", "b", "c"}, {"a"}, nil} {
		var replicas []func(context.Context) (string, error)
		for _, addr := range addrs {
			replicas = append(replicas, read(addr))
		}
		vals, _, err := task.Quorum(ctx, 2, nil, replicas...)
		fmt.Println(len(vals), errors.Is(err, task.ErrNotEnough), err)
	}
	// Output:
	// 2 false <nil>
	// 0 true task: Quorum: k is 2, with 1 function: not enough succeeded
	// 0 true task: Quorum: no functions: not enough succeeded
}
