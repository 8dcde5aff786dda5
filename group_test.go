//go:build go1.25

package task

import (
	"context"
	"errors"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

func TestNewGroupSuccess(t *testing.T) {
	g, ctx := NewGroup(context.Background())
	var ran atomic.Int32
	for range 10 {
		g.Go(func(c context.Context) error {
			if c != ctx {
				t.Errorf("a child's ctx is not the one NewGroup returned")
			}
			ran.Add(1)
			return nil
		})
	}
	tk := Spawn(g, func(context.Context) (int, error) { return 7, nil })
	if err := g.Wait(); err != nil {
		t.Fatalf("Wait = %v", err)
	}
	if ran.Load() != 10 {
		t.Fatalf("%d children ran; want 10", ran.Load())
	}
	if v, err, _ := tryWait(tk); v != 7 || err != nil {
		t.Fatalf("the spawned task = %v, %v", v, err)
	}
	if !errors.Is(ctx.Err(), context.Canceled) {
		t.Fatalf("after Wait ctx.Err() = %v; want canceled", ctx.Err())
	}
}

func TestNewGroupFailFast(t *testing.T) {
	boom := errors.New("boom")
	g, ctx := NewGroup(context.Background())
	g.SetLimit(1)
	gate := make(chan struct{})
	g.Go(func(ctx context.Context) error { <-gate; return boom })
	var later atomic.Bool
	g.Go(func(ctx context.Context) error { later.Store(true); return nil }) // queued at the limit
	close(gate)
	err := g.Wait()
	if later.Load() {
		t.Fatalf("a child queued behind the failure started")
	}
	var ce *CallError
	if !errors.As(err, &ce) || ce.Call != "Group" || ce.NotStarted != 1 || len(ce.Canceled) != 0 {
		t.Fatalf("Wait = %#v; want a *CallError of Group with the queued child not started", err)
	}
	if got := err.Error(); !strings.Contains(got, "task: Group: children[0]: boom") {
		t.Fatalf("Wait = %q", got)
	}
	if !errors.Is(err, boom) {
		t.Fatalf("errors.Is(Wait, boom) = false")
	}
	if cause := context.Cause(ctx); !errors.Is(cause, boom) {
		t.Fatalf("Cause(ctx) = %v; want the failure", cause)
	}
}

func TestNewGroupFirstErrorAndKeepGoing(t *testing.T) {
	boom := errors.New("boom")
	g, ctx := NewGroup(context.Background(), FirstError, KeepGoing)
	var ran atomic.Int32
	g.Go(func(context.Context) error { return boom })
	g.Go(func(context.Context) error {
		recordedFirst(g) // the failure of child 0 is recorded first
		ran.Add(1)
		return errors.New("second")
	})
	if err := g.Wait(); err != boom {
		t.Fatalf("Wait = %v; want boom itself", err)
	}
	if ran.Load() != 1 {
		t.Fatalf("KeepGoing: the second child did not run")
	}
	if ctx.Err() == nil {
		t.Fatalf("KeepGoing: ctx not canceled by Wait")
	}
}

func TestNewGroupPanicInWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g, _ := NewGroup(context.Background())
		release := make(chan struct{})
		running := make(chan struct{})
		// The panic comes once the other child runs: before, fail-fast
		// would refuse it, and Wait would rightly not wait for it.
		g.Go(func(ctx context.Context) error { <-running; panic("kaboom") })
		g.Go(func(ctx context.Context) error { close(running); <-release; return nil })
		raised := make(chan any, 2)
		go func() {
			for range 2 { // a second Wait raises the same panic
				raised <- recoverFrom(func() { g.Wait() })
			}
		}()
		synctest.Wait()
		select {
		case v := <-raised:
			t.Fatalf("Wait raised %v while a child was running", v)
		default:
		}
		close(release)
		for i := range 2 {
			pe, ok := (<-raised).(*PanicError)
			if !ok || pe.Value != "kaboom" || pe.Call != "Group" || pe.Arg != "children[0]" {
				t.Fatalf("Wait %d raised %#v", i, pe)
			}
		}
	})
}

