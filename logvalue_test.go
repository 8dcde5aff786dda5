package task_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/tasktuple/task"
)

// lvOptions drops the time, so that a record is the same on every run.
var lvOptions = &slog.HandlerOptions{
	ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey && len(groups) == 0 {
			return slog.Attr{}
		}
		return a
	},
}

// lvJSON logs v under key "err" with a JSONHandler and returns the record
// and the value of "err" decoded.
func lvJSON(t *testing.T, v any) (string, any) {
	t.Helper()
	var b bytes.Buffer
	slog.New(slog.NewJSONHandler(&b, lvOptions)).Error("m", "err", v)
	var rec map[string]any
	if err := json.Unmarshal(b.Bytes(), &rec); err != nil {
		t.Fatalf("the JSON record does not decode: %v\n%s", err, b.String())
	}
	return b.String(), rec["err"]
}

// lvText logs v under key "err" with a TextHandler and returns the record.
func lvText(v any) string {
	var b bytes.Buffer
	slog.New(slog.NewTextHandler(&b, lvOptions)).Error("m", "err", v)
	return b.String()
}

// decode decodes the JSON of a want.
func decode(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("bad want %s: %v", s, err)
	}
	return v
}

func lvFail(msg string) func(context.Context) (int, error) {
	return func(context.Context) (int, error) { return 0, errors.New(msg) }
}

func lvOK(context.Context) (int, error) { return 1, nil }

// lvPanic panics with v, and reports the line it panics on in *line.
// (Not inlined, so that its function is named "lvPanic.func1" wherever it
// is called.)
//
//go:noinline
func lvPanic(v any, line *int) func(context.Context) (int, error) {
	return func(context.Context) (int, error) {
		panic(at(line, v))
	}
}

// at returns v, and reports the line it is called from in *line.
func at[T any](line *int, v T) T {
	_, _, *line, _ = runtime.Caller(1)
	return v
}

// recoverPanic runs f and returns the *task.PanicError it panics with.
func recoverPanic(t *testing.T, f func()) (pe *task.PanicError) {
	t.Helper()
	defer func() {
		t.Helper()
		var ok bool
		if pe, ok = recover().(*task.PanicError); !ok {
			t.Fatalf("no *task.PanicError raised")
		}
	}()
	f()
	return nil
}

// thisFile is the file of this test, as frames name it.
func thisFile() string {
	_, file, _, _ := runtime.Caller(0)
	return file
}

// frameJSON is a frame of this file as the JSONHandler writes it.
func frameJSON(fn string, line int) string {
	return fmt.Sprintf(`{"function":"github.com/tasktuple/task_test.%s","file":%q,"line":%d}`, fn, thisFile(), line)
}

