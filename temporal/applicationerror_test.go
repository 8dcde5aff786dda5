package wtask_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tasktuple/task"
	wtask "github.com/tasktuple/task/temporal"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"
)

// failureWorkflow runs Run3 with KeepGoing over two activities that fail
// with non-retryable ApplicationErrors (f1, OutOfStock, and f3, Unreadable)
// and one that succeeds, or, when retryable, with a function that fails
// with a plain error at f3; it returns Run3's error through
// wtask.ApplicationError. TestDevServer and TestApplicationErrorCrosses
// run it.
func failureWorkflow(ctx workflow.Context, retryable bool) (string, error) {
	ctx = activityCtx(ctx)
	third := size.Bind("bad")
	if retryable {
		third = fail[int](0, errors.New("flaky"))
	}
	_, _, _, err := wtask.Run3(ctx, outOfStock.Bind("lamp"), loadUser.Bind(7), third, wtask.KeepGoing)
	return "", wtask.ApplicationError(err)
}

// checkCrossed checks the error of failureWorkflow as a client or a
// parent gets it: the ApplicationError's type and retryability, and the
// CallError that CallErrorOf rebuilds from it.
func checkCrossed(t *testing.T, err error, retryable bool) {
	t.Helper()
	var top *temporal.ApplicationError
	if !errors.As(err, &top) || top.Type() != "CallError" || top.NonRetryable() == retryable {
		t.Fatalf("error %v: want an ApplicationError of type CallError, non-retryable %v", err, !retryable)
	}
	ce, ok := wtask.CallErrorOf(err)
	if !ok {
		t.Fatalf("CallErrorOf(%v) found nothing", err)
	}
	if ce.Call != "Run3" || args(ce.Failures) != "f1 f3" || ce.Failures[0].Index != 0 || ce.Failures[1].Index != 2 ||
		ce.Failures[1].Call != "Run3" || ce.Ctx != nil || len(ce.Canceled)+len(ce.Unfinished) != 0 {
		t.Errorf("CallErrorOf = %#v; want Run3 with failures f1 (0) and f3 (2) and nothing else", ce)
	}
	if ce.Error() != top.Message() {
		t.Errorf("rebuilt message:\n%s\nwant the workflow's:\n%s", ce.Error(), top.Message())
	}
	want := []string{"OutOfStock true", "Unreadable true"}
	if retryable {
		want[1] = " false" // a plain error: no type, retryable
	}
	for i, f := range ce.Failures[:min(2, len(ce.Failures))] {
		var ae *temporal.ApplicationError
		if !errors.As(f, &ae) {
			t.Errorf("%s: %v: no ApplicationError", f.Arg, f)
			continue
		}
		if got := show(ae.Type(), ae.NonRetryable()); got != strings.ReplaceAll(want[i], " ", " | ") {
			t.Errorf("%s: type and non-retryable %s; want %s", f.Arg, got, want[i])
		}
	}
	var act *temporal.ActivityError
	if !errors.As(ce.Failures[0], &act) {
		t.Errorf("f1: %v: errors.As finds no ActivityError", ce.Failures[0])
	}
}

// TestApplicationErrorCrosses: the error of failureWorkflow, as the test
// environment gives it (through the SDK's failure converter, as a client
// gets it), and as a parent workflow gets it from the workflow run as a
// child.
func TestApplicationErrorCrosses(t *testing.T) {
	t.Parallel()
	for _, retryable := range []bool{false, true} {
		env := newEnv()
		env.RegisterActivity(&Activities{})
		env.RegisterWorkflowWithOptions(failureWorkflow, workflow.RegisterOptions{Name: "Failure"})
		env.ExecuteWorkflow("Failure", retryable)
		t.Run(fmt.Sprint("client/retryable=", retryable), func(t *testing.T) {
			checkCrossed(t, env.GetWorkflowError(), retryable)
		})

		var childErr error
		env = newEnv()
		env.RegisterActivity(&Activities{})
		env.RegisterWorkflowWithOptions(failureWorkflow, workflow.RegisterOptions{Name: "Failure"})
		env.RegisterWorkflowWithOptions(func(ctx workflow.Context) error {
			_, childErr = wtask.ChildWorkflowByName[bool, string]("Failure").Run(ctx, retryable)
			return nil
		}, workflow.RegisterOptions{Name: "parent"})
		env.ExecuteWorkflow("parent")
		t.Run(fmt.Sprint("parent/retryable=", retryable), func(t *testing.T) {
			var cwe *temporal.ChildWorkflowExecutionError
			if !errors.As(childErr, &cwe) {
				t.Errorf("child error %v: want a ChildWorkflowExecutionError", childErr)
			}
			checkCrossed(t, childErr, retryable)
		})
	}
}

