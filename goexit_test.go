package task

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
)

// ending is how a function run by endingOf ended.
type ending struct {
	returned bool
	panicVal any // set when it panicked
	exited   bool
}

// endingOf runs f in a new goroutine and reports whether it returned,
// panicked or called runtime.Goexit.
func endingOf(f func()) ending {
	var e ending
	done := make(chan struct{})
	go func() {
		defer close(done)
		normal := false
		defer func() {
			if !normal {
				if r := recover(); r != nil {
					e.panicVal = r
				} else {
					e.exited = true
				}
			}
		}()
		f()
		normal = true
		e.returned = true
	}()
	<-done
	return e
}

// goexitThenPanic calls runtime.Goexit, and panics with "boom" in a
// deferred function while the Goexit unwinds.
func goexitThenPanic(context.Context) (int, error) {
	defer func() { panic("boom") }()
	runtime.Goexit()
	return 0, nil
}

// wantBoom checks that e is a panic with the *PanicError of "boom".
func wantBoom(t *testing.T, name string, e ending) *PanicError {
	t.Helper()
	pe, ok := e.panicVal.(*PanicError)
	if !ok || pe.Value != "boom" {
		t.Fatalf("%s: ended %+v; want a panic with the *PanicError of boom", name, e)
	}
	return pe
}

// TestPanicDuringGoexit: a panic raised while runtime.Goexit unwinds is
// passed on, as it would crash the program without this package: a panic
// outranks a Goexit (issue 8, bug 1).
func TestPanicDuringGoexit(t *testing.T) {
	ctx := context.Background()
	t.Run("Go", func(t *testing.T) {
		tk := Go(ctx, goexitThenPanic)
		e := endingOf(func() { tk.Wait(ctx) })
		wantBoom(t, "Wait", e)
	})
	t.Run("RunN/spawned", func(t *testing.T) {
		e := endingOf(func() { Run2(ctx, goexitThenPanic, immediate[string]) })
		if pe := wantBoom(t, "Run2", e); pe.Call != "Run2" || pe.Arg != "f1" {
			t.Errorf("panic located at %s %s; want Run2 f1", pe.Call, pe.Arg)
		}
	})
	t.Run("RunN/last", func(t *testing.T) {
		e := endingOf(func() { Run2(ctx, immediate[string], goexitThenPanic) })
		if pe := wantBoom(t, "Run2", e); pe.Arg != "f2" {
			t.Errorf("panic located at %s; want f2", pe.Arg)
		}
	})
	t.Run("Map", func(t *testing.T) {
		e := endingOf(func() {
			Map(ctx, []int{0, 1}, 1, func(ctx context.Context, i int) (int, error) {
				if i == 0 {
					return goexitThenPanic(ctx)
				}
				return i, nil
			})
		})
		if pe := wantBoom(t, "Map", e); pe.Arg != "inputs[0]" {
			t.Errorf("panic located at %s; want inputs[0]", pe.Arg)
		}
	})
	t.Run("stack", func(t *testing.T) {
		tk := Go(ctx, goexitThenPanic)
		pe := wantBoom(t, "Wait", endingOf(func() { tk.Wait(ctx) }))
		if first := frame(pe.Stack, 0); !contains(first, "goexitThenPanic") {
			t.Errorf("stack starts at %q; want the deferred function that panicked", first)
		}
	})
}

// TestMapKeepGoingGoexit: with KeepGoing, every input is processed even
// when calls call runtime.Goexit, whatever the limit; then the Goexit is
// repeated (issue 8, bug 2).
func TestMapKeepGoingGoexit(t *testing.T) {
	for _, limit := range []int{1, 2, 6} {
		for _, exitAt := range [][]int{{0}, {0, 1}, {5}, {0, 1, 2, 3, 4, 5}} {
			name := fmt.Sprintf("limit=%d/exit=%v", limit, exitAt)
			var calls atomic.Int32
			e := endingOf(func() {
				Map(context.Background(), []int{0, 1, 2, 3, 4, 5}, limit, func(ctx context.Context, i int) (int, error) {
					calls.Add(1)
					for _, x := range exitAt {
						if i == x {
							runtime.Goexit()
						}
					}
					return i, nil
				}, KeepGoing)
			})
			if !e.exited {
				t.Errorf("%s: Map ended %+v; want runtime.Goexit repeated", name, e)
			}
			if n := calls.Load(); n != 6 {
				t.Errorf("%s: %d of 6 inputs processed", name, n)
			}
		}
	}
}

// TestDoneNil: Done on a nil task says so.
func TestDoneNil(t *testing.T) {
	var tk *Task[int]
	if msg := catch(func() { tk.Done() }); msg != "task: Done: t is nil" {
		t.Errorf("Done on nil panicked with %q", msg)
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
