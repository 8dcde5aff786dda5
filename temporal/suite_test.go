package wtask_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"github.com/tasktuple/task"
	wtask "github.com/tasktuple/task/temporal"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"
)

// The tests in this file run workflows in the SDK's test environment
// (testsuite.WorkflowTestSuite), with real activity functions unless a
// test mocks them. Each workflow writes what it saw into a variable of the
// test, since a workflow in this environment runs in the test's process.

// User, Order and Stock are the result types of the test activities: a
// struct, a slice of structs and a map, which go through the data converter
// (JSON) like any activity's.
type User struct {
	ID   int
	Name string
}

type Order struct {
	ID    string
	Total float64
}

type Stock map[string]int

// Activities are the test activities. A workflow references them through
// a nil *Activities, as the SDK's samples do; the worker registers a real
// one.
type Activities struct {
	barrier *barrier      // LoadUser, LoadOrders and LoadStock wait at it, if set
	release chan struct{} // Slow waits for it
	active  gauge         // how many Size calls run at once
	started *marks        // Cleanup marks here that it has started, if set; Boom waits for it
	ended   *marks        // Cleanup marks here that it has returned, if set
}

func (a *Activities) LoadUser(ctx context.Context, id int) (User, error) {
	if err := a.barrier.arrive("LoadUser"); err != nil {
		return User{}, err
	}
	return User{ID: id, Name: "Ada"}, nil
}

func (a *Activities) LoadOrders(ctx context.Context, userID int) ([]Order, error) {
	if err := a.barrier.arrive("LoadOrders"); err != nil {
		return nil, err
	}
	return []Order{{"A-1", 12.5}, {"A-2", 99.9}}, nil
}

func (a *Activities) LoadStock(ctx context.Context, skus []string) (Stock, error) {
	if err := a.barrier.arrive("LoadStock"); err != nil {
		return nil, err
	}
	s := Stock{}
	for i, sku := range skus {
		s[sku] = i + 1
	}
	return s, nil
}

// OutOfStock fails with a non-retryable ApplicationError of type
// "OutOfStock".
func (a *Activities) OutOfStock(ctx context.Context, sku string) (int, error) {
	return 0, temporal.NewNonRetryableApplicationError("inventory: "+sku+" is out of stock", "OutOfStock", nil)
}

// Slow blocks until the test releases it (the test environment does not
// cancel an activity's context: the cancel listener shows the
// cancellation).
func (a *Activities) Slow(ctx context.Context, name string) (string, error) {
	select {
	case <-a.release:
	case <-ctx.Done():
	}
	return "slow " + name, nil
}

// Size takes a few milliseconds and counts how many calls run at once.
func (a *Activities) Size(ctx context.Context, name string) (int, error) {
	a.active.enter()
	defer a.active.leave()
	time.Sleep(5 * time.Millisecond)
	if strings.HasPrefix(name, "bad") {
		return 0, temporal.NewNonRetryableApplicationError("size: cannot read "+name, "Unreadable", nil)
	}
	return len(name), nil
}

// Cleanup heartbeats until it is canceled, then takes c.Clean to clean up
// before it returns; it marks c.Key in a.started when it starts and in
// a.ended when it returns. Canceled, it returns the context's error, which
// the SDK reports as the activity's cancellation. It heartbeats while it
// cleans up too, or the server would time it out after its
// HeartbeatTimeout and report that at once: through a context without the
// cancellation, since the SDK sends no heartbeat through a canceled one.
func (a *Activities) Cleanup(ctx context.Context, c CleanupInput) (string, error) {
	a.started.add(c.Key)
	defer a.ended.add(c.Key)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	var cleaned <-chan time.Time
	for {
		select {
		case <-cleaned:
			return "", ctx.Err()
		case <-tick.C:
			activity.RecordHeartbeat(context.WithoutCancel(ctx))
			if cleaned == nil && ctx.Err() != nil {
				cleaned = time.After(c.Clean)
			}
		}
	}
}

// CleanupInput is the input of Cleanup.
type CleanupInput struct {
	Key   string
	Clean time.Duration
}

// Boom fails with a non-retryable ApplicationError of type "Boom" once
// Cleanup has started under key (at once if a.started is nil), so that
// Cleanup is running when the failure cancels it.
func (a *Activities) Boom(ctx context.Context, key string) (int, error) {
	if err := a.started.wait(ctx, key); err != nil {
		return 0, err
	}
	return 0, temporal.NewNonRetryableApplicationError("boom", "Boom", nil)
}

