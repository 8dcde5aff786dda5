package bench

import (
	"context"
	"errors"
	"reflect"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/alitto/pond/v2"
	"github.com/sourcegraph/conc"
	"github.com/sourcegraph/conc/pool"
	"golang.org/x/sync/errgroup"

	"github.com/tasktuple/task"
)

// These tests pin how the peers behave, at the versions in go.mod, in the
// failure modes docs/reliability.md lists, next to what this library does.
// They guard against a hang with a generous timeout: a guard, not a timing.

const hangGuard = time.Second

// outcomeOf runs f on its own goroutine and reports how it ended.
func outcomeOf(f func() error) (panicked any, exited, hung bool, err error) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		returned := false
		defer func() {
			if !returned {
				panicked = recover()
				exited = panicked == nil
			}
		}()
		err = f()
		returned = true
	}()
	select {
	case <-done:
		return
	case <-time.After(hangGuard):
		return nil, false, true, nil
	}
}

func TestGoexitInAFunction(t *testing.T) {
	goexit := func() error { runtime.Goexit(); return nil }

	// errgroup: Wait returns nil, as if the function had succeeded.
	p, exited, hung, err := outcomeOf(func() error {
		var g errgroup.Group
		g.Go(goexit)
		return g.Wait()
	})
	t.Logf("errgroup: err=%v panic=%v goexit=%v hung=%v", err, p, exited, hung)
	if err != nil || p != nil || exited || hung {
		t.Errorf("errgroup's behavior changed: err=%v panic=%v goexit=%v hung=%v", err, p, exited, hung)
	}

	// pond: record what the pinned version does.
	p, exited, hung, err = outcomeOf(func() error {
		g := pond.NewGroup()
		g.SubmitErr(goexit)
		return g.Wait()
	})
	t.Logf("pond group: err=%v panic=%v goexit=%v hung=%v", err, p, exited, hung)
	if !hung {
		t.Errorf("pond's behavior changed: Wait after a Goexit no longer hangs (err=%v panic=%v goexit=%v)", err, p, exited)
	}

	// task: the Goexit is repeated in the caller, after the others finish.
	p, exited, hung, err = outcomeOf(func() error {
		_, _, err := task.Run2(context.Background(),
			func(context.Context) (int, error) { runtime.Goexit(); return 1, nil },
			func(context.Context) (string, error) { return "x", nil })
		return err
	})
	if !exited || err != nil || p != nil || hung {
		t.Errorf("task.Run2: err=%v panic=%v goexit=%v hung=%v; want the Goexit passed on", err, p, exited, hung)
	}
}

func TestTwoPanics(t *testing.T) {
	boom := func(msg string) func() { return func() { panic(msg) } }

	// conc: the panic raised by Wait carries one of the two values only.
	p, _, _, _ := outcomeOf(func() error {
		var wg conc.WaitGroup
		wg.Go(boom("first"))
		wg.Go(boom("second"))
		wg.Wait()
		return nil
	})
	msg := ""
	if p != nil {
		msg = strings.Split(toString(p), "\n")[0]
	}
	t.Logf("conc.WaitGroup with two panics raises: %q", msg)
	if strings.Contains(msg, "first") == strings.Contains(msg, "second") {
		t.Errorf("conc's behavior changed: the panic holds %q", msg)
	}

	// task: the first panic is raised as itself, and holds the second.
	p, _, _, _ = outcomeOf(func() error {
		_, _, err := task.Run2(context.Background(),
			func(context.Context) (int, error) { panic("first") },
			func(context.Context) (int, error) { panic("second") })
		return err // not reached: Run2 panics
	})
	pe, _ := p.(*task.PanicError)
	var second *task.PanicError
	if pe == nil || pe.Value != "first" || pe.Others == nil || len(pe.Others.Failures) != 1 ||
		!errors.As(pe.Others.Failures[0], &second) || second.Value != "second" {
		t.Errorf("task.Run2 with two panics raised %v; want the first holding the second", p)
	}
}

func toString(v any) string {
	if e, ok := v.(error); ok {
		return e.Error()
	}
	if s, ok := v.(interface{ String() string }); ok {
		return s.String()
	}
	if s, ok := v.(string); ok {
		return s
	}
	return "(non-string panic value)"
}

// deadlockWait is how long a call that should have returned at once is
// given before it is taken to be blocked for good.
const deadlockWait = 200 * time.Millisecond

