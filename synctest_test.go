//go:build go1.25

package task

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// Every blocking call of the package is durably blocking in a
// testing/synctest bubble: while the functions it waits for wait on a
// channel of the bubble, synctest.Wait returns, and the bubble's clock
// moves. A call that blocked on a mutex (a sync.Once), which synctest does
// not count as durably blocked, would hang synctest.Wait: the watchdog
// then fails the test by name rather than leaving it to the test timeout.

// durably runs f in a synctest bubble, and crashes the test binary, naming
// the case, if it has not returned after 30s of real time.
func durably(t *testing.T, name string, f func(t *testing.T)) {
	t.Helper()
	t.Run(name, func(t *testing.T) {
		dog := time.AfterFunc(30*time.Second, func() {
			panic("synctest: " + t.Name() + ": a call was not durably blocked: synctest.Wait never returned")
		})
		defer dog.Stop()
		synctest.Test(t, f)
	})
}

// waiters runs wait in n goroutines and returns a function that collects
// their errors once they return.
func waiters(n int, wait func() error) func() []error {
	errs := make(chan error, n)
	for range n {
		go func() { errs <- wait() }()
	}
	return func() []error {
		var out []error
		for range n {
			out = append(out, <-errs)
		}
		return out
	}
}

// allNil reports whether every error is nil.
func allNil(errs []error) bool {
	return !slices.ContainsFunc(errs, func(err error) bool { return err != nil })
}

func TestSynctestGroupWait(t *testing.T) {
	for _, n := range []int{1, 3} {
		durably(t, "NewGroup, waits "+strconv.Itoa(n), func(t *testing.T) {
			release := make(chan struct{})
			g, _ := NewGroup(context.Background())
			g.Go(func(context.Context) error { <-release; return nil })
			collect := waiters(n, g.Wait)
			synctest.Wait() // every Wait is durably blocked
			close(release)
			if errs := collect(); !allNil(errs) {
				t.Fatalf("Waits = %v", errs)
			}
		})
		durably(t, "zero Group, waits "+strconv.Itoa(n), func(t *testing.T) {
			release := make(chan struct{})
			var g Group
			g.Go(func(context.Context) error { <-release; return nil })
			collect := waiters(n, g.Wait)
			synctest.Wait()
			close(release)
			if errs := collect(); !allNil(errs) {
				t.Fatalf("Waits = %v", errs)
			}
		})
	}
	// A later round of a zero Group waits as the first did.
	durably(t, "zero Group, second round", func(t *testing.T) {
		var g Group
		g.Go(func(context.Context) error { return nil })
		if err := g.Wait(); err != nil {
			t.Fatal(err)
		}
		release := make(chan struct{})
		g.Go(func(context.Context) error { <-release; return nil })
		collect := waiters(2, g.Wait)
		synctest.Wait()
		close(release)
		if errs := collect(); !allNil(errs) {
			t.Fatalf("Waits = %v", errs)
		}
	})
	// So does a later round of a group made by NewGroup, and a spawner
	// blocked at its limit.
	durably(t, "NewGroup, second round", func(t *testing.T) {
		g, _ := NewGroup(context.Background(), BlockAtLimit)
		g.SetLimit(1)
		g.Go(func(context.Context) error { return nil })
		if err := g.Wait(); err != nil {
			t.Fatal(err)
		}
		release := make(chan struct{})
		g.Go(func(context.Context) error { <-release; return nil })
		spawned := make(chan struct{})
		go func() {
			g.Go(func(context.Context) error { return nil }) // blocks at the limit
			close(spawned)
		}()
		synctest.Wait() // the spawner is blocked at the limit
		collect := waiters(2, g.Wait)
		synctest.Wait()
		close(release)
		<-spawned
		if errs := collect(); !allNil(errs) {
			t.Fatalf("Waits = %v", errs)
		}
	})
	// The pipeline of the issue: a Wait in a goroutine that closes a
	// channel, another in the main goroutine.
	durably(t, "pipeline", func(t *testing.T) {
		g, _ := NewGroup(context.Background())
		out := make(chan int)
		g.Go(func(context.Context) error {
			for i := range 3 {
				out <- i
			}
			return nil
		})
		go func() { g.Wait(); close(out) }()
		var got []int
		for v := range out {
			got = append(got, v)
		}
		if err := g.Wait(); err != nil || len(got) != 3 {
			t.Fatalf("Wait = %v, got %v", err, got)
		}
	})
}

