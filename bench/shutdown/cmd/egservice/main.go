// Command egservice is the example service of the guide "Shutting down" as
// it is written today, with errgroup.WithContext under signal.NotifyContext:
// on SIGTERM, the context of every request and job is canceled at once.
// http.Server.Shutdown then waits for the handlers (they return at once,
// cut), the workers return, and the jobs still queued are journaled as not
// started.
//
// With -basectx=false the handlers get the server's default context, which
// SIGTERM does not cancel: Shutdown waits for them for up to the grace
// period, but they cannot tell that a stop is under way, and those still
// running at its end are abandoned when the process exits.
//
// It prints its address and a journal of every request and job on stdout,
// as JSON lines (see package shutdown).
package main

import (
	"context"
	"errors"
	"flag"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/tasktuple/task/bench/shutdown"
)

const (
	grace   = 2 * time.Second // how long Shutdown waits for the requests in flight
	workers = 4               // jobs processed at once
)

var baseCtx = flag.Bool("basectx", true, "derive the handlers' context from the signal's (http.Server.BaseContext)")

func main() {
	flag.Parse()
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

// run serves HTTP on ln and processes jobs until ctx is done.
func run(ctx context.Context, ln net.Listener, s *shutdown.Service) error {
	g, ctx := errgroup.WithContext(ctx)
	srv := &http.Server{Handler: s.Handler()}
	if *baseCtx {
		srv.BaseContext = func(net.Listener) context.Context { return ctx }
	}
	g.Go(func() error {
		if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	})
	for range workers {
		g.Go(func() error {
			for {
				select {
				case <-ctx.Done():
					return nil
				case j := <-s.Queue.Jobs():
					s.Process(ctx, j) // journals its end; a failed job does not stop the service
				}
			}
		})
	}
	g.Go(func() error {
		<-ctx.Done()
		s.StopJobs()
		sctx, cancel := context.WithTimeout(context.Background(), grace)
		defer cancel()
		return srv.Shutdown(sctx)
	})
	return g.Wait()
}
