package task_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/tasktuple/task"
)

// A shutdown in the middle of a batch: the job running finishes, with a
// live context, and the jobs not started never start.
func ExampleGrace() {
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{})
	go func() { <-started; cancel() }() // the shutdown signal, once the first job runs
	jobs := []string{"a", "b", "c"}
	done, err := task.Map(ctx, jobs, 1, func(ctx context.Context, job string) (string, error) {
		close(started)
		<-task.Stopping(ctx)                // the call takes no new job...
		return job + " finished", ctx.Err() // ...and ctx is alive for up to a minute more
	}, task.Grace(time.Minute), task.Settled)
	fmt.Printf("%q\n", done)
	fmt.Println(err)
	// Output:
	// ["a finished" "" ""]
	// task: Map: context canceled
	// task: Map: 2 not started: the call stopped taking new work
}

// A worker that takes jobs from a channel until the shutdown: Stopping
// says to take nothing new; ctx.Done, once the grace period has passed, to
// give up. A select chooses at random among its ready cases, so once the
// stop has come, with jobs still waiting, it may take a job: the worker
// looks at Stopping again before it starts one, and a job taken as the
// stop came is handed back, never started. Here the shutdown comes while
// the third job runs.
func ExampleStopping() {
	ctx, cancel := context.WithCancel(context.Background())
	jobs := make(chan int, 10)
	for j := range 10 {
		jobs <- j
	}
	handled := 0
	handle := func(ctx context.Context, j int) {
		handled++
		if handled == 3 {
			cancel()             // SIGTERM, while the third job runs
			<-task.Stopping(ctx) // the stop has come
		}
	}
	g, _ := task.NewGroup(ctx, task.Grace(time.Minute))
	g.Go(func(ctx context.Context) error {
		for {
			select {
			case <-task.Stopping(ctx):
				return nil // take nothing new
			case <-ctx.Done():
				return ctx.Err() // the grace period is over: give up
			case j := <-jobs:
				select {
				case <-task.Stopping(ctx): // the stop came with the job
					jobs <- j // not started: hand it back
					return nil
				default:
				}
				handle(ctx, j)
			}
		}
	})
	err := g.Wait()
	fmt.Println(handled, "jobs handled,", len(jobs), "left for the next start;", err)
	// Output: 3 jobs handled, 7 left for the next start; <nil>
}

// The source of work has ended (a listener closed): Stop takes no new
// child, and the child waiting for a slot never starts; the one running
// finishes.
func ExampleGroup_Stop() {
	g, _ := task.NewGroup(context.Background())
	g.SetLimit(1)
	release := make(chan struct{})
	g.Go(func(ctx context.Context) error { <-release; fmt.Println("first: finished"); return nil })
	g.Go(func(ctx context.Context) error { fmt.Println("second: never runs"); return nil }) // waits for a slot
	g.Stop()
	close(release)
	fmt.Println(g.Wait())
	// Output:
	// first: finished
	// task: Group: 1 not started: the call stopped taking new work
}

// A function that holds buffered work flushes it on Stopping with a call of
// its own: a call started after the stop is the function's wrap-up, not new
// work, and runs all its inputs (one running when the stop came would take
// no new input).
func ExampleStopping_flush() {
	ctx, cancel := context.WithCancel(context.Background())
	buffered := []string{"a", "b", "c"} // writes batched, not yet sent
	var sent atomic.Int32
	g, _ := task.NewGroup(ctx, task.Grace(time.Minute))
	g.Go(func(ctx context.Context) error {
		<-task.Stopping(ctx) // the shutdown: flush
		return task.ForEach(ctx, buffered, 2, func(ctx context.Context, item string) error {
			sent.Add(1) // send(ctx, item) in real life
			return nil
		})
	})
	cancel() // SIGTERM
	err := g.Wait()
	fmt.Println(sent.Load(), "sent;", err)
	// Output: 3 sent; <nil>
}
