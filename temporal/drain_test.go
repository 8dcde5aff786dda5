package wtask_test

import (
	"errors"
	"testing"
	"time"

	"github.com/tasktuple/task"
	wtask "github.com/tasktuple/task/temporal"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// The tests in this file pin the drain (doc.go, "The drain") in the SDK's
// test environment. That environment makes the future of a canceled
// activity ready at once whatever the options say, so for activities these
// tests pin the option the calls set; TestDevServer pins what it does
// against a real server, with drainWorkflow. Canceled child workflows the
// environment waits for as a worker does, so the rule for them is pinned
// here too.

// TestWaitForCancellation: the functions of RunN and Map, with and without
// KeepGoing, get a context whose activity options have WaitForCancellation
// set, and the caller's other options; the caller's context is left as it
// was; a function may clear the option for its own activities.
func TestWaitForCancellation(t *testing.T) {
	t.Parallel()
	type seen struct {
		wait    bool
		timeout time.Duration
		queue   string
		retries int32
	}
	look := func(ctx workflow.Context) seen {
		o := workflow.GetActivityOptions(ctx)
		s := seen{wait: o.WaitForCancellation, timeout: o.StartToCloseTimeout, queue: o.TaskQueue}
		if o.RetryPolicy != nil {
			s.retries = o.RetryPolicy.MaximumAttempts
		}
		return s
	}
	probe := func(ctx workflow.Context) (seen, error) { return look(ctx), nil }
	var got map[string]seen
	run(t, nil, func(ctx workflow.Context) error {
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
			TaskQueue:           "q",
			StartToCloseTimeout: time.Minute,
			RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 3},
		})
		got = map[string]seen{}
		got["Run2 f1"], got["Run2 f2"], _ = wtask.Run2(ctx, probe, func(ctx workflow.Context) (seen, error) {
			return look(workflow.WithWaitForCancellation(ctx, false)), nil
		})
		_, got["Run3 KeepGoing f2"], _, _ = wtask.Run3(ctx, probe, probe, probe, wtask.KeepGoing)
		m, _ := wtask.Map(ctx, []int{1, 2, 3}, 2, func(ctx workflow.Context, _ int) (seen, error) { return look(ctx), nil })
		got["Map inputs[2]"] = m[2]
		got["caller after"] = look(ctx)
		return nil
	})
	on := seen{wait: true, timeout: time.Minute, queue: "q", retries: 3}
	off := on
	off.wait = false
	for _, c := range []struct {
		name string
		want seen
	}{
		{"Run2 f1", on},
		{"Run2 f2", off}, // cleared by the function
		{"Run3 KeepGoing f2", on},
		{"Map inputs[2]", on},
		{"caller after", off},
	} {
		if got[c.name] != c.want {
			t.Errorf("%s: activity options %+v; want %+v", c.name, got[c.name], c.want)
		}
	}
}

// cleanupChild is a child workflow that, canceled, cleans up for a minute
// of workflow time on a disconnected context before it returns; cleaned
// is set then.
func cleanupChild(cleaned *bool) func(ctx workflow.Context, _ int) (int, error) {
	return func(ctx workflow.Context, _ int) (int, error) {
		err := workflow.Sleep(ctx, time.Hour)
		if temporal.IsCanceledError(err) {
			dctx, _ := workflow.NewDisconnectedContext(ctx)
			_ = workflow.Sleep(dctx, time.Minute)
			*cleaned = true
		}
		return 0, err
	}
}

