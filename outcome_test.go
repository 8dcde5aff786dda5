//go:build go1.25

package task

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
)

// How a function ended, as invoke records it (outcome.go): a panic, with
// its value and stack, panic(nil), a Goexit, a panic during a Goexit.

// goexitThenPanic calls runtime.Goexit, and panics with "boom" in a
// deferred function while the Goexit unwinds.
func goexitThenPanic(context.Context) (int, error) {
	defer func() { panic("boom") }()
	runtime.Goexit()
	return 0, nil
}

// TestPanicAtEachPosition: a panic is raised again in the caller after
// every other function or task has finished, as an error that reaches the
// *PanicError with the value and the original stack.
func TestPanicAtEachPosition(t *testing.T) {
	for _, c := range append(awaits(), runs()...) {
		for _, k := range []kind{kPanic, kPanicErr, kPanicNil} {
			for p := 1; p <= c.n; p++ {
				name := fmt.Sprintf("%s/f%d %v", c.name, p, k)
				synctest.Test(t, func(t *testing.T) {
					sl := newSlots(c.n, kWaitCtx)
					if strings.HasPrefix(c.name, "Await") {
						for _, s := range sl {
							s.kind = kValue
						}
					}
					sl[p-1].kind = k
					r := recoverFrom(func() { c.fn(context.Background(), sl) })
					err, ok := r.(error)
					if !ok {
						t.Fatalf("%s: recovered %T %v; want an error", name, r, r)
					}
					var pe *PanicError
					if !errors.As(err, &pe) {
						t.Fatalf("%s: %v is not a PanicError", name, err)
					}
					switch k {
					case kPanic:
						if pe.Value != fmt.Sprint("boom ", p) {
							t.Errorf("%s: Value = %v", name, pe.Value)
						}
					case kPanicErr:
						if !errors.Is(err, posErr{p}) {
							t.Errorf("%s: errors.Is(posErr) false for %v", name, err)
						}
					case kPanicNil:
						var pn *runtime.PanicNilError
						if !errors.As(err, &pn) {
							t.Errorf("%s: want a *runtime.PanicNilError, got %v", name, pe.Value)
						}
					}
					if !strings.Contains(string(pe.Stack), "slot_test.go") {
						t.Errorf("%s: stack does not show the panicking function:\n%s", name, pe.Stack)
					}
					if ps := positions(err); !slices.Equal(ps, []int{p - 1}) {
						t.Errorf("%s: positions %v; want [%d]", name, ps, p-1)
					}
					for _, s := range sl {
						select {
						case <-s.returned:
						default:
							t.Errorf("%s: panic raised before f%d returned", name, s.i)
						}
					}
				})
			}
		}
	}
}

// TestGoexitAtEachPosition: a runtime.Goexit in any function or task is
// repeated in the caller (the call never returns zero values with a nil
// error, never hangs), after every other function has returned.
func TestGoexitAtEachPosition(t *testing.T) {
	for _, c := range append(awaits(), runs()...) {
		for p := 1; p <= c.n; p++ {
			name := fmt.Sprintf("%s/f%d goexit", c.name, p)
			synctest.Test(t, func(t *testing.T) {
				sl := newSlots(c.n, kWaitCtx)
				if strings.HasPrefix(c.name, "Await") {
					for _, s := range sl {
						s.kind = kValue
					}
				}
				sl[p-1].kind = kGoexit
				returned, exited := false, false
				siblingsDone := true
				done := make(chan struct{})
				go func() {
					defer close(done)
					defer func() {
						exited = !returned && recover() == nil
						for _, s := range sl {
							select {
							case <-s.returned:
							default:
								siblingsDone = false
							}
						}
					}()
					c.fn(context.Background(), sl)
					returned = true
				}()
				<-done
				if !exited {
					t.Fatalf("%s: the caller did not Goexit (returned=%v)", name, returned)
				}
				if !siblingsDone {
					t.Errorf("%s: Goexit passed on before every function returned", name)
				}
			})
		}
	}
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

// TestPanicNilGodebug: with GODEBUG=panicnil=1, panic(nil) recovers as nil;
// it must still come back as a panic, never as success.
func TestPanicNilGodebug(t *testing.T) {
	if os.Getenv("TASK_TEST_PANICNIL") == "1" {
		r := recoverFrom(func() {
			Run2(context.Background(), immediate[int], func(context.Context) (int, error) { panic(nil) })
		})
		var pe *PanicError
		if err, ok := r.(error); !ok || !errors.As(err, &pe) || pe.Value != nil {
			os.Exit(3)
		}
		tk := Go(context.Background(), func(context.Context) (int, error) { panic(nil) })
		r = recoverFrom(func() { tk.Wait(context.Background()) })
		if pe, ok := r.(*PanicError); !ok || pe.Value != nil {
			os.Exit(4)
		}
		os.Exit(0)
	}
	if testing.Short() {
		t.Skip("runs a subprocess")
	}
	if out, err := subprocess(t, "TestPanicNilGodebug", "TASK_TEST_PANICNIL=1", "GODEBUG=panicnil=1"); err != nil {
		t.Fatalf("subprocess err = %v, output:\n%s", err, out)
	}
}