// marks records when something happened, by key. A nil *marks records
// nothing and waits for nothing.
type marks struct {
	mu sync.Mutex
	at map[string]time.Time     // guarded by mu
	ch map[string]chan struct{} // guarded by mu; closed by add
}

// add marks key now, once.
func (m *marks) add(key string) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.at[key]; ok {
		return
	}
	if m.at == nil {
		m.at = map[string]time.Time{}
	}
	m.at[key] = time.Now()
	close(m.chanLocked(key))
}

// when returns when key was marked, and whether it was.
func (m *marks) when(key string) (time.Time, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.at[key]
	return t, ok
}

// wait blocks until key is marked or ctx is done.
func (m *marks) wait(ctx context.Context, key string) error {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	ch := m.chanLocked(key)
	m.mu.Unlock()
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (m *marks) chanLocked(key string) chan struct{} {
	if m.ch == nil {
		m.ch = map[string]chan struct{}{}
	}
	ch, ok := m.ch[key]
	if !ok {
		ch = make(chan struct{})
		m.ch[key] = ch
	}
	return ch
}

var (
	acts       *Activities
	cleanup    = wtask.NewActivity(acts.Cleanup)
	boom       = wtask.NewActivity(acts.Boom)
	loadUser   = wtask.NewActivity(acts.LoadUser)
	loadOrders = wtask.NewActivity(acts.LoadOrders)
	loadStock  = wtask.NewActivity(acts.LoadStock)
	outOfStock = wtask.NewActivity(acts.OutOfStock)
	slow       = wtask.NewActivity(acts.Slow)
	size       = wtask.NewActivity(acts.Size)
)

// barrier lets activities through only once want of them have arrived, or
// fails them after a timeout: activities that pass it ran at the same time.
type barrier struct {
	want    int
	timeout time.Duration
	mu      sync.Mutex
	n       int           // guarded by mu
	all     chan struct{} // closed when n reaches want
}

func newBarrier(want int, timeout time.Duration) *barrier {
	return &barrier{want: want, timeout: timeout, all: make(chan struct{})}
}

func (b *barrier) arrive(name string) error {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	b.n++
	if b.n == b.want {
		close(b.all)
	}
	n := b.n
	b.mu.Unlock()
	select {
	case <-b.all:
		return nil
	case <-time.After(b.timeout):
		return fmt.Errorf("barrier: %s was alone: %d of %d arrived in %v", name, n, b.want, b.timeout)
	}
}

// gauge counts how many calls run at once, and the most ever.
type gauge struct {
	mu       sync.Mutex
	now, max int // guarded by mu
}

func (g *gauge) enter() {
	g.mu.Lock()
	g.now++
	g.max = max(g.max, g.now)
	g.mu.Unlock()
}

func (g *gauge) leave() {
	g.mu.Lock()
	g.now--
	g.mu.Unlock()
}

// activityCtx sets the options every test activity runs with: one attempt,
// so that a failure is reported at once.
func activityCtx(ctx workflow.Context) workflow.Context {
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Hour,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 1},
	})
}

// run executes wf in a fresh test environment with a as its activities;
// setup may mock and listen. It returns the environment, after the run.
func run(t *testing.T, a *Activities, wf func(workflow.Context) error, setup ...func(*testsuite.TestWorkflowEnvironment)) *testsuite.TestWorkflowEnvironment {
	t.Helper()
	env := newEnv()
	if a != nil {
		env.RegisterActivity(a)
	}
	env.RegisterWorkflowWithOptions(wf, workflow.RegisterOptions{Name: "wf"})
	for _, f := range setup {
		f(env)
	}
	env.ExecuteWorkflow("wf")
	if !env.IsWorkflowCompleted() {
		t.Fatal("the workflow did not complete")
	}
	return env
}

