package bench

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/alitto/pond/v2"
	"github.com/sourcegraph/conc"
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
		task.Run2(context.Background(),
			func(context.Context) (int, error) { panic("first") },
			func(context.Context) (int, error) { panic("second") })
		return nil
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
