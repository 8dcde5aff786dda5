//go:build go1.25

package task

import (
	"context"
	"errors"
	"slices"
	"testing"
	"testing/synctest"
	"time"
)

// A stop and a failure in one call: whichever came first left the work
// not started. The work the stop left is counted in CallError.NotStarted,
// and the error holds ctx's error; the work a failure left is not counted
// ("fail-fast starts no call after a failure, and says so by the
// failure"): the inputs of ForEach not taken, the children of a Scope
// waiting for a slot (listed with the cancellations).

// orderedCall is a call under test, whose first two functions are fns and
// which has work left for later: a third input, or a child waiting for a
// slot.
type orderedCall struct {
	name string
	call func(ctx context.Context, fns [2]func(context.Context) error, opts []Option) error
}

var orderedCalls = []orderedCall{
	{"ForEach", func(ctx context.Context, fns [2]func(context.Context) error, opts []Option) error {
		return ForEach(ctx, []int{0, 1, 2}, 2, func(ctx context.Context, i int) error {
			if i == 2 {
				return errors.New("inputs[2] started")
			}
			return fns[i](ctx)
		}, opts...)
	}},
	{"Scope", func(ctx context.Context, fns [2]func(context.Context) error, opts []Option) error {
		_, err := Scope(ctx, func(ctx context.Context, g *Group) (int, error) {
			g.SetLimit(2)
			g.Go(fns[0])
			g.Go(fns[1])
			g.Go(func(context.Context) error { return errors.New("children[2] started") })
			return 0, nil
		}, opts...)
		return err
	}},
}

// inOrder runs c in a bubble, with or without Grace, the first function
// failing and the caller's ctx canceled, in the order failFirst says,
// while the second function runs; the second then returns nil.
func inOrder(t *testing.T, c orderedCall, grace, failFirst bool) error {
	var opts []Option
	if grace {
		opts = append(opts, Grace(time.Minute))
	}
	var err error
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancelCause(context.Background())
		defer cancel(nil)
		running, fail, release := make(chan struct{}), make(chan struct{}), make(chan struct{})
		first := make(chan struct{})
		go func() {
			<-first // both functions run before the stop or the failure
			<-running
			if failFirst {
				close(fail)
				synctest.Wait() // the first has failed
			}
			cancel(errTestCause)
			synctest.Wait()
			if !failFirst {
				close(fail)
				synctest.Wait()
			}
			close(release)
		}()
		err = c.call(ctx, [2]func(context.Context) error{
			func(context.Context) error { close(first); <-fail; return errors.New("failed") },
			func(context.Context) error { close(running); <-release; return nil },
		}, opts)
	})
	return err
}

// TestStopThenFailure: the stop came first: the work left is counted,
// and the error holds ctx's error, even though a failure follows.
func TestStopThenFailure(t *testing.T) {
	for _, c := range orderedCalls {
		for _, grace := range []bool{false, true} {
			t.Run(c.name+map[bool]string{false: "", true: "/grace"}[grace], func(t *testing.T) {
				err := inOrder(t, c, grace, false)
				var ce *CallError
				wantNotStarted := 1
				if !errors.As(err, &ce) || len(ce.Failures) != 1 || ce.NotStarted != wantNotStarted || len(ce.Canceled) > 0 ||
					!errors.Is(err, context.Canceled) || !errors.Is(err, errTestCause) {
					t.Errorf("err = %v; want the failure, %d not started, and Canceled with the cause", err, wantNotStarted)
				}
			})
		}
	}
}

// TestFailureThenStop: the failure came first: the work left is counted
// as not started by the failure (not ErrStopped), and the error does not
// say that ctx ended the call, even though the caller's ctx ends next.
func TestFailureThenStop(t *testing.T) {
	for _, c := range orderedCalls {
		for _, grace := range []bool{false, true} {
			t.Run(c.name+map[bool]string{false: "", true: "/grace"}[grace], func(t *testing.T) {
				err := inOrder(t, c, grace, true)
				var ce *CallError
				if !errors.As(err, &ce) || len(ce.Failures) != 1 || ce.NotStarted != 1 || ce.Ctx != nil ||
					errors.Is(err, context.Canceled) || errors.Is(err, ErrStopped) || len(ce.Canceled) > 0 {
					t.Errorf("err = %v; want the failure and 1 not started by it", err)
				}
				if ce != nil && !slices.Equal(ce.NotStartedAt(), []int{2}) {
					t.Errorf("NotStartedAt %v; want [2]", ce.NotStartedAt())
				}
			})
		}
	}
}
