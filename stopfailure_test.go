package task

import (
	"context"
	"errors"
	"slices"
	"testing"
	"testing/synctest"
	"time"
)

// failThenStop runs call in a bubble, with two functions: the first fails
// at once; the second runs until the caller's ctx has been canceled, after
// the failure, then returns nil. call starts them, and has a third input
// or child, which the failure leaves: fail-fast starts nothing after it.
// It returns call's error.
func failThenStop(t *testing.T, call func(ctx context.Context, fns [2]func(context.Context) error) error) error {
	var err error
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancelCause(context.Background())
		defer cancel(nil)
		release := make(chan struct{})
		go func() {
			synctest.Wait() // the first has failed; the second runs
			cancel(errTestCause)
			synctest.Wait()
			close(release)
		}()
		err = call(ctx, [2]func(context.Context) error{
			func(context.Context) error { return errors.New("failed first") },
			func(context.Context) error { <-release; return nil },
		})
	})
	return err
}

// TestFailureThenStop: the inputs or children a failure left are not
// counted in CallError.NotStarted, and the error does not say that ctx
// ended the call, when the caller's ctx ends after the failure (with Grace
// or not): the failure, not the stop, left them.
func TestFailureThenStop(t *testing.T) {
	for _, grace := range []bool{false, true} {
		var opts []Option
		if grace {
			opts = append(opts, Grace(time.Minute))
		}
		check := func(name string, err error) {
			t.Helper()
			var ce *CallError
			if !errors.As(err, &ce) || len(ce.Failures) != 1 || ce.NotStarted != 0 || ce.Ctx != nil || errors.Is(err, context.Canceled) {
				t.Errorf("%s (grace %v) = %v; want the failure alone", name, grace, err)
			}
		}
		forEach := func(ctx context.Context, fns [2]func(context.Context) error) error {
			return ForEach(ctx, []int{0, 1, 2}, 2, func(ctx context.Context, i int) error {
				if i == 2 {
					t.Error("ForEach started an input after a failure")
					return nil
				}
				return fns[i](ctx)
			}, opts...)
		}
		check("ForEach", failThenStop(t, forEach))
		check("ForEachSeq", failThenStop(t, func(ctx context.Context, fns [2]func(context.Context) error) error {
			return ForEachSeq(ctx, slices.Values([]int{0, 1, 2}), 2, func(ctx context.Context, i int) error {
				if i == 2 {
					t.Error("ForEachSeq started an input after a failure")
					return nil
				}
				return fns[i](ctx)
			}, opts...)
		}))
		err := failThenStop(t, func(ctx context.Context, fns [2]func(context.Context) error) error {
			_, err := Scope(ctx, func(ctx context.Context, g *Group) (int, error) {
				g.SetLimit(2)
				g.Go(fns[0])
				g.Go(fns[1])
				g.Go(func(context.Context) error { t.Error("Scope started a child after a failure"); return nil })
				return 0, nil
			}, opts...)
			return err
		})
		check("Scope", err)
		// The child the failure left is listed with the cancellations.
		var ce *CallError
		if errors.As(err, &ce) && !slices.Equal(indexes(ce.Canceled), []int{2}) {
			t.Errorf("Scope (grace %v): canceled %v; want [2]", grace, indexes(ce.Canceled))
		}
	}
}