// TestApplicationErrorPositions: every list of the CallError crosses: the
// canceled positions of a fail-fast (with their CanceledErrors) and, from a
// CallError of the core's made in an activity, the unfinished positions
// and the context error; CallErrorOf of the ApplicationError itself,
// before it crosses, rebuilds the same.
func TestApplicationErrorPositions(t *testing.T) {
	t.Parallel()
	var local error
	env := run(t, nil, func(ctx workflow.Context) error {
		_, _, _, err := wtask.Run3(ctx, after(time.Hour, 1), fail[int](time.Second, errors.New("first")), after(time.Hour, 3))
		local = wtask.ApplicationError(err)
		return local
	})
	for name, err := range map[string]error{"crossed": env.GetWorkflowError(), "in process": local} {
		ce, ok := wtask.CallErrorOf(err)
		if !ok || args(ce.Failures) != "f2" || args(ce.Canceled) != "f1 f3" || ce.Canceled[1].Index != 2 ||
			!temporal.IsCanceledError(ce.Canceled[0].Err) || ce.Error() != "task: Run3: f2: first" {
			t.Errorf("%s: CallErrorOf(%v) = %#v, %v; want f2 failed (first), f1 and f3 canceled", name, err, ce, ok)
		}
	}

	// A CallError of the core's, as an activity that fans out in process
	// would return it once its context ended: unfinished positions, one
	// with an error and one without, and the context's error.
	core := &task.CallError{
		Call: "Map",
		Ctx:  context.DeadlineExceeded,
		Unfinished: []*task.PositionError{
			{Call: "Map", Index: 3, Arg: "inputs[3]", Err: context.DeadlineExceeded},
			{Call: "Map", Index: 5, Arg: "inputs[5]"},
		},
	}
	ae := wtask.ApplicationError(core)
	ce, ok := wtask.CallErrorOf(temporal.NewApplicationErrorWithCause("page", "Page", ae)) // found under another
	if !ok || ce.Call != "Map" || args(ce.Unfinished) != "inputs[3] inputs[5]" || ce.Unfinished[0].Index != 3 ||
		ce.Unfinished[1].Err != nil || ce.Ctx == nil {
		t.Fatalf("CallErrorOf = %#v, %v; want Map with inputs[3] and inputs[5] unfinished, and Ctx", ce, ok)
	}
	// context.DeadlineExceeded is a Go error of a type of its own: it
	// comes back as an ApplicationError named after that type.
	want := "task: Map: context deadline exceeded (type: deadlineExceededError, retryable: true)\n" +
		"task: Map: inputs[3] had not finished: context deadline exceeded (type: deadlineExceededError, retryable: true)\n" +
		"task: Map: inputs[5] had not finished"
	if ce.Error() != want {
		t.Errorf("rebuilt message:\n%s\nwant:\n%s", ce.Error(), want)
	}
	var top *temporal.ApplicationError
	if !errors.As(ae, &top) || top.NonRetryable() {
		t.Errorf("ApplicationError(%v) = %v; want a retryable ApplicationError (no failure)", core, ae)
	}
}

