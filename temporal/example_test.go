package wtask_test

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tasktuple/task"
	wtask "github.com/tasktuple/task/temporal"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// The examples run their workflow in the SDK's test environment, with the
// activities of suite_test.go registered; in a program the workflow runs
// in a worker (see temporal/example).

// runExample executes wf in a test environment and prints its error, if
// any.
func runExample(wf func(ctx workflow.Context) error) {
	env := newEnv()
	env.RegisterActivity(&Activities{})
	env.RegisterWorkflowWithOptions(wf, workflow.RegisterOptions{Name: "example"})
	env.RegisterWorkflowWithOptions(doubleWorkflow, workflow.RegisterOptions{Name: "Double"})
	env.ExecuteWorkflow("example")
	if err := env.GetWorkflowError(); err != nil {
		fmt.Println("workflow failed:", err)
	}
}

// withActivityOptions is what a workflow sets before it starts activities.
func withActivityOptions(ctx workflow.Context) workflow.Context {
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 1},
	})
}

func ExampleRun2() {
	runExample(func(ctx workflow.Context) error {
		ctx = withActivityOptions(ctx)
		user, orders, err := wtask.Run2(ctx, loadUser.Bind(7), loadOrders.Bind(7))
		fmt.Println(user.Name, len(orders), err)
		return nil
	})
	// Output: Ada 2 <nil>
}

func ExampleRun3() {
	runExample(func(ctx workflow.Context) error {
		ctx = withActivityOptions(ctx)
		// The stock fails at once: the others (here, timers of an hour
		// and two) are canceled, and only the failure is reported.
		_, _, _, err := wtask.Run3(ctx,
			after(time.Hour, "recs"),
			after(2*time.Hour, 3.5),
			outOfStock.Bind("lamp"))
		var ce *task.CallError
		errors.As(err, &ce)
		var ae *temporal.ApplicationError
		errors.As(err, &ae)
		fmt.Println(ce.Failures[0].Arg, ae.Type(), ae.Message())
		fmt.Println(len(ce.Canceled), "canceled")
		return nil
	})
	// Output:
	// f3 OutOfStock inventory: lamp is out of stock
	// 2 canceled
}

func ExampleAwait2() {
	runExample(func(ctx workflow.Context) error {
		ctx = withActivityOptions(ctx)
		fu := loadUser.Execute(ctx, 7)   // wtask.Future[User]
		fo := loadOrders.Execute(ctx, 7) // wtask.Future[[]Order]
		// ... other work ...
		user, orders, err := wtask.Await2(ctx, fu, fo)
		fmt.Println(user, orders, err)
		return nil
	})
	// Output: {7 Ada} [{A-1 12.5} {A-2 99.9}] <nil>
}

func ExampleAll() {
	runExample(func(ctx workflow.Context) error {
		ctx = withActivityOptions(ctx)
		var fs []wtask.Future[int]
		for _, name := range []string{"a", "bad", "abc"} {
			fs = append(fs, size.Execute(ctx, name))
		}
		sizes, err := wtask.All(ctx, fs, wtask.Settled)
		fmt.Println(sizes)
		fmt.Println(strings.SplitN(err.Error(), ":", 4)[:3])
		return nil
	})
	// Output:
	// [1 0 3]
	// [task  All  futures[1]]
}

func ExampleMap() {
	runExample(func(ctx workflow.Context) error {
		ctx = withActivityOptions(ctx)
		sizes, err := wtask.Map(ctx, []string{"a", "bb", "ccc", "dddd"}, 2, size.Run)
		fmt.Println(sizes, err)
		return nil
	})
	// Output: [1 2 3 4] <nil>
}

func ExampleNewActivity() {
	// At package level, next to the workflow: a typed reference to an
	// activity method, through a nil receiver as the SDK allows.
	var acts *Activities
	loadUser := wtask.NewActivity(acts.LoadUser) // wtask.Activity[int, User]

	runExample(func(ctx workflow.Context) error {
		ctx = withActivityOptions(ctx)
		user, err := loadUser.Run(ctx, 7) // loadUser.Run(ctx, "7") does not compile
		fmt.Printf("%+v %v\n", user, err)
		return nil
	})
	// Output: {ID:7 Name:Ada} <nil>
}

func ExampleFromFuture() {
	runExample(func(ctx workflow.Context) error {
		ctx = withActivityOptions(ctx)
		raw := workflow.ExecuteActivity(ctx, "LoadUser", 7) // from code that predates wtask
		user, err := wtask.FromFuture[User](raw).Get(ctx)
		fmt.Println(user.Name, err)
		return nil
	})
	// Output: Ada <nil>
}

func ExampleGo() {
	runExample(func(ctx workflow.Context) error {
		f := wtask.Go(ctx, func(ctx workflow.Context) (string, error) {
			if err := workflow.Sleep(ctx, time.Minute); err != nil {
				return "", err
			}
			return "a minute later", nil
		})
		s, err := f.Get(ctx)
		fmt.Println(s, err)
		return nil
	})
	// Output: a minute later <nil>
}

func ExampleNewFuture() {
	runExample(func(ctx workflow.Context) error {
		f, s := wtask.NewFuture[int](ctx)
		workflow.Go(ctx, func(ctx workflow.Context) { s.SetValue(42) })
		n, err := f.Get(ctx)
		fmt.Println(n, err)
		return nil
	})
	// Output: 42 <nil>
}

func ExampleChildWorkflow() {
	// doubleWorkflow is func(workflow.Context, int) (int, error),
	// registered as "Double".
	double := wtask.ChildWorkflowByName[int, int]("Double")
	runExample(func(ctx workflow.Context) error {
		ctx = withActivityOptions(ctx)
		fc := double.Execute(ctx, 21)
		n, user, err := wtask.Await2(ctx, fc.Future, loadUser.Execute(ctx, 7))
		fmt.Println(n, user.Name, err)
		return nil
	})
	// Output: 42 Ada <nil>
}
