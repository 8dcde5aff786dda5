//go:build go1.25

package task

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// The story a failure tells (issue 8, items 5 to 8): the exact messages,
// what stays reachable, and how a panic is raised.

func TestMessages(t *testing.T) {
	ctx := context.Background()
	recs := errors.New("recs: 500 internal error")
	stock := errors.New("stock: 503 unavailable")
	notFound := errors.New("404 not found")
	for _, c := range []struct {
		name string
		call func() error
		want string
	}{
		{"Run3", func() error {
			_, _, _, err := Run3(ctx, immediate[int], failWith[string](recs), failWith[bool](stock), KeepGoing)
			return err
		}, "task: Run3: f2: recs: 500 internal error\ntask: Run3: f3: stock: 503 unavailable"},
		{"Map", func() error {
			_, err := Map(ctx, []int{0, 1, 2, 3}, 2, func(_ context.Context, i int) (int, error) {
				if i == 3 {
					return 0, notFound
				}
				return i, nil
			})
			return err
		}, "task: Map: inputs[3]: 404 not found"},
		{"Await2", func() error {
			_, _, err := Await2(ctx, fromResult(1), fromError[string](notFound))
			return err
		}, "task: Await2: t2: 404 not found"},
		{"All", func() error {
			_, err := All(ctx, []*Task[int]{fromResult(1), fromError[int](notFound)})
			return err
		}, "task: All: tasks[1]: 404 not found"},
		{"Hedge", func() error {
			_, _, err := Hedge(ctx, 0, nil, failWith[int](recs), failWith[int](stock))
			return err
		}, "task: Hedge: fns[0]: recs: 500 internal error\ntask: Hedge: fns[1]: stock: 503 unavailable"},
	} {
		err := c.call()
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: error\n%v\nwant\n%s", c.name, err, c.want)
			continue
		}
		var ce *CallError
		if !errors.As(err, &ce) || ce.Call != c.name {
			t.Errorf("%s: %T is not a *CallError of %s", c.name, err, c.name)
		}
		// One PositionError per failure, errors.Is as before.
		for _, e := range ce.Unwrap() {
			if _, ok := e.(*PositionError); !ok {
				t.Errorf("%s: Unwrap holds %T", c.name, e)
			}
		}
	}
}

// TestDeadlineStory: when the caller's ctx ends RunN, the error names the
// positions that had not finished, keeps what they returned, blames no
// position that finished in time, and reaches the deadline and its cause.
func TestDeadlineStory(t *testing.T) {
	budget := errors.New("200ms budget spent")
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithTimeoutCause(context.Background(), 200*time.Millisecond, budget)
		defer cancel()
		_, _, _, err := Run3(ctx,
			func(context.Context) (int, error) { time.Sleep(50 * time.Millisecond); return 1, nil },
			func(context.Context) (int, error) { return 0, errors.New("stock: 503 unavailable") },
			func(ctx context.Context) (int, error) {
				<-ctx.Done()
				return 0, fmt.Errorf("recs service: %w", ctx.Err())
			}, KeepGoing)
		want := "task: Run3: f2: stock: 503 unavailable\n" +
			"task: Run3: context deadline exceeded: 200ms budget spent\n" +
			"task: Run3: f3 had not finished: recs service: context deadline exceeded"
		if err == nil || err.Error() != want {
			t.Fatalf("error\n%v\nwant\n%s", err, want)
		}
		if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, budget) {
			t.Errorf("errors.Is(err, DeadlineExceeded) or the cause is false")
		}
		var ce *CallError
		errors.As(err, &ce)
		if ps := positions(err); !slices.Equal(ps, []int{1, -1}) {
			t.Errorf("positions %v; want [1 -1]: f2 and the context error", ps)
		}
		if len(ce.Unfinished) != 1 || ce.Unfinished[0].Arg != "f3" || !contains(ce.Unfinished[0].Err.Error(), "recs service") {
			t.Errorf("Unfinished = %v; want f3 with its error", ce.Unfinished)
		}
	})
	t.Run("Await", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			slow := newSource[string]()
			_, _, _, err := Await3(ctx, fromResult(1), slow.Task(), newSource[bool]().Task())
			want := "task: Await3: context deadline exceeded\n" +
				"task: Await3: t2 had not finished\n" +
				"task: Await3: t3 had not finished"
			if err == nil || err.Error() != want {
				t.Fatalf("error\n%v\nwant\n%s", err, want)
			}
		})
	})
	t.Run("many unfinished", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		tasks := make([]*Task[int], 20)
		src := newSource[int]()
		for i := range tasks {
			tasks[i] = src.Task()
		}
		_, err := All(ctx, tasks)
		lines := strings.Split(err.Error(), "\n")
		if len(lines) != 2+maxUnfinishedLines || lines[len(lines)-1] != "task: All: 12 more had not finished" {
			t.Errorf("error:\n%v", err)
		}
	})
}

