package task_test

import (
	"context"
	"fmt"
	"time"

	"github.com/tasktuple/task"
)

// A conn is a fake connection.
type conn struct{ addr string }

func (c *conn) Close() error {
	fmt.Println("closed", c.addr)
	return nil
}

// Two replicas are dialed; the second one's connection is made after the
// first has won, and release closes it.
func ExampleHedge_releaseAll() {
	ctx := context.Background()
	c, i, err := task.Hedge(ctx, 0, func(c *conn) { c.Close() },
		func(ctx context.Context) (*conn, error) { return &conn{"replica-1"}, nil },
		func(ctx context.Context) (*conn, error) {
			<-ctx.Done() // lost (task.ErrLost), but the dial completes anyway
			return &conn{"replica-2"}, nil
		},
	)
	fmt.Println(c.addr, i, err)
	// Output:
	// closed replica-2
	// replica-1 0 <nil>
}

// The first replica is slow; the hedge, started 1ms later, wins, and the
// connection the first makes anyway is closed.
func ExampleHedge_release() {
	ctx := context.Background()
	c, i, err := task.Hedge(ctx, time.Millisecond, func(c *conn) { c.Close() },
		func(ctx context.Context) (*conn, error) {
			<-ctx.Done() // lost: the hedge won
			return &conn{"replica-1"}, nil
		},
		func(ctx context.Context) (*conn, error) { return &conn{"replica-2"}, nil },
	)
	fmt.Println(c.addr, i, err)
	// Output:
	// closed replica-1
	// replica-2 1 <nil>
}