func TestNewGroupGoexit(t *testing.T) {
	g, _ := NewGroup(context.Background())
	g.Go(func(ctx context.Context) error { runtime.Goexit(); return nil })
	done := make(chan bool)
	go func() {
		defer func() { done <- true }()
		g.Wait()
		done <- false
	}()
	if !<-done {
		t.Fatalf("Wait returned; want the child's Goexit raised")
	}
}

func TestNewGroupWaitTwiceAndConcurrently(t *testing.T) {
	boom := errors.New("boom")
	g, _ := NewGroup(context.Background())
	gate := make(chan struct{})
	g.Go(func(context.Context) error { <-gate; return boom })
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() { errs[i] = g.Wait() })
	}
	close(gate)
	wg.Wait()
	for i, err := range errs {
		if err == nil || err != errs[0] {
			t.Fatalf("Wait %d = %v; want the same error as Wait 0 (%v)", i, err, errs[0])
		}
	}
	if err := g.Wait(); err != errs[0] {
		t.Fatalf("a later Wait = %v; want %v", err, errs[0])
	}
}

// A Go, TryGo, Spawn or TrySpawn after the Wait of a group made by
// NewGroup begins a new round, as errgroup's: its children get ctx, which
// stays canceled, and the next Wait waits for them.
func TestNewGroupGoAfterWait(t *testing.T) {
	for name, start := range map[string]func(*Group, func(context.Context) error){
		"Group.Go":    func(g *Group, f func(context.Context) error) { g.Go(f) },
		"Group.TryGo": func(g *Group, f func(context.Context) error) { g.TryGo(f) },
		"Spawn": func(g *Group, f func(context.Context) error) {
			Spawn(g, func(ctx context.Context) (int, error) { return 0, f(ctx) })
		},
		"TrySpawn": func(g *Group, f func(context.Context) error) {
			TrySpawn(g, func(ctx context.Context) (int, error) { return 0, f(ctx) })
		},
	} {
		g, ctx := NewGroup(context.Background())
		g.Go(func(context.Context) error { return nil })
		if err := g.Wait(); err != nil {
			t.Fatal(err)
		}
		var got context.Context
		ran := make(chan struct{})
		start(g, func(c context.Context) error { got = c; close(ran); return nil })
		if err := g.Wait(); err != nil {
			t.Fatalf("%s: the second Wait = %v", name, err)
		}
		select {
		case <-ran:
		default:
			t.Fatalf("%s after Wait: the next Wait returned before its child ran", name)
		}
		// ctx itself, or with probes installed (TASKDUMP_ON) derived from it.
		if got.Err() != context.Canceled || context.Cause(got) != context.Canceled || ctx.Err() != context.Canceled {
			t.Errorf("%s after Wait: the child got %v (Err %v, Cause %v); want ctx, canceled", name, got, got.Err(), context.Cause(got))
		}
	}
}

// Each round's Wait returns that round's failures; a failure of an earlier
// round, or the cancellation of ctx by its Wait, refuses no child of a later
// one, and a round's own failure does, as in the first.
func TestNewGroupRounds(t *testing.T) {
	errA, errB := errors.New("a"), errors.New("b")
	g, ctx := NewGroup(context.Background(), FirstError)
	g.Go(func(context.Context) error { return errA })
	if err := g.Wait(); err != errA {
		t.Fatalf("round 1: Wait = %v; want %v", err, errA)
	}
	if err := g.Wait(); err != errA {
		t.Fatalf("round 1, a second Wait = %v; want %v", err, errA)
	}
	cause := context.Cause(ctx)

	var ran atomic.Int32
	g.Go(func(ctx context.Context) error { ran.Add(1); return nil })
	if err := g.Wait(); err != nil || ran.Load() != 1 {
		t.Fatalf("round 2: Wait = %v with %d run; want nil, 1", err, ran.Load())
	}

	failed := make(chan struct{})
	g.Go(func(context.Context) error { defer close(failed); return errB })
	<-failed
	for !g.c.isFailing() {
		runtime.Gosched()
	}
	g.Go(func(context.Context) error { ran.Add(1); return nil }) // refused: the round failed
	err := g.Wait()
	if err != errB || ran.Load() != 1 {
		t.Fatalf("round 3: Wait = %v with %d run; want %v, 1", err, ran.Load(), errB)
	}
	if context.Cause(ctx) != cause {
		t.Errorf("the cause of ctx changed from %v to %v", cause, context.Cause(ctx))
	}

	// The limit is kept; SetLimit may change it before a round's first child.
	g.SetLimit(1)
	var running, most atomic.Int32
	for range 4 {
		g.Go(func(context.Context) error {
			n := running.Add(1)
			for {
				m := most.Load()
				if n <= m || most.CompareAndSwap(m, n) {
					break
				}
			}
			runtime.Gosched()
			running.Add(-1)
			return nil
		})
	}
	if err := g.Wait(); err != nil || most.Load() != 1 {
		t.Fatalf("round 4, limit 1: Wait = %v, %d at once", err, most.Load())
	}
}

