// Command example fans out four calls with different result types to fake
// services, one of which is too slow for its deadline and one of which
// fails, and prints what happened to each. Run it with
//
//	go run ./example
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/tasktuple/task"
)

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
	ctx := context.Background()

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
