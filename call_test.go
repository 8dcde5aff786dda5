//go:build go1.25

package task

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"testing"
	"testing/synctest"
	"time"
)

// RunN (zrun.go) and the call that runs its functions (call.go): order,
// the child context.

// TestRunOrder releases the functions of every arity in many orders and
// checks that RunN waits for the last one and returns values in argument
// order.
func TestRunOrder(t *testing.T) {
	for _, a := range arities[1:] {
		for _, order := range orders(a.n) {
			name := fmt.Sprintf("Run%d/order=%v", a.n, order)
			synctest.Test(t, func(t *testing.T) {
				sl := newSlots(a.n, kValue)
				for _, s := range sl {
					s.gate = make(chan struct{})
				}
				var got []any
				var err error
				returned := make(chan struct{})
				go func() {
					got, err = a.run(context.Background(), sl)
					close(returned)
				}()
				synctest.Wait()
				for k, i := range order {
					close(sl[i].gate)
					synctest.Wait()
					select {
					case <-returned:
						if k < len(order)-1 {
							t.Fatalf("%s: returned after %d of %d functions", name, k+1, a.n)
						}
					default:
						if k == len(order)-1 {
							t.Fatalf("%s: still waiting after every function returned", name)
						}
					}
				}
				if err != nil {
					t.Fatalf("%s: err = %v", name, err)
				}
				checkValues(t, name, got, a.n)
				for _, s := range sl {
					if c := s.calls.Load(); c != 1 {
						t.Errorf("%s: f%d called %d times", name, s.i, c)
					}
				}
			})
		}
	}
}

// TestRunContext checks the lazily made child context of RunN.
func TestRunContext(t *testing.T) {
	type key struct{}
	parent := context.WithValue(context.Background(), key{}, "v")
	boom := errors.New("boom")
	var before, after error
	var leaked context.Context
	looked := make(chan struct{})
	_, _, err := Run2(parent,
		func(ctx context.Context) (int, error) {
			if ctx.Value(key{}) != "v" {
				t.Error("Value does not reach the parent")
			}
			if _, ok := ctx.Deadline(); ok {
				t.Error("Deadline set without one in the parent")
			}
			before = ctx.Err()
			close(looked)
			<-ctx.Done()
			after = ctx.Err()
			leaked = ctx
			return 0, ctx.Err()
		},
		func(ctx context.Context) (string, error) { <-looked; return "", boom })
	if before != nil || after != context.Canceled {
		t.Errorf("Err before/after failure = %v/%v; want nil/Canceled", before, after)
	}
	if err == nil || !errors.Is(err, boom) || errors.Is(err, context.Canceled) {
		t.Errorf("err = %v; want only boom", err)
	}
	if !errors.Is(context.Cause(leaked), boom) {
		t.Errorf("Cause = %v; want boom", context.Cause(leaked))
	}

	// A function that never looks at ctx before RunN returns finds it
	// canceled afterwards.
	_, _, _ = Run2(context.Background(),
		func(ctx context.Context) (int, error) { leaked = ctx; return 0, nil },
		immediate[int])
	if leaked.Err() != context.Canceled {
		t.Errorf("ctx.Err() after Run2 returned = %v; want Canceled", leaked.Err())
	}
	select {
	case <-leaked.Done():
	default:
		t.Error("ctx.Done() not closed after Run2 returned")
	}
	if s, ok := leaked.(interface{ String() string }); !ok || s.String() == "" {
		t.Error("the context has no String method")
	}

	// Err of a failed group without the child made yet stays the same once
	// the child is made.
	_, _, _ = Run2(context.Background(),
		func(ctx context.Context) (int, error) { return 0, boom },
		func(ctx context.Context) (int, error) {
			// f1 may not have failed yet: wait for it.
			for ctx.Err() == nil {
				runtime.Gosched()
			}
			e1 := ctx.Err()
			<-ctx.Done()
			if e2 := ctx.Err(); e1 != e2 || !errors.Is(context.Cause(ctx), boom) {
				t.Errorf("Err changed from %v to %v, cause %v", e1, e2, context.Cause(ctx))
			}
			return 0, nil
		})
}

func TestRunDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		start := time.Now()
		_, _, err := Run2(ctx,
			func(ctx context.Context) (int, error) {
				if d, ok := ctx.Deadline(); !ok || d != start.Add(time.Second) {
					t.Errorf("Deadline = %v, %v", d, ok)
				}
				<-ctx.Done()
				return 0, ctx.Err()
			},
			func(ctx context.Context) (int, error) {
				<-ctx.Done()
				return 0, context.Cause(ctx)
			})
		if !errors.Is(err, context.DeadlineExceeded) || positions(err) != nil && len(positions(err)) != 1 {
			t.Errorf("err = %v; want only DeadlineExceeded", err)
		}
		if d := time.Since(start); d != time.Second {
			t.Errorf("Run2 returned after %v; want 1s", d)
		}
	})
}

// TestCallString: the context a call gives its functions prints the
// call's name.
func TestCallString(t *testing.T) {
	for _, tc := range []struct {
		c    *call
		want string
	}{
		{&call{kind: kindRunN, n: 3}, "task.Run3 context"},
		{&call{kind: kindMap}, "task.Map context"},
		{&call{kind: kindMapSeqUnordered}, "task.MapSeqUnordered context"},
		{&call{kind: kindGroup}, "task.Group context"},
	} {
		if got := fmt.Sprint(tc.c); got != tc.want {
			t.Errorf("a call of kind %d prints %q; want %q", tc.c.kind, got, tc.want)
		}
	}
}

// TestLateChildCanceled: a function's goroutine that first looks at the
// call's context while RunN returns finds it canceled once RunN has
// returned, whichever comes first: the child context made then, or the
// return (cancelAtReturn against childCtx). Run with -race.
func TestLateChildCanceled(t *testing.T) {
	for range 2000 {
		got := make(chan (<-chan struct{}), 1)
		_, _, _ = Run2(context.Background(),
			func(ctx context.Context) (int, error) {
				go func() { got <- ctx.Done() }()
				return 0, nil
			},
			immediate[int])
		select {
		case <-<-got:
		default:
			t.Fatal("the Done channel a function's goroutine got during the return is not closed after Run2 returned")
		}
	}
}

// TestLateChildErr: once a call has returned, its context reports the
// cancellation from Err as soon as another goroutine's first look has made
// the child context: the child is canceled before it is published. The
// call is made as RunN makes it, and returns as RunN's does
// (cancelAtReturn), so that a probe that wraps the functions' context does
// not hide the call.
func TestLateChildErr(t *testing.T) {
	n := 200000 // the window is a few instructions wide
	if raceEnabled {
		n = 50000
	}
	for range n {
		c := &call{n: 2}
		c.initKind(context.Background(), 0, kindRunN, nil, nil)
		c.cancelAtReturn()
		go c.Done() // makes the child, after the return
		for !c.isReady() {
			runtime.Gosched()
		}
		if err := c.Err(); err != context.Canceled {
			t.Fatalf("Err() = %v once the child was made after the call returned; want context.Canceled", err)
		}
	}
}