// A child's failure in a later round of a group made by NewGroup is
// reported with its round's position, not as the cancellation an earlier
// round made.
func TestNewGroupRoundCallError(t *testing.T) {
	errA := errors.New("a")
	g, _ := NewGroup(context.Background())
	g.Go(func(context.Context) error { return errA })
	g.Wait()
	g.Go(func(context.Context) error { return nil })
	g.Go(func(context.Context) error { return errA })
	err := g.Wait()
	var ce *CallError
	if !errors.As(err, &ce) || len(ce.Failures) != 1 || ce.Failures[0].Index != 1 || ce.Failures[0].Err != errA {
		t.Fatalf("round 2: Wait = %#v; want one failure, children[1]: a", err)
	}
}

// Children started while Wait waits, by a child or by another goroutine,
// are waited for.
func TestNewGroupGoDuringWait(t *testing.T) {
	g, _ := NewGroup(context.Background())
	var ran atomic.Int32
	waiting := make(chan struct{})
	g.Go(func(ctx context.Context) error {
		<-waiting
		for range 3 {
			g.Go(func(context.Context) error { ran.Add(1); return nil })
		}
		return nil
	})
	res := make(chan error)
	go func() { res <- g.Wait() }()
	close(waiting)
	if err := <-res; err != nil || ran.Load() != 3 {
		t.Fatalf("Wait = %v with %d grandchildren run; want nil, 3", err, ran.Load())
	}
}

// TestNewGroupEndRace races the end of a group (its last child returns as
// Wait lets go) with a spawn from another goroutine: the spawn is either
// taken, and Wait returns after its child, or begins the next round, which
// the next Wait waits for; never taken and left unwaited. Run it with
// -race too.
func TestNewGroupEndRace(t *testing.T) {
	taken, next := 0, 0
	for range 2000 {
		g, _ := NewGroup(context.Background())
		var ran atomic.Int32
		start := make(chan struct{})
		g.Go(func(context.Context) error { <-start; return nil })
		outside := make(chan string)
		go func() {
			<-start
			outside <- catch(func() { g.Go(func(context.Context) error { ran.Add(1); return nil }) })
		}()
		close(start)
		if err := g.Wait(); err != nil {
			t.Fatal(err)
		}
		atWait := ran.Load()
		if msg := <-outside; msg != "" {
			t.Fatalf("the spawn panicked with %q", msg)
		}
		if atWait == 1 {
			taken++
		} else {
			next++
		}
		if err := g.Wait(); err != nil || ran.Load() != 1 {
			t.Fatalf("the next Wait = %v with %d run; want nil, 1", err, ran.Load())
		}
	}
	t.Logf("%d spawns taken, %d began the next round", taken, next)
}

func TestZeroGroup(t *testing.T) {
	boom := errors.New("boom")
	var g Group
	var ran atomic.Int32
	g.Go(func(ctx context.Context) error {
		if ctx != context.Background() {
			t.Errorf("the zero Group's children get %v; want context.Background()", ctx)
		}
		return boom
	})
	for range 5 {
		g.Go(func(ctx context.Context) error { recordedFirst(&g); ran.Add(1); return errors.New("later") })
	}
	if err := g.Wait(); err != boom {
		t.Fatalf("Wait = %v; want the first failure itself", err)
	}
	if ran.Load() != 5 {
		t.Fatalf("%d children ran after the failure; want 5 (errgroup's zero Group cancels nothing)", ran.Load())
	}
}

