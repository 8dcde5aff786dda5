// Command example fans out four calls with different result types to fake
// services, one of which is too slow for its deadline and one of which
// fails, and prints what happened to each. Run it with
//
//	go run ./example
//
// With -debug-addr, it also serves taskdump's page of the calls running
// now, and after the three calls keeps a crawl running for the page to
// show, until interrupted (Ctrl-C: the crawl stops with a grace period,
// which the page shows):
//
//	go run ./example -debug-addr localhost:8080
//	# open http://localhost:8080/debug/tasks/
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/tasktuple/task"
	"github.com/tasktuple/task/taskdump"
)

var debugAddr = flag.String("debug-addr", "", "serve the calls running now at http://`ADDR`/debug/tasks/ (taskdump), and keep a crawl running until interrupted")

type User struct {
	ID   int
	Name string
}

type Order struct {
	ID    string
	Total float64
}

var errNoStock = errors.New("inventory service: 503 Service Unavailable")

func loadUser(ctx context.Context) (User, error) {
	return after(ctx, 20*time.Millisecond, User{ID: 7, Name: "Ada"}, nil)
}

func loadOrders(ctx context.Context) ([]Order, error) {
	return after(ctx, 30*time.Millisecond, []Order{{"A-1", 12.50}, {"A-2", 99.90}}, nil)
}

// loadRecommendations is slow: it gives up when its context is done.
func loadRecommendations(ctx context.Context) ([]string, error) {
	return after(ctx, 2*time.Second, []string{"book", "lamp"}, nil)
}

func loadStock(ctx context.Context) (int, error) {
	return after(ctx, 10*time.Millisecond, 0, errNoStock)
}

// after simulates a call that takes d, or less if ctx is done first.
func after[T any](ctx context.Context, d time.Duration, v T, err error) (T, error) {
	select {
	case <-time.After(d):
		return v, err
	case <-ctx.Done():
		var zero T
		return zero, context.Cause(ctx)
	}
}

func main() {
	flag.Parse()
	ctx := context.Background()
	if *debugAddr != "" {
		serveDebug(*debugAddr)
	}

	fmt.Println("1. Run3: user, orders and recommendations, 100ms budget for the page")
	start := time.Now()
	pageCtx, cancel := context.WithTimeoutCause(ctx, 100*time.Millisecond, errors.New("page budget of 100ms spent"))
	user, orders, recs, err := task.Run3(pageCtx, loadUser, loadOrders, loadRecommendations, task.KeepGoing, task.Settled)
	cancel()
	fmt.Printf("   took %v\n", time.Since(start).Round(10*time.Millisecond))
	fmt.Printf("   user:    %+v\n", user)
	fmt.Printf("   orders:  %+v\n", orders)
	fmt.Printf("   recs:    %q\n", recs)
	report(err)

	fmt.Println()
	fmt.Println("2. Run3: user, orders and stock; stock fails, so the others are canceled")
	start = time.Now()
	user, orders, stock, err := task.Run3(ctx, loadUser, loadOrders, loadStock)
	fmt.Printf("   took %v\n", time.Since(start).Round(10*time.Millisecond))
	fmt.Printf("   user: %+v, orders: %v, stock: %d (zero values: the call failed)\n", user, orders, stock)
	report(err)

	fmt.Println()
	fmt.Println("3. Go now, Await2 later: work started early, gathered when needed")
	tu := task.Go(ctx, loadUser)
	to := task.Go(ctx, loadOrders)
	user, orders, err = task.Await2(ctx, tu, to)
	fmt.Printf("   user: %+v, %d orders, err: %v\n", user, len(orders), err)

	if err != nil {
		os.Exit(1)
	}
	if *debugAddr != "" {
		crawl()
	}
}

// serveDebug enables taskdump and serves its page at addr, as a program
// serves net/http/pprof's.
func serveDebug(addr string) {
	taskdump.Enable()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "-debug-addr:", err)
		os.Exit(2)
	}
	mux := http.NewServeMux()
	mux.Handle("/debug/tasks/", taskdump.Handler())
	go http.Serve(ln, mux)
	fmt.Printf("taskdump: the calls running now at http://%s/debug/tasks/ (JSON: ?format=json)\n\n", ln.Addr())
}

// crawl keeps a fan-out running for the debug page until the program is
// interrupted: a Scope of at most 4 fetches at once, under KeepGoing (one
// page in ten fails, and the crawl goes on), each fetch a Map of its links,
// 2 at once. At the interrupt the crawl takes no new page, and the fetches
// running have 10s of grace to finish.
func crawl() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Println()
	fmt.Println("4. A crawl, for the debug page; Ctrl-C stops it with a grace period of 10s")
	pages, err := task.Scope(ctx, func(ctx context.Context, g *task.Group) (int, error) {
		g.SetLimit(4)
		spawned := 0
		tick := time.NewTicker(300 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-task.Stopping(ctx):
				return spawned, nil
			case <-tick.C:
			}
			page := spawned
			g.Go(task.NamedErr(fmt.Sprintf("page-%d", page), func(ctx context.Context) error {
				if page%10 == 7 {
					_, err := after(ctx, 500*time.Millisecond, 0, errors.New("crawler: 503 Service Unavailable"))
					return err
				}
				return task.ForEach(ctx, []int{1, 2, 3, 4, 5}, 2, func(ctx context.Context, link int) error {
					_, err := after(ctx, time.Duration(300*(link+page%3))*time.Millisecond, 0, nil)
					return err
				})
			}))
			spawned++
		}
	}, task.KeepGoing, task.Settled, task.Grace(10*time.Second))
	fmt.Printf("   %d pages spawned\n", pages)
	report(err)
}

// report prints the error as the library words it, one line per failure,
// each naming the call and the argument.
func report(err error) {
	if err == nil {
		fmt.Println("   error:   none")
		return
	}
	for _, line := range strings.Split(err.Error(), "\n") {
		fmt.Println("   error:  ", line)
	}
	var ce *task.CallError
	if errors.As(err, &ce) && len(ce.Canceled) > 0 {
		fmt.Printf("   (%d sibling(s) canceled because of the failure, kept in CallError.Canceled)\n", len(ce.Canceled))
	}
}
