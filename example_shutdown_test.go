package task_test

import (
	"context"
	"fmt"
	"sync"
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

// Workers that take jobs from a channel until the shutdown: Stopping says
// to take nothing new; ctx.Done, once the grace period has passed, to
// give up.
func ExampleStopping() {
	ctx, cancel := context.WithCancel(context.Background())
	jobs := make(chan int)
	var ready sync.WaitGroup
	ready.Add(2)
	go func() {
		ready.Wait()
		for j := range 3 {
			jobs <- j
		}
		cancel() // the shutdown signal
	}()
	var handled atomic.Int32
	err := task.ForEach(ctx, []string{"w1", "w2"}, 2, func(ctx context.Context, worker string) error {
		ready.Done()
		for {
			select {
			case <-task.Stopping(ctx):
				return nil // finish what is started, take nothing new
			case <-ctx.Done():
				return ctx.Err() // the grace period is over: give up
			case <-jobs:
				handled.Add(1)
			}
		}
	}, task.Grace(time.Minute))
	fmt.Println(handled.Load(), "jobs handled;", err)
	// Output: 3 jobs handled; <nil>
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