// TestChildDrain: a canceled child workflow is waited for whatever
// ChildWorkflowOptions.WaitForCancellation says (the calls leave the child
// options alone: see group.init): Run2 returns after the child's minute of
// clean-up, with the option and without it.
func TestChildDrain(t *testing.T) {
	t.Parallel()
	for _, wait := range []bool{false, true} {
		var cleaned, cleanedAtReturn bool
		var elapsed time.Duration
		var err error
		env := newEnv()
		env.RegisterWorkflowWithOptions(cleanupChild(&cleaned), workflow.RegisterOptions{Name: "cleanup"})
		child := wtask.ChildWorkflowByName[int, int]("cleanup")
		env.RegisterWorkflowWithOptions(func(ctx workflow.Context) error {
			ctx = workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WaitForCancellation: wait})
			start := workflow.Now(ctx)
			_, _, err = wtask.Run2(ctx, child.Bind(1), fail[int](time.Second, errors.New("boom")))
			elapsed, cleanedAtReturn = workflow.Now(ctx).Sub(start), cleaned
			return nil
		}, workflow.RegisterOptions{Name: "parent"})
		env.ExecuteWorkflow("parent")
		if werr := env.GetWorkflowError(); werr != nil {
			t.Fatal(werr)
		}
		var ce *task.CallError
		if !errors.As(err, &ce) || args(ce.Failures) != "f2" || args(ce.Canceled) != "f1" {
			t.Errorf("WaitForCancellation %v: Run2 = %v; want f2 failed, f1 canceled", wait, err)
		}
		if want := time.Second + time.Minute; elapsed != want || !cleanedAtReturn {
			t.Errorf("WaitForCancellation %v: Run2 returned after %v, the child cleaned up by then: %v; want %v, true",
				wait, elapsed, cleanedAtReturn, want)
		}
	}
}

// cleanupTime is how long Cleanup takes to clean up once canceled in the
// workflows TestDevServer runs: short where the call waits for it, since
// the test waits as long; where it does not, long next to the time between
// the call's return and the end of its workflow, even on a loaded machine.
func cleanupTime(mode string) time.Duration {
	if mode == "wait" || mode == "child" {
		return time.Second
	}
	return 10 * time.Second
}

// drainWorkflow runs Run2 of Cleanup, which takes cleanupTime(mode) to
// stop once canceled, and of Boom, which fails once Cleanup has started,
// and returns Run2's failures and cancellations. mode says how Run2's
// first function runs Cleanup: "wait", as an activity with the context
// Run2 gives it; "nowait", as an activity with WaitForCancellation
// cleared; "local", as a local activity (Boom too: a workflow task stays
// open while a local activity runs, so a timer or an activity could not
// fail meanwhile); "child", in the child workflow drainChild, which waits
// for it. TestDevServer checks whether Cleanup had returned when the
// workflow ended (its key is the mode).
func drainWorkflow(ctx workflow.Context, mode string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		HeartbeatTimeout:    5 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 1},
	})
	ctx = workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 1},
	})
	in := CleanupInput{Key: mode, Clean: cleanupTime(mode)}
	var first func(workflow.Context) (string, error)
	second := boom.Bind(mode)
	switch mode {
	case "wait":
		first = cleanup.Bind(in)
	case "nowait":
		first = func(ctx workflow.Context) (string, error) {
			return cleanup.Run(workflow.WithWaitForCancellation(ctx, false), in)
		}
	case "local":
		first = func(ctx workflow.Context) (string, error) {
			return cleanup.ExecuteLocal(ctx, in).Get(ctx)
		}
		second = func(ctx workflow.Context) (int, error) {
			return boom.ExecuteLocal(ctx, mode).Get(ctx)
		}
	case "child":
		first = drainChildWorkflow.Bind(in)
	default:
		return "", errors.New("drain: unknown mode " + mode)
	}
	_, _, err := wtask.Run2(ctx, first, second)
	var ce *task.CallError
	if !errors.As(err, &ce) {
		return "", err
	}
	canceled := "no cancellation"
	if len(ce.Canceled) == 1 && temporal.IsCanceledError(ce.Canceled[0].Err) {
		canceled = "a cancellation"
	}
	return show("failures: "+args(ce.Failures), "canceled: "+args(ce.Canceled), canceled), nil
}

// drainChild runs Cleanup and waits for it, canceled or not.
func drainChild(ctx workflow.Context, in CleanupInput) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		HeartbeatTimeout:    5 * time.Second,
		WaitForCancellation: true,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 1},
	})
	return cleanup.Run(ctx, in)
}

var drainChildWorkflow = wtask.ChildWorkflowByName[CleanupInput, string]("DrainChild")