// TestApplicationErrorUnchanged: errors that are not a CallError, or that
// must stay as they are for the SDK, come back unchanged; an
// ApplicationError of type CallError with no details rebuilds nothing.
func TestApplicationErrorUnchanged(t *testing.T) {
	t.Parallel()
	canceled := &task.CallError{Call: "Run2", Ctx: temporal.NewCanceledError(),
		Unfinished: []*task.PositionError{{Call: "Run2", Index: 1, Arg: "f2"}}}
	panicked := &task.PanicError{Value: "bug", Call: "Run2", Arg: "f1", Others: &task.CallError{Call: "Run2"}}
	plain := errors.New("plain")
	for _, err := range []error{nil, plain, canceled, panicked, fmt.Errorf("page: %w", canceled)} {
		if got := wtask.ApplicationError(err); got != err {
			t.Errorf("ApplicationError(%v) = %v; want it unchanged", err, got)
		}
	}
	if ce, ok := wtask.CallErrorOf(temporal.NewApplicationError("task: Run2: f1: x", "CallError")); ok {
		t.Errorf("CallErrorOf of an ApplicationError with no details = %v; want nothing", ce)
	}
	if ce, ok := wtask.CallErrorOf(plain); ok || ce != nil {
		t.Errorf("CallErrorOf(plain) = %v, %v; want nil, false", ce, ok)
	}
}

// TestApplicationErrorWrapped: a CallError wrapped by the workflow keeps
// the wrapper's message and the CallError's structure.
func TestApplicationErrorWrapped(t *testing.T) {
	t.Parallel()
	env := run(t, &Activities{}, func(ctx workflow.Context) error {
		_, _, err := wtask.Run2(activityCtx(ctx), loadUser.Bind(7), outOfStock.Bind("lamp"))
		return wtask.ApplicationError(fmt.Errorf("page 7: %w", err))
	})
	err := env.GetWorkflowError()
	var top *temporal.ApplicationError
	ce, ok := wtask.CallErrorOf(err)
	if !errors.As(err, &top) || !strings.HasPrefix(top.Message(), "page 7: task: Run2: f2: ") || !top.NonRetryable() ||
		!ok || args(ce.Failures) != "f2" {
		t.Errorf("wrapped: %v, CallErrorOf = %v; want the wrapper's message, non-retryable, f2 failed", err, ce)
	}
}

// TestActivityApplicationError: an activity that fans out in process with
// the core and returns its CallError through ApplicationError is not
// retried when every failure is non-retryable, and the workflow rebuilds
// the core's CallError from the activity's error. The control returns the
// CallError as it is: retried to the last attempt, and nothing to rebuild.
func TestActivityApplicationError(t *testing.T) {
	t.Parallel()
	for _, convert := range []bool{true, false} {
		attempts, ce, ok := fanOutActivity(t, convert)
		switch {
		case convert && (!ok || ce.Call != "Run2" || args(ce.Failures) != "f1 f2" || attempts != 1):
			t.Errorf("converted: CallErrorOf = %v, %v after %d attempts; want Run2 with f1 and f2 failed, 1 attempt", ce, ok, attempts)
		case !convert && (ok || attempts != 3):
			t.Errorf("as it is: CallErrorOf = %v, %v after %d attempts; want nothing, 3 attempts", ce, ok, attempts)
		}
	}
}

// fanOutActivity runs a workflow that runs an activity of three attempts
// that fans out in process and fails with non-retryable errors, returning
// them through ApplicationError if convert; it returns the attempts and
// what CallErrorOf finds in the activity's error.
func fanOutActivity(t *testing.T, convert bool) (int, *task.CallError, bool) {
	attempts := 0
	fanOut := func(ctx context.Context, sku string) (int, error) {
		attempts++
		_, _, err := task.Run2(ctx,
			func(ctx context.Context) (int, error) {
				return 0, temporal.NewNonRetryableApplicationError("price: "+sku+" unknown", "UnknownSKU", nil)
			},
			func(ctx context.Context) (int, error) {
				return 0, temporal.NewNonRetryableApplicationError("stock: "+sku+" unknown", "UnknownSKU", nil)
			},
			task.KeepGoing)
		if convert {
			err = wtask.ApplicationError(err)
		}
		return 0, err
	}
	var err error
	run(t, nil, func(ctx workflow.Context) error {
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
			StartToCloseTimeout: time.Minute,
			RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 3, InitialInterval: time.Second},
		})
		_, err = wtask.ActivityByName[string, int]("FanOut").Run(ctx, "lamp")
		return nil
	}, func(env *testsuite.TestWorkflowEnvironment) {
		env.RegisterActivityWithOptions(fanOut, activity.RegisterOptions{Name: "FanOut"})
	})
	ce, ok := wtask.CallErrorOf(err)
	return attempts, ce, ok
}