func TestSynctestScope(t *testing.T) {
	for _, n := range []int{1, 3} {
		durably(t, "Scope, task waits "+strconv.Itoa(n), func(t *testing.T) {
			release := make(chan struct{})
			done := make(chan error)
			go func() {
				_, err := Scope(context.Background(), func(ctx context.Context, g *Group) (int, error) {
					tk := Spawn(g, func(context.Context) (int, error) { <-release; return 1, nil })
					collect := waiters(n, func() error { _, err := tk.Wait(ctx); return err })
					synctest.Wait() // the body's waiters on the child are durably blocked
					close(release)
					return 0, errors.Join(collect()...)
				})
				done <- err
			}()
			if err := <-done; err != nil {
				t.Fatalf("Scope = %v", err)
			}
		})
	}
	durably(t, "Scope waits for its children", func(t *testing.T) {
		release := make(chan struct{})
		done := make(chan error)
		go func() {
			_, err := Scope(context.Background(), func(ctx context.Context, g *Group) (int, error) {
				g.Go(func(context.Context) error { <-release; return nil })
				return 0, nil
			})
			done <- err
		}()
		synctest.Wait() // Scope is durably blocked on the child
		close(release)
		if err := <-done; err != nil {
			t.Fatalf("Scope = %v", err)
		}
	})
}

func TestSynctestTaskWait(t *testing.T) {
	for _, ctx := range []struct {
		name string
		make func() (context.Context, context.CancelFunc)
	}{
		{"Background", func() (context.Context, context.CancelFunc) { return context.Background(), func() {} }},
		{"WithCancel", func() (context.Context, context.CancelFunc) { return context.WithCancel(context.Background()) }},
	} {
		durably(t, "Task.Wait, 3 waiters, "+ctx.name, func(t *testing.T) {
			c, cancel := ctx.make()
			defer cancel()
			release := make(chan struct{})
			tk := Go(c, func(context.Context) (int, error) { <-release; return 1, nil })
			collect := waiters(3, func() error { _, err := tk.Wait(c); return err })
			synctest.Wait()
			close(release)
			if errs := collect(); !allNil(errs) {
				t.Fatalf("Waits = %v", errs)
			}
		})
		durably(t, "Await2 and All, "+ctx.name, func(t *testing.T) {
			c, cancel := ctx.make()
			defer cancel()
			release := make(chan struct{})
			a := Go(c, func(context.Context) (int, error) { <-release; return 1, nil })
			b := Go(c, func(context.Context) (int, error) { <-release; return 2, nil })
			collect := waiters(2, func() error { _, _, err := Await2(c, a, b); return err })
			collectAll := waiters(2, func() error { _, err := All(c, []*Task[int]{a, b}); return err })
			synctest.Wait()
			close(release)
			if errs := append(collect(), collectAll()...); !allNil(errs) {
				t.Fatalf("waits = %v", errs)
			}
		})
		durably(t, "WhenEach, "+ctx.name, func(t *testing.T) {
			c, cancel := ctx.make()
			defer cancel()
			release := make(chan struct{})
			tasks := []*Task[int]{
				Go(c, func(context.Context) (int, error) { <-release; return 1, nil }),
				Go(c, func(context.Context) (int, error) { <-release; return 2, nil }),
			}
			collect := waiters(2, func() error {
				n := 0
				for range WhenEach(c, tasks) {
					n++
				}
				if n != 2 {
					return errors.New("WhenEach did not yield every task")
				}
				return nil
			})
			synctest.Wait()
			close(release)
			if errs := collect(); !allNil(errs) {
				t.Fatalf("WhenEach = %v", errs)
			}
		})
	}
	// A promise: a task completed by a callback. (NewSource here; the
	// v0.1.0 API calls it Promise.)
	durably(t, "promise", func(t *testing.T) {
		src := newSource[int]()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		collect := waiters(2, func() error { _, err := src.Task().Wait(context.Background()); return err })
		collectCtx := waiters(2, func() error { _, err := src.Task().Wait(ctx); return err })
		synctest.Wait()
		src.Complete(1, nil)
		if errs := append(collect(), collectCtx()...); !allNil(errs) {
			t.Fatalf("Waits = %v", errs)
		}
	})
}

