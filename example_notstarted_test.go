package task_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/tasktuple/task"
)

// At shutdown, the jobs that never started are the ones to put back on
// the queue: NotStartedAt lists their positions, and errors.Is(err,
// task.ErrStopped) says that a stop, not a failure, left them.
func ExampleCallError_NotStartedAt() {
	ctx, cancel := context.WithCancel(context.Background())
	jobs := []string{"j0", "j1", "j2", "j3"}
	started := make(chan struct{})
	go func() { <-started; cancel() }() // SIGTERM, once the first job runs
	_, err := task.Map(ctx, jobs, 1, func(ctx context.Context, job string) (string, error) {
		close(started)
		<-task.Stopping(ctx) // finish this one, take no other
		return job + " done", nil
	}, task.Grace(time.Minute))
	var ce *task.CallError
	if errors.As(err, &ce) {
		for _, i := range ce.NotStartedAt() {
			fmt.Println("requeue", jobs[i])
		}
		fmt.Println(ce.NotStarted, "not started, stopped:", errors.Is(err, task.ErrStopped))
	}
	// Output:
	// requeue j1
	// requeue j2
	// requeue j3
	// 3 not started, stopped: true
}