func TestZeroGroupConcurrentFirstUse(t *testing.T) {
	for range 100 {
		var g Group
		var wg sync.WaitGroup
		var ran atomic.Int32
		for range 4 {
			wg.Go(func() { g.Go(func(context.Context) error { ran.Add(1); return nil }) })
		}
		wg.Wait()
		if err := g.Wait(); err != nil || ran.Load() != 4 {
			t.Fatalf("Wait = %v, %d ran", err, ran.Load())
		}
	}
}

func TestZeroGroupWaitAlone(t *testing.T) {
	var g Group
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	ran := false
	g.Go(func(context.Context) error { ran = true; return nil })
	if err := g.Wait(); err != nil || !ran {
		t.Fatalf("Wait = %v, ran %v; want a second round", err, ran)
	}
}

// TestZeroGroupRounds reuses a zero Group after its Wait, as errgroup's
// tests and restartable services do: each Wait returns its round's
// failures, a Wait with no round since returns the last one's again, and
// the limit stays.
func TestZeroGroupRounds(t *testing.T) {
	e1, e2 := errors.New("e1"), errors.New("e2")
	var g Group
	g.SetLimit(1)
	for i, want := range []error{nil, e1, nil, e2, e2} {
		var running, most atomic.Int32
		gate := make(chan struct{})
		for range 3 {
			g.Go(func(context.Context) error {
				if n := running.Add(1); n > most.Load() {
					most.Store(n)
				}
				defer running.Add(-1)
				<-gate
				return nil
			})
		}
		close(gate)
		if want != nil {
			g.Go(func(context.Context) error { return want })
		}
		if err := g.Wait(); err != want {
			t.Fatalf("round %d: Wait = %v; want %v", i, err, want)
		}
		if err := g.Wait(); err != want {
			t.Fatalf("round %d: a second Wait = %v; want %v", i, err, want)
		}
		if most.Load() != 1 {
			t.Fatalf("round %d: %d children ran at once; want the limit, 1", i, most.Load())
		}
	}
	ok := g.TryGo(func(context.Context) error { return nil })
	if err := g.Wait(); !ok || err != nil {
		t.Fatalf("TryGo = %v, Wait = %v in a new round; want true, nil", ok, err)
	}
	g.SetLimit(-1) // a new round: no child yet, and no limit
	var started sync.WaitGroup
	started.Add(2)
	for range 2 {
		g.Go(func(context.Context) error { started.Done(); started.Wait(); return nil })
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err) // with the limit of 1 kept, the two would never both start
	}
	tk := Spawn(&g, func(context.Context) (int, error) { return 7, nil })
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	if v, err := tk.Wait(context.Background()); v != 7 || err != nil {
		t.Fatalf("the task of a later round = %v, %v", v, err)
	}
}

// A child's panic is raised by its round's Wait, and the next round
// starts clean.
func TestZeroGroupRoundAfterPanic(t *testing.T) {
	var g Group
	g.Go(func(context.Context) error { panic("boom") })
	if msg := catch(func() { g.Wait() }); !strings.Contains(msg, "boom") {
		t.Fatalf("Wait raised %q; want the child's panic", msg)
	}
	g.Go(func(context.Context) error { return nil })
	if err := g.Wait(); err != nil {
		t.Fatalf("the round after a panic: Wait = %v", err)
	}
}

// Rounds begun by several goroutines at once: each round's Wait waits for
// every child started before it was called. Run it with -race too.
func TestZeroGroupRoundsConcurrent(t *testing.T) {
	var g Group
	for round := range 200 {
		var ran atomic.Int32
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() { g.Go(func(context.Context) error { ran.Add(1); return nil }) })
		}
		wg.Wait()
		if err := g.Wait(); err != nil || ran.Load() != 4 {
			t.Fatalf("round %d: Wait = %v with %d of 4 run", round, err, ran.Load())
		}
	}
}