// TestSpawnAtTheLimit pins errgroup's deadlock when a function of the group
// starts another at the limit, next to task.Scope, where it cannot happen.
//
// With g.SetLimit(1), a function started by g.Go that calls g.Go itself
// blocks forever: g.Go waits for a free slot, and the only slot is held by
// the function that waits. A child of a task.Scope with SetLimit(1) that
// spawns another returns at once: the new child waits for the slot as a
// task, without a goroutine, and starts when the spawner returns. (A child
// that waited for a child it spawned at the limit would still deadlock,
// there as anywhere: a limit bounds the children that run.)
func TestSpawnAtTheLimit(t *testing.T) {
	t.Run("errgroup", func(t *testing.T) {
		var g errgroup.Group
		g.SetLimit(1)
		innerRan := make(chan struct{})
		waited := make(chan error, 1)
		go func() {
			g.Go(func() error {
				g.Go(func() error { close(innerRan); return nil }) // blocks: the slot is ours
				return nil
			})
			waited <- g.Wait()
		}()
		select {
		case err := <-waited:
			t.Fatalf("errgroup's behavior changed: a g.Go at the limit inside the group returned (Wait = %v)", err)
		case <-time.After(deadlockWait):
		}
		t.Logf("errgroup with SetLimit(1): a g.Go inside the group is still blocked after %v", deadlockWait)

		// Release the two goroutines, so that the test leaves none behind.
		// Nothing in errgroup's API can, so reach its semaphore: take the
		// outer function's token, which lets the inner g.Go proceed, then
		// put one back for the outer function's release.
		sem := reflect.ValueOf(&g).Elem().FieldByName("sem")
		if sem.Kind() != reflect.Chan {
			t.Fatalf("errgroup's internals changed: no sem channel to release the blocked g.Go with; it stays blocked")
		}
		sem = reflect.NewAt(sem.Type(), unsafe.Pointer(sem.UnsafeAddr())).Elem()
		sem.Recv()
		select {
		case <-innerRan:
		case <-time.After(hangGuard):
			t.Fatal("the blocked g.Go did not proceed once its slot was freed")
		}
		sem.Send(reflect.Zero(sem.Type().Elem()))
		select {
		case err := <-waited:
			if err != nil {
				t.Errorf("errgroup Wait after the release = %v; want nil", err)
			}
		case <-time.After(hangGuard):
			t.Fatal("errgroup's Wait did not return after the release")
		}
	})

	t.Run("task.Scope", func(t *testing.T) {
		var innerRan atomic.Bool
		p, exited, hung, err := outcomeOf(func() error {
			_, err := task.Scope(context.Background(), func(ctx context.Context, g *task.Group) (int, error) {
				g.SetLimit(1)
				outer := task.Spawn(g, func(context.Context) (int, error) {
					task.Spawn(g, func(context.Context) (struct{}, error) { innerRan.Store(true); return struct{}{}, nil })
					return 1, nil
				})
				return outer.Wait(ctx)
			})
			return err
		})
		if hung || p != nil || exited || err != nil || !innerRan.Load() {
			t.Errorf("task.Scope with SetLimit(1) and a child that spawns: err=%v panic=%v goexit=%v hung=%v inner ran=%v; want it to return nil after both ran",
				err, p, exited, hung, innerRan.Load())
		}
	})
}

// TestPanicsInADynamicLoop: two of 100 children started by a loop at a
// limit of 8 panic. conc's pool raises one of the two values from Wait,
// as TestTwoPanics pins for its WaitGroup; task.Scope raises the first in
// spawn order, holding the second. In the Scope the first panics only once
// the second has started: after a failure no child waiting for a slot
// starts (Group.SetLimit), so the second would otherwise not run at all.
func TestPanicsInADynamicLoop(t *testing.T) {
	ctx := context.Background()
	boom := func(i int) {
		switch i {
		case 10:
			panic("first")
		case 50:
			panic("second")
		}
	}

	p, _, _, _ := outcomeOf(func() error {
		cp := pool.New().WithMaxGoroutines(8).WithContext(ctx)
		for i := range 100 {
			cp.Go(func(context.Context) error { boom(i); return nil })
		}
		return cp.Wait()
	})
	msg := ""
	if p != nil {
		msg = strings.Split(toString(p), "\n")[0]
	}
	t.Logf("conc's pool with two panics raises: %q", msg)
	if strings.Contains(msg, "first") == strings.Contains(msg, "second") {
		t.Errorf("conc's behavior changed: the panic holds %q", msg)
	}

	secondStarted := make(chan struct{})
	p, _, _, _ = outcomeOf(func() error {
		_, err := task.Scope(ctx, func(ctx context.Context, g *task.Group) (int, error) {
			g.SetLimit(8)
			for i := range 100 {
				task.Spawn(g, func(context.Context) (struct{}, error) {
					switch i {
					case 10:
						select {
						case <-secondStarted:
						case <-time.After(hangGuard):
						}
					case 50:
						close(secondStarted)
					}
					boom(i)
					return struct{}{}, nil
				})
			}
			return 0, nil
		})
		return err
	})
	pe, _ := p.(*task.PanicError)
	var second *task.PanicError
	if pe == nil || pe.Value != "first" || pe.Others == nil || len(pe.Others.Failures) != 1 ||
		!errors.As(pe.Others.Failures[0], &second) || second.Value != "second" {
		t.Errorf("task.Scope with two panics raised %v; want the first holding the second", p)
	}
}
