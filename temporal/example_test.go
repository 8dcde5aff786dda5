package wtask_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tasktuple/task"
	wtask "github.com/tasktuple/task/temporal"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
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

func ExampleRun3_drain() {
	runExample(func(ctx workflow.Context) error {
		ctx = withActivityOptions(ctx)
		// waits tells whether the activities started with ctx are waited for
		// once canceled; a function would start them with that ctx.
		waits := func(ctx workflow.Context) (bool, error) {
			return workflow.GetActivityOptions(ctx).WaitForCancellation, nil
		}
		w1, w2, w3, err := wtask.Run3(ctx,
			waits, // Run3 sets WaitForCancellation on the context it gives
			func(ctx workflow.Context) (bool, error) {
				// An activity the call need not wait for, such as a
				// notification, may run on after it.
				return waits(workflow.WithWaitForCancellation(ctx, false))
			},
			func(ctx workflow.Context) (bool, error) {
				// New options replace WaitForCancellation: set it again.
				ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
					StartToCloseTimeout: time.Hour,
					HeartbeatTimeout:    10 * time.Second,
					WaitForCancellation: true,
				})
				return waits(ctx)
			})
		fmt.Println(w1, w2, w3, err)
		fmt.Println(workflow.GetActivityOptions(ctx).WaitForCancellation) // the caller's are left alone
		return nil
	})
	// Output:
	// true false true <nil>
	// false
}

// stockWorkflow fails at both positions, with non-retryable errors: the
// size of "bad" is Unreadable, and "lamp" is OutOfStock.
func stockWorkflow(ctx workflow.Context) (int, error) {
	ctx = withActivityOptions(ctx)
	n, _, err := wtask.Run2(ctx, size.Bind("bad"), outOfStock.Bind("lamp"), wtask.KeepGoing)
	if err != nil {
		return 0, wtask.ApplicationError(err)
	}
	return n, nil
}

// startStock runs stockWorkflow in a test environment and returns its run,
// as a client's ExecuteWorkflow would.
func startStock() fakeRun {
	env := newEnv()
	env.RegisterActivity(&Activities{})
	env.RegisterWorkflowWithOptions(stockWorkflow, workflow.RegisterOptions{Name: "Stock"})
	env.ExecuteWorkflow("Stock")
	return fakeRun{env}
}

// fakeRun is the client.WorkflowRun of a workflow run in a test
// environment: Get returns what the client's would.
type fakeRun struct {
	env *testsuite.TestWorkflowEnvironment
}

func (r fakeRun) Get(ctx context.Context, valuePtr any) error {
	if err := r.env.GetWorkflowError(); err != nil {
		return err
	}
	return r.env.GetWorkflowResult(valuePtr)
}

func ExampleApplicationError() {
	// stockWorkflow returns Run2's error as wtask.ApplicationError(err).
	run := startStock()
	err := run.Get(context.Background(), nil)
	var ae *temporal.ApplicationError
	errors.As(err, &ae)
	fmt.Println(ae.Type(), "non-retryable:", ae.NonRetryable())
	for _, line := range strings.Split(ae.Message(), "\n") { // the CallError's message
		fmt.Println(line[:strings.Index(line, " (")] + " ...")
	}
	// Output:
	// CallError non-retryable: true
	// task: Run2: f1: activity error ...
	// task: Run2: f2: activity error ...
}

func ExampleCallErrorOf() {
	run := startStock() // c.ExecuteWorkflow(ctx, options, "Stock") in a program
	ctx := context.Background()

	err := run.Get(ctx, nil)
	if ce, ok := wtask.CallErrorOf(err); ok {
		for _, f := range ce.Failures {
			var ae *temporal.ApplicationError
			errors.As(f, &ae)
			fmt.Println(f.Arg, ae.Type(), ae.NonRetryable())
		}
	}
	// Output:
	// f1 Unreadable true
	// f2 OutOfStock true
}
