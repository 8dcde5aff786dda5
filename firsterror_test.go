//go:build go1.25

package task

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"testing/synctest"
	"time"
)

// The failures of these tests are distinct values, so that == tells which
// one a call returned.
var (
	errFirst  = errors.New("first")
	errSecond = errors.New("second")
)

// failAfter is a function that fails with err after d of fake time.
func failAfter(d time.Duration, err error) func(context.Context) (int, error) {
	return func(context.Context) (int, error) {
		time.Sleep(d)
		return 0, err
	}
}

func TestFirstErrorRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// f2 fails first; f1 fails with its own error once canceled.
		f1 := func(ctx context.Context) (int, error) {
			<-ctx.Done()
			return 0, errSecond
		}
		_, _, err := Run2(t.Context(), f1, failAfter(time.Second, errFirst), FirstError)
		if err != errFirst {
			t.Fatalf("Run2 with FirstError: err = %#v, want errFirst itself", err)
		}
		// Without the option, the same call reports both.
		_, _, err = Run2(t.Context(), f1, failAfter(time.Second, errFirst))
		var ce *CallError
		if !errors.As(err, &ce) || len(ce.Failures) != 2 {
			t.Fatalf("Run2 without FirstError: err = %v, want a CallError of 2 failures", err)
		}
	})
}

// TestFirstErrorOrder checks, for every order in which three of four
// functions fail, that each call returns the one that failed first in time,
// not in argument order, with and without KeepGoing.
func TestFirstErrorOrder(t *testing.T) {
	errs := []error{errors.New("e0"), errors.New("e1"), nil, errors.New("e3")}
	for _, order := range permutations([]int{0, 1, 3}) {
		for _, keep := range [][]Option{{FirstError}, {KeepGoing, FirstError}} {
			name := fmt.Sprint(order, len(keep) == 2)
			delay := func(i int) time.Duration { return time.Duration(1+slices.Index(order, i)) * time.Second }
			first := errs[order[0]]
			fn := func(ctx context.Context, i int) (int, error) {
				if errs[i] == nil {
					return i, nil
				}
				time.Sleep(delay(i)) // fake time: not canceled by ctx, so each fails on its own
				return 0, errs[i]
			}
			inputs := []int{0, 1, 2, 3}
			check := func(call string, err error) {
				t.Helper()
				if err != first {
					t.Errorf("%s %s: err = %v, want %v", call, name, err, first)
				}
			}
			synctest.Test(t, func(t *testing.T) {
				ctx := t.Context()
				_, err := Map(ctx, inputs, -1, fn, keep...)
				check("Map", err)
				check("ForEach", ForEach(ctx, inputs, -1, func(ctx context.Context, i int) error {
					_, err := fn(ctx, i)
					return err
				}, keep...))
				_, _, _, _, err = Run4(ctx,
					func(ctx context.Context) (int, error) { return fn(ctx, 0) },
					func(ctx context.Context) (int, error) { return fn(ctx, 1) },
					func(ctx context.Context) (int, error) { return fn(ctx, 2) },
					func(ctx context.Context) (int, error) { return fn(ctx, 3) },
					keep...)
				check("Run4", err)
				_, err = Scope(ctx, func(ctx context.Context, g *Group) (struct{}, error) {
					for _, i := range inputs {
						if i%2 == 0 {
							g.Go(func(ctx context.Context) error { _, err := fn(ctx, i); return err })
						} else {
							Spawn(g, func(ctx context.Context) (int, error) { return fn(ctx, i) })
						}
					}
					return struct{}{}, nil
				}, keep...)
				check("Scope", err)
			})
		}
	}
}

// permutations returns every order of xs.
func permutations(xs []int) [][]int {
	if len(xs) <= 1 {
		return [][]int{slices.Clone(xs)}
	}
	var all [][]int
	for i, x := range xs {
		rest := slices.Concat(xs[:i], xs[i+1:])
		for _, p := range permutations(rest) {
			all = append(all, append([]int{x}, p...))
		}
	}
	return all
}

func TestFirstErrorNamed(t *testing.T) {
	_, err := Map(t.Context(), []int{1}, 1, func(ctx context.Context, _ int) (int, error) {
		return Named("load", func(context.Context) (int, error) { return 0, errFirst })(ctx)
	}, FirstError)
	if err != errFirst {
		t.Fatalf("err = %v, want errFirst", err)
	}
	_, _, err = Run2(t.Context(), okInt, Named("load", func(context.Context) (int, error) { return 0, errFirst }), FirstError)
	if err != errFirst {
		t.Fatalf("Run2 of a Named function: err = %v, want errFirst without the name", err)
	}
}

