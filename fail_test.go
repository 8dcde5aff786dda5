package task

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
)

// call is AwaitN or RunN of one arity, through its adapter.
type callCase struct {
	name string
	n    int
	fn   func(ctx context.Context, sl []*slot, opts ...Option) ([]any, error)
}

func awaits() []callCase {
	var cs []callCase
	for _, a := range arities {
		cs = append(cs, callCase{fmt.Sprintf("Await%d", a.n), a.n, a.await})
	}
	return cs
}

func runs() []callCase {
	var cs []callCase
	for _, a := range arities[1:] {
		cs = append(cs, callCase{fmt.Sprintf("Run%d", a.n), a.n, a.run})
	}
	return cs
}

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
		_, err := c.fn(context.Background(), sl, KeepGoing)
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

// TestRunFailFast: the first failure cancels every sibling with the failure
// as cause, and the siblings' cancellation errors are not reported.
func TestRunFailFast(t *testing.T) {
	for _, c := range runs() {
		for p := 1; p <= c.n; p++ {
			name := fmt.Sprintf("%s/f%d fails", c.name, p)
			synctest.Test(t, func(t *testing.T) {
				sl := newSlots(c.n, kWaitCtx)
				for _, s := range sl[1:] {
					if s.i%2 == 0 {
						s.kind = kWaitCause
					}
				}
				sl[p-1].kind = kError
				got, err := c.fn(context.Background(), sl)
				if ps := positions(err); !slices.Equal(ps, []int{p - 1}) {
					t.Fatalf("%s: err = %v, positions %v; want only f%d", name, err, ps, p)
				}
				if errors.Is(err, context.Canceled) {
					t.Errorf("%s: induced cancellation reported: %v", name, err)
				}
				checkZero(t, name, got)
				for _, s := range sl {
					ctx := *s.ctx.Load()
					cause := context.Cause(ctx)
					var pe *PositionError
					if !errors.As(cause, &pe) || pe.Index != p-1 || pe.Err != (posErr{p}) {
						t.Errorf("%s: f%d saw cause %v; want the PositionError of posErr{%d}", name, s.i, cause, p)
					}
				}
			})
		}
	}
}

// TestRunKeepGoing: a failure cancels nothing, each function gets the
// caller's ctx, and Settled returns every value.
func TestRunKeepGoing(t *testing.T) {
	for _, c := range runs() {
		for p := 1; p <= c.n; p++ {
			name := fmt.Sprintf("%s/f%d fails/KeepGoing", c.name, p)
			synctest.Test(t, func(t *testing.T) {
				ctx := context.WithValue(context.Background(), posErr{0}, "parent")
				sl := newSlots(c.n, kValue)
				gate := make(chan struct{})
				for _, s := range sl {
					s.gate = gate
				}
				sl[p-1].kind = kError
				sl[p-1].gate = nil
				var got []any
				var err error
				done := make(chan struct{})
				go func() {
					got, err = c.fn(ctx, sl, KeepGoing, Settled)
					close(done)
				}()
				synctest.Wait() // f_p has failed; the others wait at the gate
				for _, s := range sl {
					if s.i != p && (*s.ctx.Load()).Err() != nil {
						t.Errorf("%s: f%d's ctx was canceled", name, s.i)
					}
				}
				close(gate)
				<-done
				if ps := positions(err); !slices.Equal(ps, []int{p - 1}) {
					t.Fatalf("%s: err = %v; want only f%d", name, err, p)
				}
				checkValues(t, name, got, c.n)
				for _, s := range sl {
					if *s.ctx.Load() != ctx {
						t.Errorf("%s: f%d did not get the caller's ctx", name, s.i)
					}
				}
			})
		}
	}
}

// TestRunParentCanceled: when the caller's ctx is canceled with a cause,
// the error is the context's, with the cause reachable, and a real error
// that comes after is reported first.
func TestRunParentCanceled(t *testing.T) {
	cause := errors.New("shutting down")
	for _, c := range runs() {
		for _, real := range []int{0, 1, c.n} {
			name := fmt.Sprintf("%s/real=%d", c.name, real)
			synctest.Test(t, func(t *testing.T) {
				ctx, cancel := context.WithCancelCause(context.Background())
				sl := newSlots(c.n, kWaitCtx)
				for _, s := range sl[1:] {
					if s.i%2 == 0 {
						s.kind = kWaitCause
					}
				}
				if real > 0 {
					sl[real-1].kind = kError
					sl[real-1].gate = make(chan struct{})
				}
				var err error
				done := make(chan struct{})
				go func() {
					_, err = c.fn(ctx, sl)
					close(done)
				}()
				synctest.Wait()
				cancel(cause)
				synctest.Wait()
				if real > 0 {
					close(sl[real-1].gate)
				}
				<-done
				if !errors.Is(err, context.Canceled) || !errors.Is(err, cause) {
					t.Fatalf("%s: err = %v; want Canceled and the cause", name, err)
				}
				ps := positions(err)
				if real > 0 {
					if !errors.Is(err, posErr{real}) || len(ps) != 2 || ps[0] != real-1 {
						t.Errorf("%s: err = %v, positions %v; want f%d's error then the context's", name, err, ps, real)
					}
				} else if len(ps) != 0 {
					if !slices.Equal(ps, []int{-1}) {
						t.Errorf("%s: positions %v; want only the context error", name, ps)
					}
				}
			})
		}
	}
}