// TestTypes fans out to activities whose results are a struct, a slice
// and a map: each comes back with its own type, with no pointer and no
// assertion. A FromFuture given the wrong type shows what the typed
// references prevent: a decode error at run time, at its position.
func TestTypes(t *testing.T) {
	t.Parallel()
	var user User
	var orders []Order
	var stock Stock
	var errRun, errWrong error
	run(t, &Activities{}, func(ctx workflow.Context) error {
		ctx = activityCtx(ctx)
		user, orders, stock, errRun = wtask.Run3(ctx,
			loadUser.Bind(7), loadOrders.Bind(7), loadStock.Bind([]string{"lamp", "book"}))

		// The SDK's untyped future, typed by hand with the wrong type.
		raw := workflow.ExecuteActivity(ctx, acts.LoadUser, 7)
		_, _, errWrong = wtask.Await2(ctx, loadUser.Execute(ctx, 8), wtask.FromFuture[[]string](raw))
		return nil
	})
	if errRun != nil {
		t.Fatalf("Run3: %v", errRun)
	}
	if want := (User{7, "Ada"}); user != want {
		t.Errorf("user = %+v; want %+v", user, want)
	}
	if want := []Order{{"A-1", 12.5}, {"A-2", 99.9}}; !slices.Equal(orders, want) {
		t.Errorf("orders = %+v; want %+v", orders, want)
	}
	if stock["lamp"] != 1 || stock["book"] != 2 || len(stock) != 2 {
		t.Errorf("stock = %v; want map[book:2 lamp:1]", stock)
	}
	var ce *task.CallError
	if !errors.As(errWrong, &ce) || len(ce.Failures) != 1 || ce.Failures[0].Arg != "f2" {
		t.Fatalf("Await2 with a wrong type at f2: %v; want one failure, at f2", errWrong)
	}
	if msg := errWrong.Error(); !strings.HasPrefix(msg, "task: Await2: f2: ") || !strings.Contains(msg, "unmarshal") {
		t.Errorf("error = %q; want a decode error at f2", msg)
	}
}

// TestParallelBarrier shows that Run3 and Await3 run their activities at
// the same time: each activity waits at a barrier until all three have
// arrived. The negative control awaits them one after the other, as code
// that calls Get on each future in turn does: the first activity is alone
// at the barrier and fails.
func TestParallelBarrier(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		wf   func(ctx workflow.Context) (User, []Order, Stock, error)
		ok   bool
	}{
		{"Run3", func(ctx workflow.Context) (User, []Order, Stock, error) {
			return wtask.Run3(ctx, loadUser.Bind(1), loadOrders.Bind(1), loadStock.Bind([]string{"x"}))
		}, true},
		{"Await3", func(ctx workflow.Context) (User, []Order, Stock, error) {
			fu, fo, fs := loadUser.Execute(ctx, 1), loadOrders.Execute(ctx, 1), loadStock.Execute(ctx, []string{"x"})
			return wtask.Await3(ctx, fu, fo, fs)
		}, true},
		{"sequential", func(ctx workflow.Context) (User, []Order, Stock, error) {
			u, err := loadUser.Run(ctx, 1)
			if err != nil {
				return User{}, nil, nil, err
			}
			o, err := loadOrders.Run(ctx, 1)
			if err != nil {
				return User{}, nil, nil, err
			}
			s, err := loadStock.Run(ctx, []string{"x"})
			return u, o, s, err
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := &Activities{barrier: newBarrier(3, time.Second)}
			var err error
			var u User
			run(t, a, func(ctx workflow.Context) error {
				u, _, _, err = tc.wf(activityCtx(ctx))
				return nil
			})
			switch {
			case tc.ok && (err != nil || u.ID != 1):
				t.Errorf("%s: %v, user %+v; want all three through the barrier", tc.name, err, u)
			case !tc.ok && (err == nil || !strings.Contains(err.Error(), "barrier: LoadUser was alone")):
				t.Errorf("%s: %v; want LoadUser alone at the barrier", tc.name, err)
			}
		})
	}
}

