//go:build go1.25

package task

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"testing/synctest"
	"time"
)

// TestBudgetCtx holds MapWithin's budget context to the standard one it
// stands for, context.WithDeadlineCause(parent, start+budget, ErrBudget),
// made at the same instant over the same parent: at every step of every
// scene, Cause, Err, Deadline and a Value read the same, whether the
// budget's timer is armed or not, and whether its standard context is made
// at once (Done asked first) or only at the end.
func TestBudgetCtx(t *testing.T) {
	errParent := errors.New("parent's cause")
	type key struct{}
	scenes := []struct {
		name   string
		budget time.Duration
		parent func(context.Context) (context.Context, context.CancelCauseFunc)
		steps  func(cancel context.CancelCauseFunc) []func() // between the reads
	}{
		{"nothing ends", time.Hour, withCancel, func(context.CancelCauseFunc) []func() {
			return []func(){func() { time.Sleep(time.Minute) }}
		}},
		{"the budget ends", time.Minute, withCancel, func(context.CancelCauseFunc) []func() {
			return []func(){func() { time.Sleep(time.Minute - 1) }, func() { time.Sleep(time.Nanosecond) }, func() { time.Sleep(time.Hour) }}
		}},
		{"the parent ends first", time.Minute, withCancel, func(cancel context.CancelCauseFunc) []func() {
			return []func(){func() { time.Sleep(time.Second) }, func() { cancel(errParent) }, func() { time.Sleep(time.Hour) }}
		}},
		{"the parent ends after", time.Minute, withCancel, func(cancel context.CancelCauseFunc) []func() {
			return []func(){func() { time.Sleep(time.Hour) }, func() { cancel(errParent) }}
		}},
		{"the parent's deadline is earlier", time.Hour, func(ctx context.Context) (context.Context, context.CancelCauseFunc) {
			ctx, cancel := context.WithTimeout(ctx, time.Minute)
			return ctx, func(error) { cancel() }
		}, func(context.CancelCauseFunc) []func() {
			return []func(){func() { time.Sleep(time.Minute) }, func() { time.Sleep(2 * time.Hour) }}
		}},
		{"no budget", 0, withCancel, func(cancel context.CancelCauseFunc) []func() {
			return []func(){func() { cancel(errParent) }}
		}},
		{"a budget already over", -time.Second, withCancel, func(context.CancelCauseFunc) []func() {
			return []func(){func() { time.Sleep(time.Second) }}
		}},
	}
	for _, sc := range scenes {
		for _, made := range []bool{false, true} {
			for _, armed := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/made=%v/armed=%v", sc.name, made, armed), func(t *testing.T) {
					synctest.Test(t, func(t *testing.T) {
						parent, cancel := sc.parent(context.WithValue(t.Context(), key{}, "v"))
						defer cancel(nil)
						want, stop := context.WithDeadlineCause(parent, time.Now().Add(sc.budget), ErrBudget)
						defer stop()
						var c call
						b := new(budgetCtx)
						b.init(parent, sc.budget, &c, 1)
						if armed && b.timer == nil {
							b.arm()
						}
						defer b.release()
						if made {
							b.Done()
						}
						compare := func(step int) {
							t.Helper()
							synctest.Wait()
							if got, w := context.Cause(b), context.Cause(want); got != w {
								t.Fatalf("step %d: Cause = %v, want %v", step, got, w)
							}
							if got, w := b.Err(), want.Err(); got != w {
								t.Fatalf("step %d: Err = %v, want %v", step, got, w)
							}
							gd, gok := b.Deadline()
							wd, wok := want.Deadline()
							if !gd.Equal(wd) || gok != wok {
								t.Fatalf("step %d: Deadline = %v, %v; want %v, %v", step, gd, gok, wd, wok)
							}
							if got := b.Value(key{}); got != "v" {
								t.Fatalf("step %d: Value = %v, want v", step, got)
							}
							if b.Err() != nil && c.flags.Load()&flagBudget == 0 && (armed || made) {
								t.Fatalf("step %d: the budget ended and did not tell the call", step)
							}
						}
						compare(0)
						for i, step := range sc.steps(cancel) {
							step()
							compare(i + 1)
						}
						// The channel, made last if not at first, agrees.
						child, stopChild := context.WithCancelCause(b)
						defer stopChild(nil)
						synctest.Wait()
						if closed, w := closedChan(b.Done()), closedChan(want.Done()); closed != w {
							t.Fatalf("Done closed: %v, want %v", closed, w)
						}
						if got, w := context.Cause(child), context.Cause(want); got != w {
							t.Fatalf("a child's Cause = %v, want %v", got, w)
						}
					})
				})
			}
		}
	}
}

func withCancel(ctx context.Context) (context.Context, context.CancelCauseFunc) {
	return context.WithCancelCause(ctx)
}

// TestBudgetCtxErrOnce: once Err has said which ended first, the budget or
// the parent, it says so ever after, as a context's Err must, whatever
// ends next and whenever the standard context is made.
func TestBudgetCtxErrOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		parent, cancel := context.WithCancel(t.Context())
		var c call
		b := new(budgetCtx)
		b.init(parent, time.Minute, &c, 1)
		defer b.release()
		time.Sleep(time.Minute) // no timer: Err reads the clock
		if err := b.Err(); err != context.DeadlineExceeded {
			t.Fatalf("Err = %v, want DeadlineExceeded", err)
		}
		cancel()
		if err := b.Err(); err != context.DeadlineExceeded {
			t.Fatalf("after the parent's end: Err = %v, want DeadlineExceeded", err)
		}
		<-b.Done()
		if err, cause := b.Err(), context.Cause(b); err != context.DeadlineExceeded || cause != ErrBudget {
			t.Fatalf("made after: Err = %v, Cause = %v; want DeadlineExceeded, ErrBudget", err, cause)
		}
	})
}
