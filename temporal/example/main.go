// Command example runs the core's example as a Temporal workflow: a worker
// and a starter, against a Temporal server. Four activities of different
// result types fan out; one is too slow for its timeout and one fails; the
// workflow's report tells what happened to each. With the dev server
// running (temporal server start-dev), run, from the temporal directory:
//
//	go run ./example
//
// which starts a worker, starts the workflow, prints its report and stops.
// -role worker runs only the worker and -role starter only the starter,
// for two terminals; -address names the server (default localhost:7233,
// or $TEMPORAL_ADDRESS).
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"log/slog"
	"os"
	"os/signal"
	"time"

	"github.com/tasktuple/task/temporal/example/shop"
	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"
)

func main() {
	address := flag.String("address", envOr("TEMPORAL_ADDRESS", client.DefaultHostPort), "the Temporal server's host:port")
	role := flag.String("role", "both", "worker, starter, or both")
	verbose := flag.Bool("v", false, "print the SDK's log (the failing activities log errors)")
	flag.Parse()

	var handler slog.Handler = slog.DiscardHandler
	if *verbose {
		handler = slog.NewTextHandler(os.Stderr, nil)
	}
	c, err := client.Dial(client.Options{
		HostPort: *address,
		Logger:   tlog.NewStructuredLogger(slog.New(handler)),
	})
	if err != nil {
		log.Fatalf("example: cannot reach Temporal at %s (is `temporal server start-dev` running?): %v", *address, err)
	}
	defer c.Close()

	switch *role {
	case "worker":
		w := worker.New(c, shop.TaskQueue, worker.Options{})
		shop.Register(w)
		if err := w.Run(worker.InterruptCh()); err != nil {
			log.Fatal(err)
		}
	case "starter":
		if err := start(c); err != nil {
			log.Fatal(err)
		}
	case "both":
		w := worker.New(c, shop.TaskQueue, worker.Options{})
		shop.Register(w)
		if err := w.Start(); err != nil {
			log.Fatal(err)
		}
		err := start(c)
		w.Stop()
		if err != nil {
			log.Fatal(err)
		}
	default:
		log.Fatalf("example: -role %q: want worker, starter or both", *role)
	}
}

// start runs the Page workflow and prints its report.
func start(c client.Client) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:        fmt.Sprintf("shop-page-%d", time.Now().UnixNano()),
		TaskQueue: shop.TaskQueue,
	}, shop.Page, 7)
	if err != nil {
		return err
	}
	fmt.Printf("workflow %s (run %s)\n\n", run.GetID(), run.GetRunID())
	var lines []string
	if err := run.Get(ctx, &lines); err != nil {
		return err
	}
	for _, l := range lines {
		fmt.Println(l)
	}
	return nil
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
