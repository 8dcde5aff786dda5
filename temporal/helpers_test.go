package wtask_test

import (
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"
)

// quiet is a logger for the test environments: the SDK's default one
// prints a debug line per timer.
var quiet = log.NewStructuredLogger(slog.New(slog.DiscardHandler))

// newEnv returns a test workflow environment with the quiet logger.
func newEnv() *testsuite.TestWorkflowEnvironment {
	var s testsuite.WorkflowTestSuite
	s.SetLogger(quiet)
	return s.NewTestWorkflowEnvironment()
}

// show prints vs with %v, separated by " | ".
func show(vs ...any) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = fmt.Sprint(v)
	}
	return strings.Join(parts, " | ")
}

// point is a struct result type for the generated tests.
type point struct{ X, Y int }

// execute runs wf to completion in the SDK's test environment and returns
// its result; it fails the test if the workflow fails.
func execute(t testing.TB, wf func(workflow.Context) (string, error)) string {
	t.Helper()
	env := newEnv()
	env.RegisterWorkflowWithOptions(wf, workflow.RegisterOptions{Name: "wf"})
	env.ExecuteWorkflow("wf")
	if !env.IsWorkflowCompleted() {
		t.Fatal("the workflow did not complete")
	}
	if err := env.GetWorkflowError(); err != nil {
		t.Fatalf("the workflow failed: %v", err)
	}
	var out string
	if err := env.GetWorkflowResult(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

// after returns a function that sleeps for d in workflow time, then
// returns v; it gives up with the sleep's error if its context is canceled.
func after[T any](d time.Duration, v T) func(workflow.Context) (T, error) {
	return func(ctx workflow.Context) (T, error) {
		if err := workflow.Sleep(ctx, d); err != nil {
			var zero T
			return zero, err
		}
		return v, nil
	}
}

// fail returns a function that sleeps for d, then fails with err.
func fail[T any](d time.Duration, err error) func(workflow.Context) (T, error) {
	return func(ctx workflow.Context) (T, error) {
		var zero T
		if serr := workflow.Sleep(ctx, d); serr != nil {
			return zero, serr
		}
		return zero, err
	}
}