// TestFailFast: one activity fails at once; a slow activity and an hour's
// timer of its siblings are canceled, as the SDK's cancel listeners show,
// the call drains and returns with no workflow time spent, and the error
// names only the failure, with the cancellations kept in Canceled.
func TestFailFast(t *testing.T) {
	t.Parallel()
	a := &Activities{release: make(chan struct{})}
	t.Cleanup(func() { close(a.release) })
	var err error
	var elapsed time.Duration
	var sibling string
	var canceledActivities []string
	timersCanceled := 0
	run(t, a, func(ctx workflow.Context) error {
		ctx = activityCtx(ctx)
		start := workflow.Now(ctx)
		_, _, _, err = wtask.Run3(ctx,
			slow.Bind("recs"),
			func(ctx workflow.Context) (string, error) {
				if err := workflow.Sleep(ctx, time.Hour); err != nil {
					return "", err
				}
				sibling = "slept an hour"
				return "", nil
			},
			outOfStock.Bind("lamp"))
		elapsed = workflow.Now(ctx).Sub(start)
		return nil
	}, func(env *testsuite.TestWorkflowEnvironment) {
		env.SetOnActivityCanceledListener(func(info *activity.Info) {
			canceledActivities = append(canceledActivities, info.ActivityType.Name)
		})
		env.SetOnTimerCanceledListener(func(string) { timersCanceled++ })
	})
	var ce *task.CallError
	if !errors.As(err, &ce) {
		t.Fatalf("Run3 = %v; want a *task.CallError", err)
	}
	if len(ce.Failures) != 1 || ce.Failures[0].Arg != "f3" || !strings.HasPrefix(err.Error(), "task: Run3: f3: ") || strings.Contains(err.Error(), "\n") {
		t.Errorf("Run3 error = %q; want one line, for f3", err)
	}
	if got := args(ce.Canceled); got != "f1 f2" {
		t.Errorf("CallError.Canceled = %s; want f1 f2", got)
	}
	for _, c := range ce.Canceled {
		if !temporal.IsCanceledError(c.Err) {
			t.Errorf("Canceled %s: %v; want a CanceledError", c.Arg, c.Err)
		}
	}
	if !slices.Equal(canceledActivities, []string{"Slow"}) || timersCanceled != 1 {
		t.Errorf("canceled activities %v, timers %d; want [Slow] and 1", canceledActivities, timersCanceled)
	}
	if elapsed >= time.Minute || sibling != "" {
		t.Errorf("Run3 took %v of workflow time, sibling %q; want the hour's sleep canceled", elapsed, sibling)
	}
}

// args lists the Arg of each PositionError.
func args(pes []*task.PositionError) string {
	s := make([]string, len(pes))
	for i, pe := range pes {
		s[i] = pe.Arg
	}
	return strings.Join(s, " ")
}

// TestApplicationError: errors.As reaches the SDK's ActivityError and the
// ApplicationError inside it through the CallError, with every failure
// kept with KeepGoing.
func TestApplicationError(t *testing.T) {
	t.Parallel()
	var err error
	var n int
	run(t, &Activities{}, func(ctx workflow.Context) error {
		ctx = activityCtx(ctx)
		_, n, _, err = wtask.Run3(ctx, outOfStock.Bind("lamp"), size.Bind("book"), outOfStock.Bind("desk"), wtask.KeepGoing, wtask.Settled)
		return nil
	})
	var ae *temporal.ApplicationError
	if !errors.As(err, &ae) || ae.Type() != "OutOfStock" || ae.Message() != "inventory: lamp is out of stock" {
		t.Fatalf("errors.As(%v, *ApplicationError) = %v; want the first OutOfStock", err, ae)
	}
	var act *temporal.ActivityError
	if !errors.As(err, &act) {
		t.Errorf("errors.As(err, *ActivityError) failed for %v", err)
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "task: Run3: f1: ") || !strings.HasPrefix(lines[1], "task: Run3: f3: ") {
		t.Errorf("error lines = %q; want f1 then f3", lines)
	}
	if n != 4 {
		t.Errorf("with Settled, f2 = %d; want 4", n)
	}
}

// TestParentCanceled: the workflow is canceled while Run3's functions
// sleep; they stop, the error says the context was canceled and lists
// them in Unfinished, and a function that finished first is not blamed.
// An Await of futures that are not ready returns at once.
func TestParentCanceled(t *testing.T) {
	t.Parallel()
	var errRun, errAwait error
	var first string
	var elapsed time.Duration
	run(t, nil, func(ctx workflow.Context) error {
		start := workflow.Now(ctx)
		first, _, _, errRun = wtask.Run3(ctx,
			after(time.Second, "done"), after(time.Hour, 2), after(2*time.Hour, 3.5),
			wtask.Settled)
		elapsed = workflow.Now(ctx).Sub(start)
		f, _ := wtask.NewFuture[int](ctx)
		_, errAwait = wtask.Await1(ctx, f)
		return ctx.Err()
	}, func(env *testsuite.TestWorkflowEnvironment) {
		env.RegisterDelayedCallback(env.CancelWorkflow, time.Minute)
	})
	var ce *task.CallError
	if !errors.As(errRun, &ce) || len(ce.Failures) != 0 || !temporal.IsCanceledError(ce.Ctx) || args(ce.Unfinished) != "f2 f3" {
		t.Fatalf("Run3 = %v; want no failure, Ctx canceled, f2 and f3 unfinished", errRun)
	}
	if !temporal.IsCanceledError(errRun) || first != "done" || elapsed != time.Minute {
		t.Errorf("IsCanceledError = %v, f1 = %q, elapsed %v; want true, done, 1m0s",
			temporal.IsCanceledError(errRun), first, elapsed)
	}
	want := "task: Run3: canceled\ntask: Run3: f2 had not finished: canceled\ntask: Run3: f3 had not finished: canceled"
	if errRun.Error() != want {
		t.Errorf("Run3 error:\n%s\nwant:\n%s", errRun, want)
	}
	if !errors.As(errAwait, &ce) || args(ce.Unfinished) != "f1" || ce.Unfinished[0].Err != nil {
		t.Errorf("Await1 after cancellation = %v; want f1 unfinished", errAwait)
	}
}

