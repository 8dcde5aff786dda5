package task_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/tasktuple/task"
)

var errNotFound = errors.New("not found")

// The cancellation rule: f1 fails, so Run3 cancels the context of f2 and
// f3. f2 gives up with the cancellation: it was stopped, and is kept in
// Canceled, out of the message. f3 returns the sentinel f1 failed with,
// on its own: that is a failure of its own, never dropped.
func ExampleCallError_canceled() {
	ctx := context.Background()
	_, _, _, err := task.Run3(ctx,
		func(ctx context.Context) (int, error) { return 0, errNotFound },
		func(ctx context.Context) (string, error) {
			<-ctx.Done()
			return "", ctx.Err()
		},
		func(ctx context.Context) (bool, error) {
			<-ctx.Done()
			return false, errNotFound
		})
	fmt.Println(err)
	var ce *task.CallError
	if errors.As(err, &ce) {
		for _, pe := range ce.Canceled {
			fmt.Println(pe.Arg, "was canceled:", pe.Err)
		}
	}
	// Output:
	// task: Run3: f1: not found
	// task: Run3: f3: not found
	// f2 was canceled: context canceled
}
