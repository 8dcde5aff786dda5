package task

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// How outcomes fold into the call's error (report.go): every failure
// kept, in argument order, located; a panic outranks a Goexit, the first
// panic in argument order is raised, holding the rest.

// TestErrorAtEachPosition fails one position at a time: the error is a join
// of one PositionError for it, reachable with errors.Is, values are zero,
// and with Settled every value is returned.
func TestErrorAtEachPosition(t *testing.T) {
	for _, c := range append(awaits(), runs()...) {
		for p := 1; p <= c.n; p++ {
			for _, settled := range []bool{false, true} {
				name := fmt.Sprintf("%s/f%d fails/settled=%v", c.name, p, settled)
				sl := newSlots(c.n, kValue)
				sl[p-1].kind = kError
				var opts []Option
				if settled {
					opts = []Option{Settled}
				}
				got, err := c.fn(context.Background(), sl, opts...)
				if !errors.Is(err, posErr{p}) {
					t.Fatalf("%s: err = %v; want posErr{%d}", name, err, p)
				}
				if ps := positions(err); !slices.Equal(ps, []int{p - 1}) {
					t.Errorf("%s: positions = %v; want [%d]", name, ps, p-1)
				}
				var pe *PositionError
				if !errors.As(err, &pe) || pe.Index != p-1 || pe.Err != (posErr{p}) {
					t.Errorf("%s: errors.As PositionError = %+v", name, pe)
				}
				if settled {
					checkValues(t, name, got, c.n)
				} else {
					checkZero(t, name, got)
				}
			}
		}
	}
}

// TestEveryPositionFails: every error is kept, in argument order, with
// KeepGoing for RunN so none is a cancellation.
func TestEveryPositionFails(t *testing.T) {
	for _, c := range append(awaits(), runs()...) {
		sl := newSlots(c.n, kError)
		var opts []Option
		if strings.HasPrefix(c.name, "Run") {
			opts = []Option{KeepGoing} // an await cancels nothing
		}
		_, err := c.fn(context.Background(), sl, opts...)
		var want []int
		for p := 1; p <= c.n; p++ {
			if !errors.Is(err, posErr{p}) {
				t.Errorf("%s: err does not reach posErr{%d}", c.name, p)
			}
			want = append(want, p-1)
		}
		if ps := positions(err); !slices.Equal(ps, want) {
			t.Errorf("%s: positions = %v; want %v", c.name, ps, want)
		}
		// One line per failure, naming the call and the argument.
		lines := strings.Split(err.Error(), "\n")
		if len(lines) != c.n {
			t.Errorf("%s: err.Error() = %q; want %d lines", c.name, err.Error(), c.n)
		}
		arg := "t"
		if strings.HasPrefix(c.name, "Run") {
			arg = "f"
		}
		for i, line := range lines {
			if want := fmt.Sprintf("task: %s: %s%d: failure %d", c.name, arg, i+1, i+1); line != want {
				t.Errorf("%s: line %d = %q; want %q", c.name, i+1, line, want)
			}
		}
	}
}

// TestPanicAndGoexitAndErrors: with a panic, a Goexit and an error in one
// call, the panic wins and carries all three.
func TestPanicAndGoexitAndErrors(t *testing.T) {
	for _, c := range append(awaits(), runs()...) {
		if c.n < 3 {
			continue
		}
		sl := newSlots(c.n, kValue)
		sl[0].kind, sl[1].kind, sl[2].kind = kError, kGoexit, kPanic
		var opts []Option
		if strings.HasPrefix(c.name, "Run") {
			opts = []Option{KeepGoing} // an await cancels nothing
		}
		r := recoverFrom(func() { c.fn(context.Background(), sl, opts...) })
		err, _ := r.(error)
		if !errors.Is(err, posErr{1}) || !errors.Is(err, ErrGoexit) {
			t.Errorf("%s: panic value %v; want the error, ErrGoexit and the panic", c.name, r)
		}
		if ps := positions(err); !slices.Equal(ps, []int{0, 1, 2}) {
			t.Errorf("%s: positions %v; want [0 1 2]", c.name, ps)
		}
	}
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

// TestLastGoexitWhileSiblingPanics: when the function on the caller's
// goroutine calls Goexit while a sibling panics, the caller panics with the
// sibling's PanicError, which holds the Goexit.
func TestLastGoexitWhileSiblingPanics(t *testing.T) {
	e := endingOf(func() {
		Run2(context.Background(),
			func(context.Context) (int, error) { panic("boom") },
			func(context.Context) (int, error) { runtime.Goexit(); return 0, nil })
	})
	pe := wantBoom(t, "Run2", e)
	if pe.Arg != "f1" || !errors.Is(pe, ErrGoexit) {
		t.Errorf("raised %v at %s; want f1's panic holding ErrGoexit", pe, pe.Arg)
	}
}