// TestMocks: the typed references work with the SDK's activity mocks,
// which match them by function (and by name for ActivityByName).
func TestMocks(t *testing.T) {
	t.Parallel()
	byName := wtask.ActivityByName[int, User]("LoadUser")
	var u1, u2 User
	var orders []Order
	var err error
	run(t, &Activities{}, func(ctx workflow.Context) error {
		ctx = activityCtx(ctx)
		u1, orders, u2, err = wtask.Run3(ctx, loadUser.Bind(1), loadOrders.Bind(1), byName.Bind(2))
		return nil
	}, func(env *testsuite.TestWorkflowEnvironment) {
		env.OnActivity(acts.LoadUser, mock.Anything, 1).Return(User{1, "Mock"}, nil).Once()
		env.OnActivity("LoadUser", mock.Anything, 2).Return(User{2, "ByName"}, nil).Once()
		env.OnActivity(acts.LoadOrders, mock.Anything, 1).Return(nil, errors.New("orders: 500")).Once()
	})
	if u1 != (User{}) || u2 != (User{}) || orders != nil {
		t.Errorf("values %v %v %v with an error and no Settled; want zero values", u1, orders, u2)
	}
	var ce *task.CallError
	if !errors.As(err, &ce) || args(ce.Failures) != "f2" || !strings.Contains(err.Error(), "orders: 500") {
		t.Errorf("Run3 = %v; want the mocked failure at f2", err)
	}
}

// TestChildWorkflows runs child workflows next to an activity, reads a
// child's execution, and reports a failed child at its position.
func TestChildWorkflows(t *testing.T) {
	t.Parallel()
	double := func(ctx workflow.Context, n int) (int, error) {
		if n < 0 {
			return 0, temporal.NewNonRetryableApplicationError("double: negative", "Negative", nil)
		}
		return 2 * n, nil
	}
	child := wtask.ChildWorkflowByName[int, int]("double")
	var got string
	env := newEnv()
	env.RegisterActivity(&Activities{})
	env.RegisterWorkflowWithOptions(double, workflow.RegisterOptions{Name: "double"})
	env.RegisterWorkflowWithOptions(func(ctx workflow.Context) error {
		ctx = activityCtx(ctx)
		fc := child.Execute(ctx, 21)
		n, u, err := wtask.Await2(ctx, fc.Future, loadUser.Execute(ctx, 3))
		exec, xerr := fc.Execution().Get(ctx)
		_, _, err2 := wtask.Run2(ctx, child.Bind(-1), child.Bind(5))
		var ae *temporal.ApplicationError
		errors.As(err2, &ae)
		got = show(n, u.ID, err, exec.ID != "", xerr, ae.Type(), strings.SplitN(err2.Error(), ": ", 4)[:3])
		return nil
	}, workflow.RegisterOptions{Name: "parent"})
	env.ExecuteWorkflow("parent")
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	want := show(42, 3, nil, true, nil, "Negative", []string{"task", "Run2", "f1"})
	if got != want {
		t.Errorf("got %s; want %s", got, want)
	}
}

