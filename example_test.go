package task_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/tasktuple/task"
)

// returns is a function for RunN that returns v at once.
func returns[T any](v T) func(context.Context) (T, error) {
	return func(context.Context) (T, error) { return v, nil }
}

type User struct{ Name string }
type Order struct{ ID string }

func loadUser(ctx context.Context) (User, error)      { return User{"Ada"}, nil }
func loadOrders(ctx context.Context) ([]Order, error) { return []Order{{"A-1"}, {"A-2"}}, nil }

var errDown = errors.New("orders service down")

func loadOrdersDown(ctx context.Context) ([]Order, error) { return nil, errDown }

func Example() {
	ctx := context.Background()
	user, orders, err := task.Run2(ctx, loadUser, loadOrders)
	fmt.Println(user.Name, len(orders), err)

	_, _, err = task.Run2(ctx, loadUser, loadOrdersDown)
	var pe *task.PositionError
	if errors.As(err, &pe) {
		fmt.Printf("f%d failed: %v\n", pe.Index+1, pe.Err)
	}
	// Output:
	// Ada 2 <nil>
	// f2 failed: orders service down
}

func ExampleGo() {
	ctx := context.Background()
	tu := task.Go(ctx, loadUser)
	to := task.Go(ctx, loadOrders)
	// ... other work ...
	user, orders, err := task.Await2(ctx, tu, to)
	fmt.Println(user.Name, len(orders), err)
	// Output: Ada 2 <nil>
}

func ExampleTask_Wait() {
	t, _ := task.Promise[int]() // never completed here
	ctx, cancel := context.WithTimeoutCause(context.Background(), time.Millisecond, errors.New("too slow"))
	defer cancel()
	_, err := t.Wait(ctx)
	fmt.Println(errors.Is(err, context.DeadlineExceeded), err)
	// Output: true context deadline exceeded: too slow
}

func ExampleTask_Done() {
	t := task.Go(context.Background(), loadUser)
	select {
	case <-t.Done():
		u, err := t.Wait(context.Background())
		fmt.Println(u.Name, err)
	case <-time.After(time.Minute):
		fmt.Println("timed out")
	}
	// Output: Ada <nil>
}

func ExamplePromise() {
	// A callback API completes a task.
	t, complete := task.Promise[string]()
	onDone := func(body string, err error) { complete(body, err) }
	go onDone("hello", nil)

	body, err := t.Wait(context.Background())
	fmt.Println(body, err)
	// Output: hello <nil>
}

func ExamplePromise_complete() {
	t, complete := task.Promise[int]()
	fmt.Println(complete(1, nil))
	fmt.Println(complete(2, nil)) // too late: nothing changes
	v, err := t.Wait(context.Background())
	fmt.Println(v, err)
	// Output:
	// true
	// false
	// 1 <nil>
}

func ExampleOption() {
	ctx := context.Background()
	user, orders, err := task.Run2(ctx, loadUser, loadOrdersDown, task.KeepGoing, task.Settled)
	fmt.Println(user.Name, orders, err)
	// Output: Ada [] task: Run2: f2: orders service down
}

func ExampleAll() {
	ctx := context.Background()
	ids := []int{3, 1, 2}
	tasks := make([]*task.Task[string], len(ids))
	for i, id := range ids {
		tasks[i] = task.Go(ctx, func(context.Context) (string, error) {
			return fmt.Sprint("user-", id), nil
		})
	}
	names, err := task.All(ctx, tasks)
	fmt.Println(names, err)
	// Output: [user-3 user-1 user-2] <nil>
}

// firstOK returns the first of tasks to succeed, and its position. If none
// does, the error names each failure by its position, and the cause of
// ctx's end if that ended the wait; over no tasks it wraps
// task.ErrNotEnough, as Hedge's error over no functions does.
func firstOK[T any](ctx context.Context, tasks []*task.Task[T]) (T, int, error) {
	var zero T
	if len(tasks) == 0 {
		return zero, -1, fmt.Errorf("firstOK: no tasks: %w", task.ErrNotEnough)
	}
	var errs []error
	for i, t := range task.WhenEach(ctx, tasks) {
		v, err := t.Wait(ctx)
		if err == nil {
			return v, i, nil
		}
		errs = append(errs, fmt.Errorf("tasks[%d]: %w", i, err))
	}
	if len(errs) < len(tasks) { // ctx ended the wait
		errs = append(errs, context.Cause(ctx))
	}
	return zero, -1, errors.Join(errs...)
}

func ExampleWhenEach_firstOK() {
	// The first of several tasks to succeed.
	ctx := context.Background()
	down := func(name string) *task.Task[string] {
		t, complete := task.Promise[string]()
		complete("", errors.New(name+" down"))
		return t
	}
	show := func(v string, i int, err error) { fmt.Printf("%q %d %v\n", v, i, err) }
	up := task.Go(ctx, func(context.Context) (string, error) { return "answer from replica 1", nil })
	show(firstOK(ctx, []*task.Task[string]{down("replica 0"), up}))
	show(firstOK(ctx, []*task.Task[string]{down("replica 0"), down("replica 1")}))
	show(firstOK(ctx, []*task.Task[string]{}))

	pending, _ := task.Promise[string]() // never completed
	canceled, cancel := context.WithCancelCause(ctx)
	cancel(errors.New("shutting down"))
	show(firstOK(canceled, []*task.Task[string]{down("replica 0"), pending}))
	// Output:
	// "answer from replica 1" 1 <nil>
	// "" -1 tasks[0]: replica 0 down
	// tasks[1]: replica 1 down
	// "" -1 firstOK: no tasks: task: not enough succeeded
	// "" -1 tasks[0]: replica 0 down
	// shutting down
}

