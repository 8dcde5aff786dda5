package wtask_test

import (
	"strings"
	"testing"
	"time"

	wtask "github.com/tasktuple/task/temporal"
	"github.com/tasktuple/task/temporal/example/shop"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

// The histories under testdata were recorded from real runs of these
// workflows against a Temporal dev server, by TestDevServer with -record
// (see devserver_test.go). Replaying them with the current code checks that
// the code still issues the same commands in the same order: that a change
// to a fan-out has not broken the workflows already running.

// fanout exercises every kind of call of the package in one workflow:
// Run2 over activities, Map with a limit, All with a failure, a child
// workflow and a coroutine awaited together.
func fanout(ctx workflow.Context, n int) (string, error) {
	ctx = activityCtx(ctx)
	u, o, err1 := wtask.Run2(ctx, loadUser.Bind(n), loadOrders.Bind(n))
	sizes, err2 := wtask.Map(ctx, []string{"a", "bb", "ccc", "dddd", "eeeee"}, 2, size.Run)
	all, err3 := wtask.All(ctx, []wtask.Future[int]{size.Execute(ctx, "xy"), size.Execute(ctx, "bad")}, wtask.Settled)
	fc := double.Execute(ctx, n)
	d, s, err4 := wtask.Await2(ctx, fc.Future, wtask.Go(ctx, func(ctx workflow.Context) (string, error) {
		return "slept", workflow.Sleep(ctx, 10*time.Millisecond)
	}))
	return show(u, len(o), err1, sizes, err2, all, err3 != nil, d, s, err4), nil
}

// fanoutSwapped is fanout with the two activities of its Run2 swapped: the
// kind of edit that looks harmless and is not, since it changes the order
// of the commands the workflow issues.
func fanoutSwapped(ctx workflow.Context, n int) (string, error) {
	ctx = activityCtx(ctx)
	o, u, err1 := wtask.Run2(ctx, loadOrders.Bind(n), loadUser.Bind(n))
	sizes, err2 := wtask.Map(ctx, []string{"a", "bb", "ccc", "dddd", "eeeee"}, 2, size.Run)
	all, err3 := wtask.All(ctx, []wtask.Future[int]{size.Execute(ctx, "xy"), size.Execute(ctx, "bad")}, wtask.Settled)
	fc := double.Execute(ctx, n)
	d, s, err4 := wtask.Await2(ctx, fc.Future, wtask.Go(ctx, func(ctx workflow.Context) (string, error) {
		return "slept", workflow.Sleep(ctx, 10*time.Millisecond)
	}))
	return show(u, len(o), err1, sizes, err2, all, err3 != nil, d, s, err4), nil
}

// doubleWorkflow is the child workflow of fanout.
func doubleWorkflow(ctx workflow.Context, n int) (int, error) { return 2 * n, nil }

var double = wtask.NewChildWorkflow(doubleWorkflow)

// registry is what both a worker and a replayer register: the workflows
// under the names the histories hold.
type registry interface {
	RegisterWorkflow(w any)
	RegisterWorkflowWithOptions(w any, options workflow.RegisterOptions)
}

func registerWorkflows(r registry, fanoutImpl func(workflow.Context, int) (string, error)) {
	r.RegisterWorkflow(shop.Page)
	registerTestWorkflows(r, fanoutImpl)
}

// registerTestWorkflows registers the tests' workflows that TestDevServer
// runs, under the names the histories hold.
func registerTestWorkflows(r registry, fanoutImpl func(workflow.Context, int) (string, error)) {
	r.RegisterWorkflowWithOptions(fanoutImpl, workflow.RegisterOptions{Name: "Fanout"})
	r.RegisterWorkflowWithOptions(doubleWorkflow, workflow.RegisterOptions{Name: "Double"})
	r.RegisterWorkflowWithOptions(drainWorkflow, workflow.RegisterOptions{Name: "Drain"})
	r.RegisterWorkflowWithOptions(drainChild, workflow.RegisterOptions{Name: "DrainChild"})
	r.RegisterWorkflowWithOptions(failureWorkflow, workflow.RegisterOptions{Name: "Failure"})
}

// histories are the recorded histories, by workflow type.
var histories = []string{"testdata/page.json", "testdata/fanout.json", "testdata/drain.json", "testdata/failure.json"}

// TestReplay replays the recorded histories with the current code.
func TestReplay(t *testing.T) {
	t.Parallel()
	r := worker.NewWorkflowReplayer()
	registerWorkflows(r, fanout)
	for _, h := range histories {
		if err := r.ReplayWorkflowHistoryFromJSONFile(quiet, h); err != nil {
			t.Errorf("replay of %s: %v", h, err)
		}
	}
}

// TestReplaySwapped is the negative control: the fanout history replayed
// with the two activities of its Run2 swapped must fail, with the SDK's
// nondeterminism error. This is what a user sees who changes a running
// fan-out without workflow.GetVersion.
func TestReplaySwapped(t *testing.T) {
	t.Parallel()
	r := worker.NewWorkflowReplayer()
	registerWorkflows(r, fanoutSwapped)
	err := r.ReplayWorkflowHistoryFromJSONFile(quiet, "testdata/fanout.json")
	if err == nil {
		t.Fatal("replay with a swapped Run2 succeeded; want a nondeterminism error")
	}
	if msg := err.Error(); !strings.Contains(msg, "nondeterministic") || !strings.Contains(msg, "LoadOrders") {
		t.Errorf("replay error = %v; want a nondeterminism error naming LoadOrders", err)
	}
	t.Logf("replay with a swapped Run2: %v", err)
}