func TestNewGroupLimitNestedWait(t *testing.T) {
	g, _ := NewGroup(context.Background())
	g.SetLimit(1)
	// Each child spawns one and waits for it: at limit 1 a queue that
	// needed a free slot would deadlock.
	var spawn func(depth int) func(context.Context) (int, error)
	spawn = func(depth int) func(context.Context) (int, error) {
		return func(ctx context.Context) (int, error) {
			if depth == 0 {
				return 0, nil
			}
			v, err := Spawn(g, spawn(depth-1)).Wait(ctx)
			return v + 1, err
		}
	}
	top := Spawn(g, spawn(20))
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	if v, _, _ := tryWait(top); v != 20 {
		t.Fatalf("depth %d; want 20", v)
	}
}

func TestNewGroupStop(t *testing.T) {
	g, _ := NewGroup(context.Background(), Grace(time.Hour))
	g.SetLimit(1)
	running := make(chan struct{})
	var stopping atomic.Bool
	g.Go(func(ctx context.Context) error {
		close(running)
		<-Stopping(ctx)
		stopping.Store(true)
		return nil
	})
	tk := Spawn(g, immediate[int]) // queued
	<-running
	g.Stop()
	err := g.Wait()
	var ce *CallError
	if !errors.As(err, &ce) || ce.NotStarted != 1 || !errors.Is(err, ErrStopped) {
		t.Fatalf("Wait = %v; want 1 not started", err)
	}
	if !stopping.Load() {
		t.Fatalf("the running child did not see Stopping closed")
	}
	if _, err, _ := tryWait(tk); !errors.Is(err, context.Canceled) {
		t.Fatalf("the queued task = %v", err)
	}
}

func TestWaitOnScopeGroup(t *testing.T) {
	Scope(context.Background(), func(ctx context.Context, g *Group) (int, error) {
		if msg := catch(func() { g.Wait() }); msg != "task: Group.Wait: g is a Scope's: Scope waits for its children" {
			t.Errorf("Wait in a Scope: %q", msg)
		}
		return 0, nil
	})
	var nilCtx context.Context
	if msg := catch(func() { NewGroup(nilCtx) }); msg != "task: NewGroup: ctx is nil" {
		t.Errorf("NewGroup(nil): %q", msg)
	}
	if msg := catch(func() { (*Group)(nil).Wait() }); msg != "task: Group.Wait: g is nil" {
		t.Errorf("nil Wait: %q", msg)
	}
}

// TestGroupOrphanPanicCrashes runs a program whose Group's child panics
// and whose Wait is never called: the panic crashes it once the group is
// collected.
func TestGroupOrphanPanicCrashes(t *testing.T) {
	if os.Getenv("TASK_TEST_GROUP_ORPHAN") == "1" {
		g, _ := NewGroup(context.Background())
		done := make(chan struct{})
		g.Go(func(context.Context) error { defer close(done); panic("orphaned child") })
		<-done
		g = nil
		for range 1000 {
			runtime.GC()
			time.Sleep(time.Millisecond)
		}
		os.Exit(0) // not crashed: the test fails
	}
	if testing.Short() {
		t.Skip("runs a subprocess")
	}
	out, err := subprocess(t, "TestGroupOrphanPanicCrashes", "TASK_TEST_GROUP_ORPHAN=1")
	if err == nil || !strings.Contains(out, "task: Group: never waited for") || !strings.Contains(out, "orphaned child") {
		t.Fatalf("subprocess err = %v, output:\n%s", err, out)
	}
}

// A panic that Wait raised does not crash the program again when the
// group is collected.
func TestGroupWaitedPanicDoesNotCrash(t *testing.T) {
	if os.Getenv("TASK_TEST_GROUP_OBSERVED") == "1" {
		g, _ := NewGroup(context.Background())
		g.Go(func(context.Context) error { panic("seen") })
		recoverFrom(func() { g.Wait() })
		g = nil
		for range 200 {
			runtime.GC()
			time.Sleep(time.Millisecond)
		}
		os.Exit(0)
	}
	if testing.Short() {
		t.Skip("runs a subprocess")
	}
	if out, err := subprocess(t, "TestGroupWaitedPanicDoesNotCrash", "TASK_TEST_GROUP_OBSERVED=1"); err != nil {
		t.Fatalf("subprocess err = %v, output:\n%s", err, out)
	}
}