// TestCallErrorLogValue: the JSON of a CallError decodes to the structure
// that LogValue documents, and its text is one line.
func TestCallErrorLogValue(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	_, _, _, twoFailures := task.Run3(ctx, lvOK, task.Named("recs", lvFail("500 internal error")), lvFail("503 unavailable"))

	// f2 waits for its context: the call cancels it after f1's failure.
	_, _, canceled := task.Run2(ctx, lvFail("boom"), func(ctx context.Context) (int, error) {
		<-ctx.Done()
		return 0, ctx.Err()
	})

	// An await that the caller's ctx ends lists the tasks not completed.
	release := make(chan struct{})
	blocked := func(context.Context) (int, error) { <-release; return 0, nil }
	t1, t2 := task.Go(ctx, blocked), task.Go(ctx, blocked)
	gone, cancel := context.WithCancelCause(ctx)
	cancel(errors.New("client went away"))
	one := task.Go(ctx, func(context.Context) (int, error) { return 1, nil })
	_, _ = one.Wait(ctx)
	_, _, unfinished := task.Await2(gone, one, t2)
	close(release)
	_, _, _ = task.Await2(ctx, t1, t2)

	// The ctx of a Run2 ended while both functions waited for it: both
	// are unfinished, with what they returned.
	gone2, cancel2 := context.WithCancel(ctx)
	_, _, ctxRun := task.Run2(gone2, func(ctx context.Context) (int, error) {
		cancel2()
		<-ctx.Done()
		return 0, fmt.Errorf("load: %w", ctx.Err())
	}, func(ctx context.Context) (int, error) {
		<-ctx.Done()
		return 0, ctx.Err()
	})

	var line int
	withPanic := &task.CallError{Call: "Run3", Failures: []*task.PositionError{
		{Call: "Run3", Index: 0, Arg: "f1", Err: task.ErrGoexit},
		{Call: "Run3", Index: 2, Arg: "f3", Err: recoverPanic(t, func() { _, _ = task.Go(ctx, lvPanic("out of paper", &line)).Wait(ctx) })},
	}}

	many := &task.CallError{Call: "Map", Ctx: context.DeadlineExceeded}
	for i := range 10 {
		many.Unfinished = append(many.Unfinished, &task.PositionError{Call: "Map", Index: i, Arg: fmt.Sprintf("inputs[%d]", i)})
	}

	manyFailures := &task.CallError{Call: "Map", NotStarted: 7}
	for i := range 10 {
		manyFailures.Failures = append(manyFailures.Failures, &task.PositionError{Call: "Map", Index: i, Arg: fmt.Sprintf("inputs[%d]", i), Err: fmt.Errorf("e%d", i)})
	}

	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"two failures", twoFailures, `{"call":"Run3","failed":2,
			"first":{"arg":"recs","index":1,"error":"500 internal error"},
			"errors":"recs: 500 internal error; f3: 503 unavailable"}`},
		{"canceled", canceled, `{"call":"Run2","failed":1,
			"first":{"arg":"f1","index":0,"error":"boom"},
			"canceled":1}`},
		{"unfinished tasks", unfinished, `{"call":"Await2",
			"ctx":"context canceled: client went away",
			"unfinished":1}`},
		{"unfinished functions", ctxRun, `{"call":"Run2",
			"ctx":"context canceled",
			"unfinished":2}`},
		{"goexit and panic", withPanic, `{"call":"Run3","failed":2,
			"first":{"arg":"f1","index":0,"error":"task: function called runtime.Goexit"},
			"errors":"f1: task: function called runtime.Goexit; f3: panic: out of paper"}`},
		{"more than 8 unfinished", many, `{"call":"Map",
			"ctx":"context deadline exceeded",
			"unfinished":10}`},
		{"more than 8 failures", manyFailures, `{"call":"Map","failed":10,
			"first":{"arg":"inputs[0]","index":0,"error":"e0"},
			"errors":"inputs[0]: e0; inputs[1]: e1; inputs[2]: e2; inputs[3]: e3; inputs[4]: e4; inputs[5]: e5; inputs[6]: e6; inputs[7]: e7; and 2 more",
			"not_started":7}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, ok := tc.err.(*task.CallError); !ok {
				t.Fatalf("error %T %v, want a *task.CallError", tc.err, tc.err)
			}
			rec, got := lvJSON(t, tc.err)
			if want := decode(t, tc.want); !reflect.DeepEqual(got, want) {
				t.Errorf("slog JSON record:\n%s\nwant err = %s", rec, tc.want)
			}
			if text := lvText(tc.err); strings.Count(text, "\n") != 1 || !strings.HasSuffix(text, "\n") {
				t.Errorf("slog text record is not one line:\n%s", text)
			}
		})
	}
}

// TestCallErrorLogValueText pins the text line of a CallError.
func TestCallErrorLogValueText(t *testing.T) {
	t.Parallel()
	e := &task.CallError{
		Call: "Run3",
		Failures: []*task.PositionError{
			{Call: "Run3", Index: 1, Arg: "recs", Err: errors.Join(errors.New("first"), errors.New("second"))},
		},
		Ctx:      context.Canceled,
		Canceled: []*task.PositionError{{Call: "Run3", Index: 2, Arg: "f3", Err: context.Canceled}},
	}
	want := `level=ERROR msg=m err.call=Run3 err.failed=1 err.first.arg=recs err.first.index=1 err.first.error="first\nsecond" err.ctx="context canceled" err.canceled=1` + "\n"
	if got := lvText(e); got != want {
		t.Errorf("text:\n%s\nwant\n%s", got, want)
	}
}

// TestPanicErrorLogValue: the JSON of a PanicError decodes to the
// structure that LogValue documents, its frame is the file and line of the
// panic, and its text is one line.
func TestPanicErrorLogValue(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var line, line2 int

	// f1 fails, f2 panics with an error, f3 panics: f2's is raised, and
	// holds the others.
	raised := recoverPanic(t, func() {
		_, _, _, _ = task.Run3(ctx, lvFail("boom"), lvPanic(errors.New("torn"), &line), task.Named("parse", lvPanic("out of paper", &line2)))
	})

	// A task's own, named.
	var line3 int
	own := recoverPanic(t, func() { _, _ = task.Go(ctx, task.Named("parse", lvPanic("x", &line3))).Wait(ctx) })

	// A runtime error: the frame is the code that indexed, not the runtime.
	var line4 int
	bounds := recoverPanic(t, func() {
		_, _ = task.Go(ctx, func(context.Context) (int, error) {
			var a []int
			return a[at(&line4, 3)], nil
		}).Wait(ctx)
	})

	// A function that let the panic of its own call go on: the value is a
	// PanicError, and logs as one; the frame is the function's call.
	var line5, line6 int
	nested := recoverPanic(t, func() {
		_, _, _ = task.Run2(ctx, lvOK, func(ctx context.Context) (int, error) {
			_, _, err := task.Run2(at(&line6, ctx), lvOK, lvPanic("inner", &line5))
			return 0, err
		})
	})

	for _, tc := range []struct {
		name string
		pe   *task.PanicError
		want func() string // after the panics, which set the lines
	}{
		{"raised", raised, func() string {
			return `{"call":"Run3","arg":"f2","index":1,"panic":"torn","frame":` + frameJSON("lvPanic.func1", line) + `,
				"others":{"failed":2,
					"first":{"arg":"f1","index":0,"error":"boom"},
					"errors":"f1: boom; parse: panic: out of paper"}}`
		}},
		{"own", own, func() string {
			return `{"arg":"parse","panic":"x","frame":` + frameJSON("lvPanic.func1", line3) + `}`
		}},
		{"runtime error", bounds, func() string {
			return `{"panic":"runtime error: index out of range [3] with length 0","frame":` + frameJSON("TestPanicErrorLogValue.func3.1", line4) + `}`
		}},
		{"nested", nested, func() string {
			inner := `{"call":"Run2","arg":"f2","index":1,"panic":"inner","frame":` + frameJSON("lvPanic.func1", line5) + `}`
			return `{"call":"Run2","arg":"f2","index":1,"panic":` + inner + `,"frame":` + frameJSON("TestPanicErrorLogValue.func4.1", line6) + `}`
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec, got := lvJSON(t, tc.pe)
			want := tc.want()
			if !reflect.DeepEqual(got, decode(t, want)) {
				t.Errorf("slog JSON record:\n%s\nwant err = %s", rec, want)
			}
			if text := lvText(tc.pe); strings.Count(text, "\n") != 1 || !strings.HasSuffix(text, "\n") {
				t.Errorf("slog text record is not one line:\n%s", text)
			}
		})
	}

	// In text, the frame is file:line.
	if text, want := lvText(own), fmt.Sprintf(" err.frame=%s:%d\n", thisFile(), line3); !strings.HasSuffix(text, want) {
		t.Errorf("text %q does not end with %q", text, want)
	}
}

// TestPanicErrorLogValueFrame: the frame skips the runtime's frames, which
// a stack shows under GOTRACEBACK=system, and this package's, and is left
// out of a stack with no frame.
func TestPanicErrorLogValueFrame(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, stack, want string
	}{
		{"runtime frames", "goroutine 7 [running]:\n" +
			"panic({0x4a5b20?, 0x5c4a70?})\n\t/usr/local/go/src/runtime/panic.go:785 +0x132\n" +
			"runtime.goPanicIndex(0x3, 0x0)\n\t/usr/local/go/src/runtime/panic.go:115 +0x74\n" +
			"example.com/shop.(*Cart).reserve(0xc000010000, {0x0, 0x0})\n\t/src/shop/cart.go:42 +0x1d\n" +
			"example.com/shop.Checkout(...)\n\t/src/shop/checkout.go:12\n" +
			"created by example.com/shop.Run in goroutine 1\n\t/src/shop/run.go:9 +0x2e\n",
			`{"function":"example.com/shop.(*Cart).reserve","file":"/src/shop/cart.go","line":42}`},
		{"raised again", "goroutine 7 [running]:\n" +
			"github.com/tasktuple/task.(*report).raise(0xc000010000)\n\t/src/task/report.go:145 +0x1d\n" +
			"github.com/tasktuple/task.Run2[...]({0x0, 0x0}, 0x0, 0x0, {0x0, 0x0, 0x0})\n\t/src/task/zrun.go:30 +0x1d\n" +
			"github.com/tasktuple/task_test.load(...)\n\t/src/task/load_test.go:7\n",
			`{"function":"github.com/tasktuple/task_test.load","file":"/src/task/load_test.go","line":7}`},
		{"inlined generic", "goroutine 7 [running]:\n" +
			"example.com/shop.get[...](...)\n\t/src/shop/get.go:7\n",
			`{"function":"example.com/shop.get[...]","file":"/src/shop/get.go","line":7}`},
		{"only the runtime", "goroutine 7 [running]:\n" +
			"runtime.gopanic({0x4a5b20?, 0x5c4a70?})\n\t/usr/local/go/src/runtime/panic.go:785 +0x132\n",
			`{"function":"runtime.gopanic","file":"/usr/local/go/src/runtime/panic.go","line":785}`},
		{"no frame", "goroutine 7 [running]:\ncreated by example.com/shop.Run in goroutine 1\n\t/src/shop/run.go:9 +0x2e\n", ``},
		{"empty", "", ``},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, got := lvJSON(t, &task.PanicError{Value: "v", Stack: []byte(tc.stack)})
			want := `{"panic":"v"}`
			if tc.want != "" {
				want = `{"panic":"v","frame":` + tc.want + `}`
			}
			if !reflect.DeepEqual(got, decode(t, want)) {
				t.Errorf("err = %v, want %s", got, want)
			}
		})
	}
}
