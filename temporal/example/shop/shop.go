// Package shop is the workflow and the activities of the Temporal example:
// the core's example (go run ./example at the repository root) as a
// workflow. Four calls of different result types fan out to activities;
// one is too slow for its timeout and one fails.
package shop

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tasktuple/task"
	wtask "github.com/tasktuple/task/temporal"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

// TaskQueue is the task queue the example's worker polls.
const TaskQueue = "tasktuple-shop"

// User, Order and the others are the activities' results: they cross the
// network, so they are plain data that JSON encodes.
type User struct {
	ID   int
	Name string
}

type Order struct {
	ID    string
	Total float64
}

// Activities are the example's activities, faking remote services. A
// workflow references them through a nil *Activities; the worker registers
// a real one.
type Activities struct{}

func (*Activities) LoadUser(ctx context.Context, id int) (User, error) {
	return after(ctx, 20*time.Millisecond, User{ID: id, Name: "Ada"}, nil)
}

func (*Activities) LoadOrders(ctx context.Context, userID int) ([]Order, error) {
	return after(ctx, 30*time.Millisecond, []Order{{"A-1", 12.50}, {"A-2", 99.90}}, nil)
}

// SlowOrders is LoadOrders on a bad day: it takes five seconds.
func (*Activities) SlowOrders(ctx context.Context, userID int) ([]Order, error) {
	return after(ctx, 5*time.Second, []Order{{"A-1", 12.50}, {"A-2", 99.90}}, nil)
}

// LoadRecommendations is slow: it takes five seconds, more than its
// StartToClose timeout.
func (*Activities) LoadRecommendations(ctx context.Context, userID int) ([]string, error) {
	return after(ctx, 5*time.Second, []string{"book", "lamp"}, nil)
}

// LoadStock fails: the inventory service is down.
func (*Activities) LoadStock(ctx context.Context, sku string) (int, error) {
	return after(ctx, 10*time.Millisecond, 0,
		temporal.NewNonRetryableApplicationError("inventory service: 503 Service Unavailable", "Unavailable", nil))
}

// after simulates a call that takes d, heartbeating so that a cancellation
// reaches it, or less if ctx is done first.
func after[T any](ctx context.Context, d time.Duration, v T, err error) (T, error) {
	deadline := time.After(d)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-deadline:
			return v, err
		case <-tick.C:
			if activity.IsActivity(ctx) {
				activity.RecordHeartbeat(ctx)
			}
		case <-ctx.Done():
			var zero T
			return zero, ctx.Err()
		}
	}
}

var (
	acts                *Activities
	loadUser            = wtask.NewActivity(acts.LoadUser)
	loadOrders          = wtask.NewActivity(acts.LoadOrders)
	slowOrders          = wtask.NewActivity(acts.SlowOrders)
	loadRecommendations = wtask.NewActivity(acts.LoadRecommendations)
	loadStock           = wtask.NewActivity(acts.LoadStock)
)

// Page is the workflow: the three fan-outs of the core's example, with
// what happened written into the report it returns.
func Page(ctx workflow.Context, userID int) ([]string, error) {
	var out report
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 10 * time.Second,
		// A cancellation reaches an activity with its next heartbeat,
		// which the SDK sends at most every 80% of this timeout.
		HeartbeatTimeout: time.Second,
		// One attempt, so that the failures show at once; real code keeps
		// the default retries for transient errors.
		RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 1},
	})

	out.say("1. Run3: user, orders and recommendations; recommendations have a 1s StartToClose timeout")
	start := workflow.Now(ctx)
	user, orders, recs, err := wtask.Run3(ctx,
		loadUser.Bind(userID),
		loadOrders.Bind(userID),
		func(ctx workflow.Context) ([]string, error) {
			// Derive from the ctx the function gets, never from the
			// workflow's: each coroutine blocks on its own context.
			return loadRecommendations.Run(workflow.WithStartToCloseTimeout(ctx, time.Second), userID)
		},
		wtask.KeepGoing, wtask.Settled)
	out.say("   took %v of workflow time", took(ctx, start))
	out.say("   user:    %+v", user)
	out.say("   orders:  %+v", orders)
	out.say("   recs:    %q", recs)
	out.report(err)

	out.say("")
	out.say("2. Run3: user, (slow) orders and stock; stock fails, so the others are canceled")
	start = workflow.Now(ctx)
	user, orders, stock, err := wtask.Run3(ctx, loadUser.Bind(userID), slowOrders.Bind(userID), loadStock.Bind("lamp"))
	out.say("   took %v of workflow time, not the 5s of the slow orders: they stopped at their next", took(ctx, start))
	out.say("   heartbeat, and Run3 returned once they had (no activity outlives the call)")
	out.say("   user: %+v, orders: %v, stock: %d (zero values: the call failed)", user, orders, stock)
	out.report(err)

	out.say("")
	out.say("3. Execute now, Await2 later: work started early, gathered when needed")
	fu := loadUser.Execute(ctx, userID)
	fo := loadOrders.Execute(ctx, userID)
	user, orders, err = wtask.Await2(ctx, fu, fo)
	out.say("   user: %+v, %d orders, err: %v", user, len(orders), err)
	if err != nil {
		// As an ApplicationError, the CallError reaches the client with
		// its positions (wtask.CallErrorOf rebuilds it there).
		return out.lines, wtask.ApplicationError(err)
	}
	return out.lines, nil
}

// took is the workflow time since start, rounded for the report.
func took(ctx workflow.Context, start time.Time) time.Duration {
	return workflow.Now(ctx).Sub(start).Round(100 * time.Millisecond)
}

// report collects the lines of the workflow's result.
type report struct{ lines []string }

func (r *report) say(format string, args ...any) {
	r.lines = append(r.lines, fmt.Sprintf(format, args...))
}

// report writes the error as the library words it, one line per failure,
// each naming the call and the argument.
func (r *report) report(err error) {
	if err == nil {
		r.say("   error:   none")
		return
	}
	for _, line := range strings.Split(err.Error(), "\n") {
		r.say("   error:   %s", line)
	}
	var ce *task.CallError
	if errors.As(err, &ce) && len(ce.Canceled) > 0 {
		r.say("   (%d sibling(s) canceled because of the failure, kept in CallError.Canceled)", len(ce.Canceled))
	}
}

// Register registers the workflow and the activities with w.
func Register(w worker.Registry) {
	w.RegisterWorkflow(Page)
	w.RegisterActivity(&Activities{})
}
