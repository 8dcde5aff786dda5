package task

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// The story a failure tells (issue 8, items 5 to 8): the exact messages,
// what stays reachable, and how a panic is raised.

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// frame returns the function line of the i-th frame of a goroutine stack.
func frame(stack []byte, i int) string {
	lines := strings.Split(string(stack), "\n")
	if 1+2*i >= len(lines) {
		return ""
	}
	return lines[1+2*i]
}

func failWith[T any](err error) func(context.Context) (T, error) {
	return func(context.Context) (T, error) { var zero T; return zero, err }
}

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
			_, err := Map(ctx, []int{0, 1, 2, 3, 4}, 2, func(_ context.Context, i int) (int, error) {
				if i == 3 {
					return 0, notFound
				}
				return i, nil
			})
			return err
		}, "task: Map: inputs[3]: 404 not found"},
		{"Await2", func() error {
			_, _, err := Await2(ctx, FromResult(1), FromError[string](notFound))
			return err
		}, "task: Await2: t2: 404 not found"},
		{"All", func() error {
			_, err := All(ctx, []*Task[int]{FromResult(1), FromError[int](notFound)})
			return err
		}, "task: All: tasks[1]: 404 not found"},
		{"AllSeq", func() error {
			_, err := AllSeq(ctx, slices.Values([]*Task[int]{FromError[int](notFound)}))
			return err
		}, "task: AllSeq: tasks[0]: 404 not found"},
		{"WhenAll", func() error {
			return WhenAll(ctx, FromResult(1), FromError[string](notFound))
		}, "task: WhenAll: tasks[1]: 404 not found"},
		{"FirstOK", func() error {
			_, _, err := FirstOK(ctx, []*Task[int]{FromError[int](recs), FromError[int](stock)})
			return err
		}, "task: FirstOK: tasks[0]: recs: 500 internal error\ntask: FirstOK: tasks[1]: stock: 503 unavailable"},
		{"RunFirstOK", func() error {
			_, _, err := RunFirstOK(ctx, failWith[int](recs), failWith[int](stock))
			return err
		}, "task: RunFirstOK: fns[0]: recs: 500 internal error\ntask: RunFirstOK: fns[1]: stock: 503 unavailable"},
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
			slow := NewSource[string]()
			_, _, _, err := Await3(ctx, FromResult(1), slow.Task(), NewSource[bool]().Task())
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
		src := NewSource[int]()
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

// TestCancellationRule: the ambiguous cases of what is a failure and what
// is a cancellation the call caused. Nothing a function returns is lost:
// each error is either a failure or kept in Canceled or Unfinished.
func TestCancellationRule(t *testing.T) {
	notFound := errors.New("not found")
	// f1 fails with notFound once f2 is running; f2 waits for the
	// cancellation, then returns what the case says.
	for _, c := range []struct {
		name       string
		ret        func(ctx context.Context) error
		report     []int // positions in Failures
		canceled   []int // positions in Canceled
		firstIsF1  bool
		unfinished bool
	}{
		{"ctx.Err", func(ctx context.Context) error { return ctx.Err() }, []int{0}, []int{1}, true, false},
		{"wrapped ctx.Err", func(ctx context.Context) error { return fmt.Errorf("gave up: %w", ctx.Err()) }, []int{0}, []int{1}, true, false},
		{"the cause", func(ctx context.Context) error { return context.Cause(ctx) }, []int{0}, []int{1}, true, false},
		{"wrapped cause", func(ctx context.Context) error { return fmt.Errorf("gave up: %w", context.Cause(ctx)) }, []int{0}, []int{1}, true, false},
		{"same sentinel, on its own", func(context.Context) error { return notFound }, []int{0, 1}, nil, true, false},
		{"its own deadline", func(context.Context) error { return fmt.Errorf("inner: %w", context.DeadlineExceeded) }, []int{0, 1}, nil, true, false},
		{"nil: finished anyway", func(context.Context) error { return nil }, []int{0}, nil, true, false},
	} {
		synctest.Test(t, func(t *testing.T) {
			started := make(chan struct{})
			_, _, err := Run2(context.Background(),
				func(context.Context) (int, error) { <-started; return 0, notFound },
				func(ctx context.Context) (int, error) {
					close(started)
					<-ctx.Done()
					return 0, c.ret(ctx)
				})
			var ce *CallError
			if !errors.As(err, &ce) {
				t.Fatalf("%s: err = %v", c.name, err)
			}
			if got := indexes(ce.Failures); !slices.Equal(got, c.report) {
				t.Errorf("%s: Failures at %v; want %v\n%v", c.name, got, c.report, err)
			}
			if got := indexes(ce.Canceled); !slices.Equal(got, c.canceled) {
				t.Errorf("%s: Canceled at %v; want %v", c.name, got, c.canceled)
			}
			if ce.Ctx != nil || len(ce.Unfinished) > 0 {
				t.Errorf("%s: Ctx = %v, Unfinished = %v; want none: the caller's ctx is fine", c.name, ce.Ctx, ce.Unfinished)
			}
			if strings.Count(err.Error(), "\n")+1 != len(c.report) {
				t.Errorf("%s: message %q; want one line per failure", c.name, err)
			}
		})
	}
	t.Run("Canceled before any failure is a failure", func(t *testing.T) {
		_, _, err := Run2(context.Background(), failWith[int](context.Canceled), immediate[int])
		var ce *CallError
		if !errors.As(err, &ce) || len(ce.Failures) != 1 || !errors.Is(err, context.Canceled) || ce.Ctx != nil {
			t.Errorf("err = %#v; want f1's context.Canceled as a failure", err)
		}
	})
	t.Run("caller's ctx, KeepGoing", func(t *testing.T) {
		ctx, cancel := context.WithCancelCause(context.Background())
		stop := errors.New("shutting down")
		_, _, err := Run2(ctx,
			func(ctx context.Context) (int, error) { cancel(stop); return 0, context.Cause(ctx) },
			func(ctx context.Context) (int, error) { <-ctx.Done(); return 0, ctx.Err() }, KeepGoing)
		var ce *CallError
		if !errors.As(err, &ce) || len(ce.Failures) != 0 || !slices.Equal(indexes(ce.Unfinished), []int{0, 1}) ||
			!errors.Is(err, context.Canceled) || !errors.Is(err, stop) {
			t.Errorf("err = %v; want both positions unfinished, the cancellation and its cause", err)
		}
	})
}