// With BlockAtLimit, Go blocks at the limit until a slot frees: a loop
// over a channel keeps at most the limit's children in memory.
func TestBlockAtLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g, _ := NewGroup(context.Background(), BlockAtLimit)
		g.SetLimit(2)
		release := make(chan struct{})
		var running, most atomic.Int32
		spawned := make(chan int, 10)
		go func() {
			for i := range 5 {
				g.Go(func(context.Context) error {
					if n := running.Add(1); n > most.Load() {
						most.Store(n)
					}
					<-release
					running.Add(-1)
					return nil
				})
				spawned <- i
			}
			close(spawned)
		}()
		synctest.Wait()
		if n := len(spawned); n != 2 {
			t.Fatalf("%d Go calls returned at the limit of 2; want 2 (the third blocks)", n)
		}
		g.mu.Lock()
		queued := g.lim.queued
		g.mu.Unlock()
		if queued != 0 {
			t.Fatalf("%d children queued; want none", queued)
		}
		close(release)
		for range spawned {
		}
		if err := g.Wait(); err != nil || most.Load() > 2 {
			t.Fatalf("Wait = %v, %d at once", err, most.Load())
		}
	})
}

// A restartable service's group (taskvet's fix of a limited zero Group
// whose Go must block, a job completer): each round's Go blocks at the
// limit, the limit is kept from one round to the next, and a failure of a
// round is that round's.
func TestBlockAtLimitRounds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g, _ := NewGroup(context.Background(), KeepGoing, FirstError, BlockAtLimit)
		g.SetLimit(2)
		errA := errors.New("a")
		for round := range 3 {
			release := make(chan struct{})
			spawned := make(chan int, 10)
			go func() {
				for i := range 4 {
					g.Go(func(context.Context) error {
						<-release
						if round == 1 && i == 0 {
							return errA
						}
						return nil
					})
					spawned <- i
				}
				close(spawned)
			}()
			synctest.Wait()
			if n := len(spawned); n != 2 {
				t.Fatalf("round %d: %d Go calls returned at the limit of 2; want 2", round, n)
			}
			close(release)
			for range spawned {
			}
			want := error(nil)
			if round == 1 {
				want = errA
			}
			if err := g.Wait(); err != want {
				t.Fatalf("round %d: Wait = %v; want %v", round, err, want)
			}
		}
	})
}

// A spawner blocked at the limit returns when a failure cancels the group,
// its child never started; and so do the others blocked with it.
func TestBlockAtLimitRefused(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		boom := errors.New("boom")
		g, _ := NewGroup(context.Background(), BlockAtLimit)
		g.SetLimit(1)
		fail := make(chan struct{})
		g.Go(func(context.Context) error { <-fail; return boom })
		var started atomic.Int32
		returned := make(chan struct{}, 3)
		for range 3 {
			go func() {
				g.Go(func(context.Context) error { started.Add(1); return nil })
				returned <- struct{}{}
			}()
		}
		synctest.Wait()
		if len(returned) != 0 {
			t.Fatalf("a Go returned at the limit")
		}
		close(fail)
		for range 3 {
			<-returned
		}
		err := g.Wait()
		var ce *CallError
		if !errors.As(err, &ce) || len(ce.Failures) != 1 || ce.NotStarted != 3 || started.Load() != 0 {
			t.Fatalf("Wait = %v (%d started); want the failure and 3 not started", err, started.Load())
		}
	})
}

// With BlockAtLimit a stop wakes the blocked spawners: their children are
// not started.
func TestBlockAtLimitStop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g, _ := NewGroup(context.Background(), BlockAtLimit)
		g.SetLimit(1)
		release := make(chan struct{})
		g.Go(func(context.Context) error { <-release; return nil })
		returned := make(chan struct{})
		go func() {
			g.Go(func(context.Context) error { t.Errorf("started after Stop"); return nil })
			close(returned)
		}()
		synctest.Wait()
		g.Stop()
		<-returned
		close(release)
		var ce *CallError
		if err := g.Wait(); !errors.As(err, &ce) || ce.NotStarted != 1 {
			t.Fatalf("Wait = %v; want 1 not started", err)
		}
	})
}