// TestAwaitCtxDone: when ctx ends first, AwaitN returns the context's error
// at once, with the cause; the tasks are untouched and a later AwaitN gets
// their results. With Settled, completed tasks' values come back.
func TestAwaitCtxDone(t *testing.T) {
	cause := errors.New("gave up")
	for _, a := range arities {
		synctest.Test(t, func(t *testing.T) {
			sl := newSlots(a.n, kSource)
			ctx, cancel := context.WithCancelCause(context.Background())
			var got []any
			var err error
			done := make(chan struct{})
			go func() {
				got, err = a.await(ctx, sl, Settled)
				close(done)
			}()
			synctest.Wait()
			if a.n > 1 {
				sl[0].complete(true)
			}
			cancel(cause)
			<-done
			if !errors.Is(err, context.Canceled) || !errors.Is(err, cause) {
				t.Fatalf("Await%d: err = %v; want Canceled with cause", a.n, err)
			}
			if a.n > 1 && got[0] != wantValue(a.n, 1) {
				t.Errorf("Await%d Settled: r1 = %v; want the completed value", a.n, got[0])
			}
			for i := min(1, a.n-1); i < a.n; i++ {
				if got[i] != zeroValue(i+1) {
					t.Errorf("Await%d Settled: r%d = %v; want zero for a pending task", a.n, i+1, got[i])
				}
			}
		})
	}
}

func TestWaitCtxDoneThenResult(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := NewSource[int]()
		ctx, cancel := context.WithCancelCause(context.Background())
		cause := errors.New("deadline of the request")
		go cancel(cause)
		v, err := src.Task().Wait(ctx)
		if v != 0 || !errors.Is(err, context.Canceled) || !errors.Is(err, cause) {
			t.Fatalf("Wait = %v, %v; want 0, Canceled with cause", v, err)
		}
		src.Complete(7, nil)
		if v, err := src.Task().Wait(context.Background()); v != 7 || err != nil {
			t.Fatalf("later Wait = %v, %v; want 7, nil", v, err)
		}
		// A completed task wins over a done ctx.
		if v, err := src.Task().Wait(ctx); v != 7 || err != nil {
			t.Fatalf("Wait with done ctx on completed task = %v, %v; want 7, nil", v, err)
		}
	})
}

// TestNilArguments: a nil ctx, function or task panics at once, in the
// caller, naming the call and the argument, and nothing starts.
func TestNilArguments(t *testing.T) {
	for _, c := range append(awaits(), runs()...) {
		arg := "f"
		if strings.HasPrefix(c.name, "Await") {
			arg = "t"
		}
		for p := 0; p <= c.n; p++ {
			sl := newSlots(c.n, kValue)
			ctx := context.Background()
			want := fmt.Sprintf("task: %s: ctx is nil", c.name)
			if p > 0 {
				sl[p-1].kind = kNil
				want = fmt.Sprintf("task: %s: %s%d is nil", c.name, arg, p)
			} else {
				ctx = nil
				if arg == "t" {
					// Tasks need a ctx to start; make them first.
					for _, s := range sl {
						s.kind = kCompleted
					}
				}
			}
			got := catch(func() { c.fn(ctx, sl) })
			if got != want {
				t.Errorf("%s with nil %s: panic %q; want %q", c.name, want, got, want)
			}
			if arg == "f" {
				for _, s := range sl {
					if s.calls.Load() != 0 {
						t.Errorf("%s with %s: f%d was called", c.name, want, s.i)
					}
				}
			}
		}
	}
}

func catch(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
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

func recoverFrom(f func()) (r any) {
	defer func() { r = recover() }()
	f()
	return nil
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

// TestPanicAndGoexitAndErrors: with a panic, a Goexit and an error in one
// call, the panic wins and carries all three.
func TestPanicAndGoexitAndErrors(t *testing.T) {
	for _, c := range append(awaits(), runs()...) {
		if c.n < 3 {
			continue
		}
		sl := newSlots(c.n, kValue)
		sl[0].kind, sl[1].kind, sl[2].kind = kError, kGoexit, kPanic
		r := recoverFrom(func() { c.fn(context.Background(), sl, KeepGoing) })
		err, _ := r.(error)
		if !errors.Is(err, posErr{1}) || !errors.Is(err, ErrGoexit) {
			t.Errorf("%s: panic value %v; want the error, ErrGoexit and the panic", c.name, r)
		}
		if ps := positions(err); !slices.Equal(ps, []int{0, 1, 2}) {
			t.Errorf("%s: positions %v; want [0 1 2]", c.name, ps)
		}
	}
}