func ExampleHedge_allAtOnce() {
	ctx := context.Background()
	replica := func(name string, wait bool) func(context.Context) (string, error) {
		return func(ctx context.Context) (string, error) {
			if wait {
				<-ctx.Done() // canceled once another replica has answered
				return "", context.Cause(ctx)
			}
			return "answer from " + name, nil
		}
	}
	v, i, err := task.Hedge(ctx, 0, nil, replica("a", true), replica("b", false), replica("c", true))
	fmt.Println(v, i, err)
	// Output: answer from b 1 <nil>
}

func ExampleWhenEach() {
	ctx := context.Background()
	var tasks []*task.Task[string]
	var complete []func(string, error) bool
	for range 3 {
		t, c := task.Promise[string]()
		tasks, complete = append(tasks, t), append(complete, c)
	}
	complete[2]("third argument, done first", nil)
	go func() {
		complete[0]("first argument", nil)
		complete[1]("second argument", nil)
	}()
	for i, t := range task.WhenEach(ctx, tasks) {
		v, err := t.Wait(ctx) // complete: does not block
		fmt.Println(i, v, err)
	}
	// Unordered output:
	// 2 third argument, done first <nil>
	// 0 first argument <nil>
	// 1 second argument <nil>
}

func ExampleMap() {
	ctx := context.Background()
	words := []string{"a", "bb", "ccc", "dddd"}
	lengths, err := task.Map(ctx, words, 2, func(ctx context.Context, w string) (int, error) {
		return len(w), nil // at most 2 calls run at once
	})
	fmt.Println(lengths, err)
	// Output: [1 2 3 4] <nil>
}

func ExampleCallError() {
	ctx := context.Background()
	recs := func(context.Context) (int, error) { return 0, errors.New("recs: 500 internal error") }
	stock := func(context.Context) (bool, error) { return false, errors.New("stock: 503 unavailable") }
	_, _, _, err := task.Run3(ctx, loadUser, recs, stock, task.KeepGoing)

	fmt.Println(err) // one line per failure
	var ce *task.CallError
	if errors.As(err, &ce) {
		for _, pe := range ce.Failures {
			fmt.Printf("%s failed (argument %d of %s): %v\n", pe.Arg, pe.Index+1, ce.Call, pe.Err)
		}
	}
	// Output:
	// task: Run3: f2: recs: 500 internal error
	// task: Run3: f3: stock: 503 unavailable
	// f2 failed (argument 2 of Run3): recs: 500 internal error
	// f3 failed (argument 3 of Run3): stock: 503 unavailable
}

func ExampleCallError_deadline() {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	recs := func(ctx context.Context) (int, error) {
		<-ctx.Done() // too slow
		return 0, fmt.Errorf("recs service: %w", ctx.Err())
	}
	_, _, _, err := task.Run3(ctx, loadUser, loadOrders, recs)

	fmt.Println(err)
	fmt.Println(errors.Is(err, context.DeadlineExceeded))
	var ce *task.CallError
	errors.As(err, &ce)
	fmt.Println(len(ce.Failures), "failed;", ce.Unfinished[0].Arg, "had not finished")
	// Output:
	// task: Run3: context deadline exceeded
	// task: Run3: f3 had not finished: recs service: context deadline exceeded
	// true
	// 0 failed; f3 had not finished
}

func ExamplePanicError() {
	defer func() {
		pe := recover().(*task.PanicError) // the first panic, as itself
		fmt.Printf("%s %s panicked: %v\n", pe.Call, pe.Arg, pe.Value)
		fmt.Println("also:", pe.Others.Failures[0])
		fmt.Println(errors.Is(pe, errDown))
	}()
	_, _, _, err := task.Run3(context.Background(), loadUser, loadOrdersDown,
		func(context.Context) (int, error) { panic("bug") })
	fmt.Println("not reached:", err) // Run3 panicked
	// Output:
	// Run3 f3 panicked: bug
	// also: task: Run3: f2: orders service down
	// true
}

func ExampleHedge() {
	ctx := context.Background()
	replica := func(name string, slow bool) func(context.Context) (string, error) {
		return func(ctx context.Context) (string, error) {
			if slow {
				<-ctx.Done() // canceled once another replica has answered
				return "", context.Cause(ctx)
			}
			return "answer from " + name, nil
		}
	}
	// a starts at once; b only if a has not answered within 10ms.
	v, i, err := task.Hedge(ctx, 10*time.Millisecond, nil, replica("a", true), replica("b", false))
	fmt.Println(v, i, err)
	// Output: answer from b 1 <nil>
}

func ExampleNamed() {
	ctx := context.Background()
	loadRecs := func(context.Context) ([]string, error) { return nil, errors.New("500 internal error") }
	_, _, err := task.Run2(ctx, loadUser, task.Named("recs", loadRecs))
	fmt.Println(err)
	// Output: task: Run2: recs: 500 internal error
}

// An option prints as it is written at the call site, in a log line or a
// subtest's name.
func ExampleOption_String() {
	opts := []task.Option{task.KeepGoing, task.Grace(2 * time.Second)}
	fmt.Println("options:", opts)
	// Output: options: [KeepGoing Grace(2s)]
}