func TestSynctestMap(t *testing.T) {
	durably(t, "Map and ForEach at a limit", func(t *testing.T) {
		release := make(chan struct{})
		in := []int{1, 2, 3, 4}
		collect := waiters(1, func() error {
			_, err := Map(context.Background(), in, 2, func(_ context.Context, i int) (int, error) { <-release; return i, nil })
			return err
		})
		collectEach := waiters(1, func() error {
			return ForEach(context.Background(), in, 2, func(context.Context, int) error { <-release; return nil })
		})
		synctest.Wait()
		close(release)
		if errs := append(collect(), collectEach()...); !allNil(errs) {
			t.Fatalf("Map, ForEach = %v", errs)
		}
	})
	for _, unordered := range []bool{false, true} {
		name := "MapSeq"
		mapSeq := MapSeq[int, int]
		if unordered {
			name, mapSeq = "MapSeqUnordered", MapSeqUnordered[int, int]
		}
		durably(t, name+": the consumer waits", func(t *testing.T) {
			release := make(chan struct{})
			got := make(chan int)
			go func() {
				n := 0
				for _, err := range mapSeq(context.Background(), slices.Values([]int{1, 2, 3}), 2, func(_ context.Context, i int) (int, error) {
					<-release
					return i, nil
				}) {
					if err == nil {
						n++
					}
				}
				got <- n
			}()
			synctest.Wait() // the loop is durably blocked on the calls
			close(release)
			if n := <-got; n != 3 {
				t.Fatalf("%d results; want 3", n)
			}
		})
		durably(t, name+": the calls wait for the consumer", func(t *testing.T) {
			release := make(chan struct{})
			var calls atomic.Int32
			got := make(chan int)
			go func() {
				n := 0
				for range mapSeq(context.Background(), slices.Values([]int{1, 2, 3, 4, 5, 6}), 2, func(_ context.Context, i int) (int, error) {
					calls.Add(1)
					return i, nil
				}) {
					if n == 0 {
						<-release // the consumer is slow: the calls wait for it
					}
					n++
				}
				got <- n
			}()
			synctest.Wait() // the calls and the pull are durably blocked
			close(release)
			if n := <-got; n != 6 {
				t.Fatalf("%d results; want 6", n)
			}
		})
	}
	durably(t, "MapWithin's budget", func(t *testing.T) {
		start := time.Now()
		var out []int
		var left []int
		var err error
		done := make(chan struct{})
		go func() {
			defer close(done)
			out, left, err = MapWithin(context.Background(), time.Second, []int{1, 2}, -1, func(ctx context.Context, i int) (int, error) {
				if i == 2 {
					<-ctx.Done()
					return 0, ctx.Err()
				}
				return i, nil
			})
		}()
		synctest.Wait() // MapWithin waits for the budget, durably
		if time.Since(start) != 0 {
			t.Fatalf("time moved before every goroutine blocked")
		}
		<-done
		if err != nil || !slices.Equal(left, []int{1}) || out[0] != 1 || time.Since(start) != time.Second {
			t.Fatalf("MapWithin = %v, %v, %v after %v; want [1 0] [1] nil after 1s", out, left, err, time.Since(start))
		}
	})
}

func TestSynctestRaces(t *testing.T) {
	waits := func(ctx context.Context) (int, error) { <-ctx.Done(); return 0, ctx.Err() }
	slow := func(release chan struct{}, v int) func(context.Context) (int, error) {
		return func(context.Context) (int, error) { <-release; return v, nil }
	}
	for _, tc := range []struct {
		name string
		call func(release chan struct{}) error
	}{
		{"Hedge", func(r chan struct{}) error {
			_, _, err := Hedge(context.Background(), 0, nil, slow(r, 1), waits)
			return err
		}},
		{"Hedge", func(r chan struct{}) error {
			_, _, err := Hedge(context.Background(), time.Second, nil, slow(r, 1), waits)
			return err
		}},
		{"Quorum", func(r chan struct{}) error {
			_, _, err := Quorum(context.Background(), 2, nil, slow(r, 1), slow(r, 2), waits)
			return err
		}},
		{"Until", func(r chan struct{}) error {
			enough := func(vals []int, _ []int) bool { return len(vals) == 2 }
			_, _, _, err := Until(context.Background(), enough, nil, slow(r, 1), slow(r, 2), waits)
			return err
		}},
	} {
		durably(t, tc.name, func(t *testing.T) {
			release := make(chan struct{})
			collect := waiters(1, func() error { return tc.call(release) })
			synctest.Wait()
			close(release)
			if errs := collect(); !allNil(errs) {
				t.Fatalf("%s = %v", tc.name, errs)
			}
		})
	}
}

func TestSynctestStop(t *testing.T) {
	// Stop with Grace: the Wait is durably blocked through the grace
	// period, whose timer runs on the bubble's clock.
	durably(t, "Stop with Grace", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		g, _ := NewGroup(ctx, Grace(time.Minute))
		g.Go(func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() })
		g.Stop()
		start := time.Now()
		collect := waiters(2, g.Wait)
		synctest.Wait()
		cancel() // the grace period starts
		errs := collect()
		if time.Since(start) != time.Minute {
			t.Fatalf("Wait returned after %v; want the grace period, 1m", time.Since(start))
		}
		var ce *CallError
		if !errors.As(errs[0], &ce) || len(ce.Unfinished) != 1 {
			t.Fatalf("Wait = %v; want the child unfinished", errs[0])
		}
	})
	durably(t, "BlockAtLimit", func(t *testing.T) {
		release := make(chan struct{})
		g, _ := NewGroup(context.Background(), BlockAtLimit)
		g.SetLimit(1)
		g.Go(func(context.Context) error { <-release; return nil })
		var mu sync.Mutex
		spawned := 0
		collect := waiters(2, func() error {
			g.Go(func(context.Context) error { return nil })
			mu.Lock()
			spawned++
			mu.Unlock()
			return nil
		})
		synctest.Wait() // the spawners are durably blocked at the limit
		mu.Lock()
		n := spawned
		mu.Unlock()
		if n != 0 {
			t.Fatalf("%d spawners returned at the limit", n)
		}
		close(release)
		collect()
		if err := g.Wait(); err != nil {
			t.Fatalf("Wait = %v", err)
		}
	})
}