// Slots that free at once each go to a spawner blocked at the limit.
func TestBlockAtLimitSlotsFreeTogether(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g, _ := NewGroup(context.Background(), BlockAtLimit)
		g.SetLimit(2)
		release := make(chan struct{})
		for range 2 {
			g.Go(func(context.Context) error { <-release; return nil })
		}
		var started atomic.Int32
		hold := make(chan struct{})
		for range 4 {
			go g.Go(func(context.Context) error { started.Add(1); <-hold; return nil })
		}
		synctest.Wait()
		close(release)
		synctest.Wait()
		if n := started.Load(); n != 2 {
			t.Fatalf("%d blocked spawners started their child when 2 slots freed; want 2", n)
		}
		close(hold)
		if err := g.Wait(); err != nil || started.Load() != 4 {
			t.Fatalf("Wait = %v, %d started; want nil, 4", err, started.Load())
		}
	})
}

// A spawner blocked at the limit returns when the caller's ctx ends, its
// child never started, as TryGo refuses then: without Grace, and with
// Grace, whose stop takes no new work from the start of the grace period.
// Go and Spawn alike; with KeepGoing (no Grace), which runs every child
// whatever ctx does, it waits for its slot.
func TestBlockAtLimitCallerCtx(t *testing.T) {
	for _, tc := range []struct {
		name  string
		opts  []Option
		spawn bool
		waits bool // the spawner waits for the slot, at 1h
	}{
		{"Go", nil, false, false},
		{"Spawn", nil, true, false},
		{"Go with Grace", []Option{Grace(time.Minute)}, false, false},
		{"Spawn with Grace", []Option{Grace(time.Minute)}, true, false},
		{"Go with KeepGoing", []Option{KeepGoing}, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				start := time.Now()
				g, _ := NewGroup(ctx, append(tc.opts, BlockAtLimit)...)
				g.SetLimit(1)
				g.Go(func(context.Context) error { time.Sleep(time.Hour); return nil }) // ignores ctx
				var ran atomic.Bool
				returned := make(chan time.Duration)
				go func() {
					if tc.spawn {
						Spawn(g, func(context.Context) (int, error) { ran.Store(true); return 0, nil })
					} else {
						g.Go(func(context.Context) error { ran.Store(true); return nil })
					}
					returned <- time.Since(start)
				}()
				time.Sleep(time.Second)
				cancel()
				d := <-returned
				if !tc.waits && g.TryGo(func(context.Context) error { return nil }) {
					t.Fatalf("TryGo took a child after ctx ended")
				}
				err := g.Wait()
				var ce *CallError
				switch {
				case tc.waits:
					if d != time.Hour || err != nil || !ran.Load() {
						t.Fatalf("spawner returned at %v, Wait = %v, ran %v; want 1h, nil, true", d, err, ran.Load())
					}
				case d != time.Second:
					t.Fatalf("spawner returned at %v; want 1s, when ctx ended", d)
				case ran.Load() || !errors.As(err, &ce) || ce.NotStarted != 1:
					t.Fatalf("Wait = %v (child ran: %v); want 1 not started", err, ran.Load())
				}
			})
		})
	}
}

// TryGo and TrySpawn start nothing and say so once the group takes no
// new child: after Stop, and after a failure that cancels it.
func TestTryAfterStopOrFailure(t *testing.T) {
	for _, end := range []string{"Stop", "failure"} {
		g, _ := NewGroup(context.Background())
		switch end {
		case "Stop":
			g.Stop()
		case "failure":
			done := make(chan struct{})
			g.Go(func(context.Context) error { defer close(done); return errors.New("boom") })
			<-done
			for g.refusal() == admitted { // the failure is applied after the function returns
				runtime.Gosched()
			}
		}
		if g.TryGo(func(context.Context) error { t.Errorf("%s: TryGo's function ran", end); return nil }) {
			t.Errorf("after %s: TryGo = true", end)
		}
		if tk, ok := TrySpawn(g, func(context.Context) (int, error) { t.Errorf("%s: TrySpawn's function ran", end); return 0, nil }); ok || tk != nil {
			t.Errorf("after %s: TrySpawn = %v, %v", end, tk, ok)
		}
		err := g.Wait()
		var ce *CallError
		if end == "Stop" && (err != nil) {
			t.Errorf("after Stop: Wait = %v; want nil (nothing was refused)", err)
		}
		if end == "failure" && (!errors.As(err, &ce) || ce.NotStarted != 0 || len(ce.Canceled) != 0) {
			t.Errorf("after a failure: Wait = %v; want the failure alone", err)
		}
	}
}

