package task

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"testing/synctest"
)

// orders returns completion orders of n positions (0-based) to try: every
// permutation up to n = 4, else a fixed set plus seeded random ones.
func orders(n int) [][]int {
	id := make([]int, n)
	for i := range id {
		id[i] = i
	}
	if n <= 4 {
		var all [][]int
		var perm func(p []int, k int)
		perm = func(p []int, k int) {
			if k == len(p) {
				all = append(all, slices.Clone(p))
				return
			}
			for i := k; i < len(p); i++ {
				p[k], p[i] = p[i], p[k]
				perm(p, k+1)
				p[k], p[i] = p[i], p[k]
			}
		}
		perm(id, 0)
		return all
	}
	rev := slices.Clone(id)
	slices.Reverse(rev)
	out := [][]int{id, rev}
	r := rand.New(rand.NewPCG(uint64(n), 2))
	for range 4 {
		p := slices.Clone(id)
		r.Shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
		out = append(out, p)
	}
	return out
}

func checkValues(t *testing.T, name string, got []any, n int) {
	t.Helper()
	for i := 1; i <= n; i++ {
		if want := wantValue(n, i); !reflect.DeepEqual(got[i-1], want) {
			t.Errorf("%s: r%d = %#v; want %#v", name, i, got[i-1], want)
		}
	}
}

func checkZero(t *testing.T, name string, got []any) {
	t.Helper()
	for i, v := range got {
		if want := zeroValue(i + 1); !reflect.DeepEqual(v, want) {
			t.Errorf("%s: r%d = %#v; want zero %#v", name, i+1, v, want)
		}
	}
}

// positions lists the 0-based positions of the PositionErrors in err, and
// -1 for the context error. For a raised *PanicError, they are its own
// position and those of the other failures it holds, in order.
func positions(err error) []int {
	var ps []int
	if pe, ok := err.(*PanicError); ok {
		ps = []int{pe.Index}
		if pe.Others != nil {
			ps = append(ps, positions(pe.Others)...)
		}
		slices.Sort(ps) // the context error, -1, comes first
		return ps
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			var pe *PositionError
			if errors.As(e, &pe) {
				ps = append(ps, pe.Index)
			} else {
				ps = append(ps, -1)
			}
		}
	}
	return ps
}

// TestAwaitOrder completes the tasks of every arity in many orders, checks
// that AwaitN waits for the last one and returns values in argument order.
func TestAwaitOrder(t *testing.T) {
	for _, a := range arities {
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

func TestAwaitCompletedAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under -race")
	}
	for _, a := range arities {
		if got := a.allocsAwait(); got != 0 {
			t.Errorf("Await%d of completed tasks: %v allocations; want 0", a.n, got)
		}
	}
}

func TestRunAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under -race")
	}
	for _, a := range arities[1:] {
		if got := a.allocsRun(); got > float64(a.n) {
			t.Errorf("Run%d: %v allocations; want at most %d", a.n, got, a.n)
		} else {
			t.Logf("Run%d: %v allocations", a.n, got)
		}
	}
}