// TestMap runs 20 activities with at most 4 at once, results in input
// order; a failure stops new calls and is named by its input.
func TestMap(t *testing.T) {
	t.Parallel()
	names := make([]string, 20)
	for i := range names {
		names[i] = strings.Repeat("x", i+1)
	}
	a := &Activities{}
	var sizes []int
	var err error
	run(t, a, func(ctx workflow.Context) error {
		sizes, err = wtask.Map(activityCtx(ctx), names, 4, size.Run)
		return nil
	})
	if err != nil || len(sizes) != 20 || sizes[0] != 1 || sizes[19] != 20 {
		t.Fatalf("Map = %v, %v; want 1..20", sizes, err)
	}
	if a.active.max != 4 {
		t.Errorf("at most %d calls ran at once; want 4", a.active.max)
	}

	bad := slices.Clone(names)
	bad[2] = "bad"
	var started []string
	run(t, &Activities{}, func(ctx workflow.Context) error {
		sizes, err = wtask.Map(activityCtx(ctx), bad, 2, size.Run)
		return nil
	}, func(env *testsuite.TestWorkflowEnvironment) {
		env.SetOnActivityStartedListener(func(info *activity.Info, _ context.Context, _ converter.EncodedValues) {
			started = append(started, "x")
		})
	})
	var ce *task.CallError
	if !errors.As(err, &ce) || args(ce.Failures) != "inputs[2]" || sizes != nil {
		t.Fatalf("Map with inputs[2] bad = %v, %v; want a failure at inputs[2], nil", sizes, err)
	}
	if len(started) >= len(bad) {
		t.Errorf("%d calls started after a failure with 2 at once; want fewer than %d", len(started), len(bad))
	}
}

// TestAll awaits a slice of activity futures.
func TestAll(t *testing.T) {
	t.Parallel()
	var sizes []int
	var err error
	run(t, &Activities{}, func(ctx workflow.Context) error {
		ctx = activityCtx(ctx)
		fs := []wtask.Future[int]{size.Execute(ctx, "a"), size.Execute(ctx, "bad1"), size.Execute(ctx, "abc"), size.Execute(ctx, "bad3")}
		sizes, err = wtask.All(ctx, fs, wtask.Settled)
		return nil
	})
	if !slices.Equal(sizes, []int{1, 0, 3, 0}) {
		t.Errorf("All values = %v; want [1 0 3 0]", sizes)
	}
	var ce *task.CallError
	if !errors.As(err, &ce) || args(ce.Failures) != "futures[1] futures[3]" {
		t.Errorf("All = %v; want failures at futures[1] and futures[3]", err)
	}
}

// TestPanic: a panic in a function of Run2 is not recovered: the SDK fails
// the workflow task. The test environment reports it as the workflow's
// error, a *temporal.PanicError that names the panicking function.
func TestPanic(t *testing.T) {
	t.Parallel()
	env := run(t, nil, func(ctx workflow.Context) error {
		_, _, err := wtask.Run2(ctx, after(time.Hour, 1), func(ctx workflow.Context) (int, error) {
			var user *User
			return user.ID, nil // a bug: a nil pointer
		})
		return err
	})
	var pe *temporal.PanicError
	if err := env.GetWorkflowError(); !errors.As(err, &pe) || !strings.Contains(pe.Error(), "nil pointer dereference") {
		t.Fatalf("workflow error = %v; want a PanicError", err)
	}
	if !strings.Contains(pe.StackTrace(), "TestPanic") {
		t.Errorf("stack does not name the panicking function:\n%s", pe.StackTrace())
	}
}

// TestBadArguments: nil functions, zero futures and bad limits panic at
// once, naming the call and the argument.
func TestBadArguments(t *testing.T) {
	t.Parallel()
	var got []string
	try := func(f func()) {
		defer func() { got = append(got, fmt.Sprint(recover())) }()
		f()
	}
	run(t, nil, func(ctx workflow.Context) error {
		f, _ := wtask.NewFuture[int](ctx)
		try(func() { wtask.Run2[int, int](ctx, after(0, 1), nil) })
		try(func() { wtask.Await2(ctx, f, wtask.Future[int]{}) })
		try(func() { wtask.All(ctx, []wtask.Future[int]{f, {}}) })
		try(func() { wtask.Map(ctx, []int{1}, 0, func(ctx workflow.Context, n int) (int, error) { return n, nil }) })
		try(func() { wtask.NewActivity[int, int](nil) })
		try(func() { wtask.Activity[int, int]{}.Execute(ctx, 1) })
		return nil
	})
	want := []string{
		"wtask: Run2: f2 is nil",
		"wtask: Await2: f2 is the zero Future",
		"wtask: All: futures[1] is the zero Future",
		"wtask: Map: limit is 0; want at least 1",
		"wtask: NewActivity: fn is nil",
		"wtask: Execute of the zero Activity",
	}
	if !slices.Equal(got, want) {
		t.Errorf("panics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