// recordedFirst waits until the group has recorded a first failure
// (FirstError's), so that a later failure is later for the group too: a
// function's deferred calls run before the group records its end.
func recordedFirst(g *Group) {
	for {
		if _, ok := g.c.firstAt(); ok {
			return
		}
		runtime.Gosched()
	}
}

// NewGroup's ctx is derived from the caller's and canceled when Wait
// returns, with KeepGoing too (as errgroup.WithContext's); with
// KeepGoing, a failure does not cancel it.
func TestNewGroupCtxCanceledByWait(t *testing.T) {
	for _, opts := range [][]Option{nil, {KeepGoing}, {KeepGoing, FirstError}, {KeepGoing, Grace(time.Second)}} {
		parent := context.Background()
		g, ctx := NewGroup(parent, opts...)
		if ctx == parent {
			t.Fatalf("%v: NewGroup returned the caller's ctx", opts)
		}
		failed := make(chan struct{})
		g.Go(func(context.Context) error { defer close(failed); return errors.New("boom") })
		<-failed
		if len(opts) > 0 && ctx.Err() != nil {
			t.Fatalf("%v: a failure canceled ctx: %v", opts, ctx.Err())
		}
		if err := g.Wait(); err == nil {
			t.Fatalf("%v: Wait = nil", opts)
		}
		select {
		case <-ctx.Done():
		default:
			t.Fatalf("%v: ctx not done after Wait", opts)
		}
		if !errors.Is(ctx.Err(), context.Canceled) {
			t.Fatalf("%v: ctx.Err() = %v after Wait; want Canceled", opts, ctx.Err())
		}
	}
}

// Without Grace, Stop cancels nothing, and Stopping is ctx.Done(): Stop
// leaves it open (with Grace, Stop closes it: TestGroupStop).
func TestStopWithoutGraceLeavesStoppingOpen(t *testing.T) {
	g, _ := NewGroup(context.Background())
	stopped := make(chan struct{})
	saw := make(chan bool)
	g.Go(func(ctx context.Context) error {
		<-stopped
		saw <- closedChan(Stopping(ctx))
		return nil
	})
	g.Stop()
	close(stopped)
	if <-saw {
		t.Fatalf("Stopping closed by Stop without Grace")
	}
	g.Wait()
}

// A spawner blocked at the limit of a group nested in a call with Grace
// returns when that call stops taking new work: the stop is its too.
func TestBlockAtLimitOuterStop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		returned := make(chan time.Duration, 1)
		start := time.Now()
		outer, _ := NewGroup(ctx, Grace(time.Hour))
		outer.Go(func(ctx context.Context) error {
			g, _ := NewGroup(ctx, BlockAtLimit)
			g.SetLimit(1)
			g.Go(func(context.Context) error { time.Sleep(time.Minute); return nil }) // ignores ctx
			g.Go(func(context.Context) error { t.Error("started after the outer stop"); return nil })
			returned <- time.Since(start)
			return g.Wait()
		})
		time.Sleep(time.Second)
		cancel() // the outer stop: the grace period begins
		if d := <-returned; d != time.Second {
			t.Fatalf("the blocked spawner returned at %v; want 1s, at the outer stop", d)
		}
		outer.Wait()
	})
}

// NewGroup takes Scope's options but Settled, which panics, as every
// option a call does not take.
func TestNewGroupSettledPanics(t *testing.T) {
	if msg := catch(func() { NewGroup(context.Background(), Settled) }); msg != "task: NewGroup: Settled does not apply to NewGroup" {
		t.Fatalf("NewGroup(ctx, Settled) panicked with %q", msg)
	}
	for _, o := range []Option{KeepGoing, FirstError, Grace(time.Second), BlockAtLimit, StartAll} {
		if msg := catch(func() { g, _ := NewGroup(context.Background(), o); g.Wait() }); msg != "" {
			t.Errorf("NewGroup(ctx, %v) panicked with %q", o, msg)
		}
	}
}