func indexes(pes []*PositionError) []int {
	var is []int
	for _, pe := range pes {
		is = append(is, pe.Index)
	}
	return is
}

// TestPanicRaisedAsItself: the first panic in argument order is raised as
// its own *PanicError, located, holding every other failure, with a stack
// that starts at the panicking frame.
func TestPanicRaisedAsItself(t *testing.T) {
	recs := errors.New("recs: 500 internal error")
	panics := func(v string) func(context.Context) (int, error) {
		return func(context.Context) (int, error) { panic(v) }
	}
	r := recoverFrom(func() {
		Run4(context.Background(), failWith[int](recs), panics("first"), immediate[int], panics("second"), KeepGoing)
	})
	pe, ok := r.(*PanicError)
	if !ok {
		t.Fatalf("recovered %T %v; want *PanicError", r, r)
	}
	if pe.Value != "first" || pe.Call != "Run4" || pe.Index != 1 || pe.Arg != "f2" {
		t.Errorf("raised %v at %s %d %s; want first at Run4 1 f2", pe.Value, pe.Call, pe.Index, pe.Arg)
	}
	if !errors.Is(pe, recs) {
		t.Errorf("errors.Is(pe, recs) = false")
	}
	var second *PanicError
	if pe.Others == nil || !errors.As(pe.Others, &second) || second.Value != "second" {
		t.Errorf("Others = %v; want f4's panic", pe.Others)
	}
	if got := positions(pe); !slices.Equal(got, []int{0, 1, 3}) {
		t.Errorf("positions %v; want [0 1 3]", got)
	}
	msg := pe.Error()
	if !strings.HasPrefix(msg, "task: Run4: f2: panic: first\n\ngoroutine ") || !contains(msg, "\ntask: Run4: f1: recs: 500 internal error") {
		t.Errorf("message:\n%s", msg)
	}
	if first := frame(pe.Stack, 0); !contains(first, "TestPanicRaisedAsItself") || contains(first, "task.invoke") {
		t.Errorf("stack starts at %q; want the panicking function", first)
	}
	// A runtime error too: the runtime's frames are not shown.
	r = recoverFrom(func() {
		Run2(context.Background(), immediate[int], func(context.Context) (int, error) {
			var m map[string]int
			//lint:ignore SA5000 the runtime panic is the point
			m["x"] = 1
			return 0, nil
		})
	})
	if pe, ok := r.(*PanicError); !ok || !contains(frame(pe.Stack, 0), "TestPanicRaisedAsItself") {
		t.Errorf("runtime panic: %v", r)
	}
}

// TestOrphanMessage: the crash of a panic nobody waited for says so, and
// shows the stack from the panicking frame to the line that started the
// task.
func TestOrphanMessage(t *testing.T) {
	tk := Go(context.Background(), func(context.Context) (int, error) { panic("nobody waits") })
	<-tk.Done()
	o := &OrphanPanicError{PanicError: tk.err.(*PanicError)}
	msg := o.Error()
	if !strings.HasPrefix(msg, "task: Go: never waited for: panic: nobody waits\n\ngoroutine ") ||
		!contains(msg, "TestOrphanMessage") || !contains(msg, "created by github.com/tasktuple/task.Go") {
		t.Errorf("message:\n%s", msg)
	}
	tk.observe() // this test looked at the panic: no crash later
}

// TestMapStoppedByCtx: when ctx ends Map before every input has started,
// the error says so even if no call was stopped: the zero results of the
// inputs never started are never read as success.
func TestMapStoppedByCtx(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var calls int
	out, err := Map(ctx, []int{0, 1, 2, 3, 4, 5}, 1, func(_ context.Context, i int) (int, error) {
		calls++ // limit 1: one call at a time
		if i == 2 {
			cancel() // input 2 itself finishes anyway
		}
		return i, nil
	})
	if calls != 3 || out != nil || !errors.Is(err, context.Canceled) || err.Error() != "task: Map: context canceled" {
		t.Errorf("Map = %v, %v after %d calls; want nil, task: Map: context canceled, after 3", out, err, calls)
	}
}
