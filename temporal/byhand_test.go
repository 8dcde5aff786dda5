package wtask_test

import (
	"errors"
	"testing"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// pageByHand is PageWorkflow (example_page_test.go) written against the SDK
// alone, with what Run2 does: a cancelable context, untyped activities, a
// Selector with a callback per future that decodes into a pointer, the
// first failure canceling the other, the wait for both, WaitForCancellation
// for the drain, and the errors joined. docs/temporal.md shows it next to
// PageWorkflow.
func pageByHand(ctx workflow.Context, id int) (Page, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute,
		WaitForCancellation: true,
	})
	cctx, cancel := workflow.WithCancel(ctx)
	defer cancel()
	var page Page
	var errUser, errOrders error
	failed := func(err error) {
		if err != nil && !temporal.IsCanceledError(err) {
			cancel() // fail fast
		}
	}
	sel := workflow.NewSelector(ctx)
	sel.AddFuture(workflow.ExecuteActivity(cctx, "LoadUser", id), func(f workflow.Future) {
		errUser = f.Get(ctx, &page.User) // a wrong type is a decode error at run time
		failed(errUser)
	})
	sel.AddFuture(workflow.ExecuteActivity(cctx, "LoadOrders", id), func(f workflow.Future) {
		errOrders = f.Get(ctx, &page.Orders)
		failed(errOrders)
	})
	sel.Select(ctx)
	sel.Select(ctx)
	if err := errors.Join(errUser, errOrders); err != nil {
		return Page{}, err // which call failed, and which was only canceled?
	}
	return page, nil
}

// TestByHand: pageByHand and PageWorkflow return the same page.
func TestByHand(t *testing.T) {
	t.Parallel()
	var pages [2]Page
	for i, wf := range []func(workflow.Context, int) (Page, error){PageWorkflow, pageByHand} {
		env := newEnv()
		env.RegisterActivity(&Activities{})
		env.RegisterWorkflowWithOptions(wf, workflow.RegisterOptions{Name: "page"})
		env.ExecuteWorkflow("page", 7)
		if err := env.GetWorkflowResult(&pages[i]); err != nil {
			t.Fatal(err)
		}
	}
	if show(pages[0]) != show(pages[1]) || pages[0].User.ID != 7 {
		t.Errorf("PageWorkflow = %+v, pageByHand = %+v; want the same page, of user 7", pages[0], pages[1])
	}
}
