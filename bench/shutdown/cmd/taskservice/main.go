// Command taskservice is the example service of the guide "Shutting down",
// stopped in two phases: an HTTP server and a job queue run in a task.Scope
// with task.Grace. On SIGTERM it stops taking new work (the listener closes,
// the queue refuses jobs, the jobs queued never start and are journaled as
// such), lets the requests and jobs in flight finish within the grace
// period, then cuts what is still running, and exits once everything has
// returned.
//
// It prints its address and a journal of every request and job on stdout,
// as JSON lines (see package shutdown).
package main

import (
	"context"
	"errors"
	"iter"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/tasktuple/task"
	"github.com/tasktuple/task/bench/shutdown"
)

const (
	grace   = 2 * time.Second // how long the work in flight may go on after SIGTERM
	workers = 4               // jobs processed at once
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	s := shutdown.New(os.Stdout)
	s.Listening(ctx, ln.Addr())
	err = run(ctx, ln, s)
	s.Exit(err)
	if err != nil && ctx.Err() == nil {
		os.Exit(1)
	}
}

// run serves HTTP on ln and processes jobs until ctx is done, then stops in
// two phases.
func run(ctx context.Context, ln net.Listener, s *shutdown.Service) error {
	g, ctx := task.NewGroup(ctx, task.Grace(grace))
	srv := &http.Server{
		Handler: s.Handler(),
		// The handlers get the group's context: after SIGTERM it stays
		// alive for the grace period, and task.Stopping(r.Context()) is
		// closed.
		BaseContext: func(net.Listener) context.Context { return ctx },
	}
	g.Go(func(context.Context) error {
		if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	})
	g.Go(func(ctx context.Context) error {
		// The calls of a MapSeqUnordered nested in the group stop with
		// it: no job starts after SIGTERM, the running ones finish.
		process := func(ctx context.Context, j shutdown.Job) (struct{}, error) {
			return struct{}{}, s.Process(ctx, j)
		}
		for _, err := range task.MapSeqUnordered(ctx, jobs(ctx, s), workers, process) {
			if err != nil {
				return err
			}
		}
		return nil
	})
	g.Go(func(ctx context.Context) error {
		select {
		case <-task.Stopping(ctx): // SIGTERM
		case <-ctx.Done(): // a child failed
		}
		// Close the listener and wait for the requests in flight. They have
		// the grace period to finish; then their context is canceled, and
		// they return at once.
		return srv.Shutdown(context.WithoutCancel(ctx))
	})
	return g.Wait()
}

// jobs yields the jobs of the queue as they come, until the service stops:
// then it closes the queue, and the jobs left in it are not started.
func jobs(ctx context.Context, s *shutdown.Service) iter.Seq[shutdown.Job] {
	return func(yield func(shutdown.Job) bool) {
		defer s.StopJobs()
		for {
			select {
			case <-task.Stopping(ctx): // SIGTERM
				return
			case <-ctx.Done(): // a child failed
				return
			case j := <-s.Queue.Jobs():
				if !yield(j) {
					// The call stopped before j started.
					s.NotStarted(j)
					return
				}
			}
		}
	}
}