// TestOrphanMessage: the crash of a panic nobody waited for says so, and
// shows the stack from the panicking frame to the line that started the
// task.
func TestOrphanMessage(t *testing.T) {
	tk := Go(context.Background(), func(context.Context) (int, error) { panic("nobody waits") })
	<-tk.Done()
	o := *tk.failure().(*PanicError)
	o.orphan = "Go"
	msg := o.Error()
	if !strings.HasPrefix(msg, "task: Go: never waited for: panic: nobody waits\n\ngoroutine ") ||
		!contains(msg, "TestOrphanMessage") || !contains(msg, "created by github.com/tasktuple/task.Go") {
		t.Errorf("message:\n%s", msg)
	}
	tk.observe() // this test looked at the panic: no crash later
}

// A PanicError prints in one line with %v and %s (a recover middleware's
// log line), with the stack with %+v, and Error keeps the stack for a
// crash.
func TestPanicErrorOneLine(t *testing.T) {
	pe := recoverFrom(func() {
		Run2(context.Background(),
			func(context.Context) (int, error) { panic("boom") },
			func(context.Context) (int, error) { return 0, errors.New("down") })
	}).(*PanicError)
	one := fmt.Sprintf("%v", pe)
	if strings.Contains(one, "\n") || !strings.HasPrefix(one, "task: Run2: f1: panic: boom [at errors_test.go:") || !strings.HasSuffix(one, "] (and 1 other failure)") {
		t.Errorf("%%v = %q", one)
	}
	if s := fmt.Sprintf("%s", pe); s != one {
		t.Errorf("%%s = %q; want %q", s, one)
	}
	if q := fmt.Sprintf("%q", pe); q != strconv.Quote(one) {
		t.Errorf("%%q = %s", q)
	}
	if full := fmt.Sprintf("%+v", pe); full != pe.Error() || !strings.Contains(full, "goroutine") && !strings.Contains(full, "errors_test.go") {
		t.Errorf("%%+v is not Error with the stack:\n%s", full)
	}
	if !strings.Contains(pe.Error(), "\n") {
		t.Errorf("Error lost the stack: %q", pe.Error())
	}
}

// A panic passed on through a nested call keeps, in Error (what a crash
// prints), the stack where it first happened.
func TestNestedPanicErrorKeepsFirstStack(t *testing.T) {
	ctx := context.Background()
	pe := recoverFrom(func() {
		Run2(ctx, immediate[int], func(ctx context.Context) (int, error) {
			_, _, err := Run2(ctx, immediate[int], panicsDeep)
			return 0, err
		})
	}).(*PanicError)
	if !strings.Contains(pe.Error(), "panicsDeep") {
		t.Errorf("the outer Error lost the stack of the first panic:\n%s", pe.Error())
	}
	if one := fmt.Sprint(pe); strings.Contains(one, "\n") {
		t.Errorf("%%v of a nested panic is not one line: %q", one)
	}
}

//go:noinline
func panicsDeep(context.Context) (int, error) { panic("deep") }
