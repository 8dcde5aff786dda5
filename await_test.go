//go:build go1.25

package task

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"testing/synctest"
)

// AwaitN (zawait.go) and its slow path, awaitCores (await.go).

// TestAwaitOrder completes the tasks of every arity in many orders, checks
// that AwaitN waits for the last one and returns values in argument order.
func TestAwaitOrder(t *testing.T) {
	for _, a := range arities[1:] {
		for _, order := range orders(a.n) {
			name := fmt.Sprintf("Await%d/order=%v", a.n, order)
			synctest.Test(t, func(t *testing.T) {
				sl := newSlots(a.n, kSource)
				var got []any
				var err error
				returned := make(chan struct{})
				go func() {
					ctx := context.Background()
					// taskFor runs inside the adapter; the sources exist once
					// the adapter has made its tasks, before it blocks.
					got, err = a.await(ctx, sl)
					close(returned)
				}()
				synctest.Wait()
				for k, i := range order {
					sl[i].complete(true)
					synctest.Wait()
					select {
					case <-returned:
						if k < len(order)-1 {
							t.Fatalf("%s: returned after %d of %d completions", name, k+1, a.n)
						}
					default:
						if k == len(order)-1 {
							t.Fatalf("%s: still waiting after every task completed", name)
						}
					}
				}
				if err != nil {
					t.Fatalf("%s: err = %v", name, err)
				}
				checkValues(t, name, got, a.n)
			})
		}
	}
}

// TestAwaitCtxDone: when ctx ends first, AwaitN returns the context's error
// at once, with the cause; the tasks are untouched and a later AwaitN gets
// their results. With Settled, completed tasks' values come back.
func TestAwaitCtxDone(t *testing.T) {
	cause := errors.New("gave up")
	for _, a := range arities[1:] {
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