func TestFirstErrorScopeBody(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// The body returns its own error before the child fails.
		_, err := Scope(t.Context(), func(ctx context.Context, g *Group) (int, error) {
			g.Go(func(ctx context.Context) error { time.Sleep(time.Second); return errSecond })
			return 0, errFirst
		}, KeepGoing, FirstError)
		if err != errFirst {
			t.Fatalf("body first: err = %v, want errFirst", err)
		}
		// The body returns the child's failure, wrapped, after receiving it:
		// the child failed first, and its error is returned as it returned it.
		_, err = Scope(t.Context(), func(ctx context.Context, g *Group) (int, error) {
			c := Spawn(g, failAfter(time.Second, errFirst))
			_, err := c.Wait(ctx)
			return 0, fmt.Errorf("body: %w", err)
		}, FirstError)
		if err != errFirst {
			t.Fatalf("child first: err = %v, want errFirst", err)
		}
	})
}

func TestFirstErrorSettled(t *testing.T) {
	out, err := Map(t.Context(), []int{1, 2, 3}, 1, func(_ context.Context, i int) (int, error) {
		if i == 2 {
			return 0, errFirst
		}
		return i * 10, nil
	}, KeepGoing, Settled, FirstError)
	if err != errFirst || !slices.Equal(out, []int{10, 0, 30}) {
		t.Fatalf("Map = %v, %v; want [10 0 30], errFirst", out, err)
	}
}

func TestFirstErrorCtx(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(time.Second, cancel)
		wrapped := func(ctx context.Context) (int, error) {
			<-ctx.Done()
			return 0, fmt.Errorf("load: %w", ctx.Err())
		}
		plain := func(ctx context.Context) (int, error) {
			<-ctx.Done()
			return 0, ctx.Err()
		}
		// Nothing failed: the first cancellation returned, in argument order.
		_, _, err := Run2(ctx, plain, wrapped, FirstError)
		if err != context.Canceled {
			t.Fatalf("Run2: err = %v, want context.Canceled itself", err)
		}
		ctx, cancel = context.WithCancel(t.Context())
		time.AfterFunc(time.Second, cancel)
		_, _, err = Run2(ctx, wrapped, plain, FirstError)
		if err == nil || err.Error() != "load: context canceled" {
			t.Fatalf("Run2: err = %v, want f1's error", err)
		}
	})
	// No function ran: ctx's error.
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	err := ForEach(ctx, []int{1, 2}, 1, func(context.Context, int) error { return nil }, FirstError)
	if err != context.Canceled {
		t.Fatalf("ForEach on a done ctx: err = %v, want context.Canceled", err)
	}
}

func TestFirstErrorStopped(t *testing.T) {
	_, err := Scope(t.Context(), func(ctx context.Context, g *Group) (int, error) {
		g.Stop()
		g.Go(func(context.Context) error { return nil })
		return 0, nil
	}, FirstError)
	if err != ErrStopped {
		t.Fatalf("err = %v, want ErrStopped", err)
	}
}

func TestFirstErrorPanicRaised(t *testing.T) {
	defer func() {
		pe, ok := recover().(*PanicError)
		if !ok || pe.Value != "boom" {
			t.Fatalf("recovered %v, want the function's panic", pe)
		}
	}()
	Run2(t.Context(), okInt, func(context.Context) (int, error) { panic("boom") }, FirstError)
	t.Fatal("Run2 returned; want its function's panic")
}

// TestFirstErrorRecoveredPanic: a child's panic that the body receives and
// recovers is no error to return: the first error is child 1's, returned
// before the body's.
func TestFirstErrorRecoveredPanic(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		errChild, errBody := errors.New("child 1"), errors.New("body")
		_, err := Scope(t.Context(), func(ctx context.Context, g *Group) (_ int, err error) {
			a := Spawn(g, func(context.Context) (int, error) {
				// After the body has started child 1: a panic before it
				// would leave child 1 not started, and the body's error
				// the first (1% of the runs at -cpu 4 failed so).
				time.Sleep(time.Second / 2)
				panic("child 0")
			})
			g.Go(func(context.Context) error { time.Sleep(time.Second); return errChild })
			defer func() {
				if recover() != nil {
					time.Sleep(3 * time.Second) // child 1 has failed
					err = errBody
				}
			}()
			a.Wait(context.Background()) // raises child 0's panic in the body
			return 0, nil
		}, FirstError)
		if err != errChild {
			t.Fatalf("Scope with FirstError = %v; want child 1's error, the first failure returned", err)
		}
	})
}
