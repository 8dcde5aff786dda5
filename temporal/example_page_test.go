package wtask_test

import (
	"fmt"
	"time"

	wtask "github.com/tasktuple/task/temporal"
	"go.temporal.io/sdk/workflow"
)

// Page is what PageWorkflow returns.
type Page struct {
	User   User
	Orders []Order
}

// PageWorkflow loads a user and their orders at the same time. loadUser
// and loadOrders are typed references to the activities (suite_test.go):
//
//	var acts *Activities // the worker registers &Activities{}
//	loadUser := wtask.NewActivity(acts.LoadUser)
func PageWorkflow(ctx workflow.Context, id int) (Page, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute,
	})
	user, orders, err := wtask.Run2(ctx, loadUser.Bind(id), loadOrders.Bind(id))
	if err != nil {
		return Page{}, wtask.ApplicationError(err)
	}
	return Page{user, orders}, nil
}

func Example_page() {
	// In a program, a worker registers the workflow and the activities
	// (w.RegisterWorkflow(PageWorkflow), w.RegisterActivity(&Activities{}))
	// and a client starts it; here the SDK's test environment runs it.
	env := newEnv()
	env.RegisterActivity(&Activities{})
	env.RegisterWorkflow(PageWorkflow)
	env.ExecuteWorkflow(PageWorkflow, 7)
	var page Page
	err := env.GetWorkflowResult(&page)
	fmt.Printf("%+v %v\n", page, err)
	// Output: {User:{ID:7 Name:Ada} Orders:[{ID:A-1 Total:12.5} {ID:A-2 Total:99.9}]} <nil>
}
