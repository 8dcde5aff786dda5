package task

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// Issue 8, bug 3: WhenAny and WhenEach over a slice that repeats a task were
// quadratic, because each of their links was unregistered by a walk over the
// task's links. These tests count that work instead of timing it.

// countUnregister counts, until the test ends, the links that unregister
// looks at on c. The hook is global: tests that set it do not run in
// parallel with each other.
func countUnregister(t *testing.T, c *core) *atomic.Int64 {
	t.Helper()
	var n atomic.Int64
	hook := func(got *core, steps int) {
		if got == c {
			n.Add(int64(steps))
		}
	}
	if !testHookUnregister.CompareAndSwap(nil, &hook) {
		t.Fatal("testHookUnregister is set already")
	}
	t.Cleanup(func() { testHookUnregister.Store(nil) })
	return &n
}

// noHang runs f and fails the test if it has not returned within a minute:
// a bug that blocks forever fails with a message instead of a test timeout.
func noHang(t *testing.T, name string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatalf("%s has not returned after a minute", name)
	}
}

// repeat returns n copies of t.
func repeat(t *Task[int], n int) []*Task[int] {
	tasks := make([]*Task[int], n)
	for i := range tasks {
		tasks[i] = t
	}
	return tasks
}

// TestRepeatedTaskLinear checks that WhenAny and WhenEach over many copies
// of one pending task look at each of their links a bounded number of times
// when they unregister, and leave none registered. The old unregister, a walk
// from the most recently registered link, looked at n(n+1)/2 of them.
func TestRepeatedTaskLinear(t *testing.T) {
	n := scaleN()
	src := NewSource[int]()
	p := src.Task()
	steps := countUnregister(t, &p.core)
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	check := func(name string, links int) {
		t.Helper()
		if got := steps.Swap(0); got > int64(links) {
			t.Errorf("%s: unregister looked at %d links; want at most %d, one per link", name, got, links)
		}
		if p.linked() {
			t.Errorf("%s left links registered", name)
		}
	}

	copies := repeat(p, n)
	noHang(t, "WhenAny", func() {
		if i, err := WhenAny(canceled, copies); i != -1 || !errors.Is(err, context.Canceled) {
			t.Errorf("WhenAny(canceled, %d copies) = %d, %v; want -1, context.Canceled", n, i, err)
		}
	})
	check("WhenAny with ctx done", n)

	noHang(t, "WhenEach", func() {
		for i := range WhenEach(canceled, copies) {
			t.Errorf("WhenEach with ctx done yielded %d", i)
		}
	})
	check("WhenEach ended by ctx", n)

	// The completed task comes last, so every copy is registered when the
	// loop body breaks out.
	withDone := append(repeat(p, n), FromResult(1))
	noHang(t, "WhenEach with a break", func() {
		for i := range WhenEach(context.Background(), withDone) {
			if i != n {
				t.Errorf("WhenEach yielded %d first; want %d", i, n)
			}
			break
		}
	})
	check("WhenEach ended by break", n)

	src.Complete(1, nil)
}

// TestWhenAnyRepeated checks that WhenAny reports the first copy of a task
// that tasks repeats, among distinct tasks, whether the task completes
// before the call or while it waits.
func TestWhenAnyRepeated(t *testing.T) {
	for _, tc := range []struct {
		tasks    string // a letter per position; equal letters, one task
		before   string // the tasks completed before the call
		complete byte   // the task completed while WhenAny waits, if any
		want     int
	}{
		{tasks: "pppp", complete: 'p', want: 0},
		{tasks: "apbpap", complete: 'p', want: 1},
		{tasks: "apbpap", complete: 'a', want: 0},
		{tasks: "apbpap", complete: 'b', want: 2},
		{tasks: "apbpap", before: "p", want: 1},
		{tasks: "apbpap", before: "pb", want: 1},
		{tasks: "abababbbc", complete: 'c', want: 8},
	} {
		name := fmt.Sprintf("tasks=%s/before=%s/after=%c", tc.tasks, tc.before, max(tc.complete, '-'))
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srcs, tasks := lettered(tc.tasks)
				for _, r := range tc.before {
					srcs[byte(r)].Complete(0, nil)
				}
				var i int
				var err error
				done := make(chan struct{})
				go func() { i, err = WhenAny(context.Background(), tasks); close(done) }()
				if tc.complete != 0 {
					synctest.Wait()
					srcs[tc.complete].Complete(0, nil)
				}
				<-done // a hang is a deadlock in the bubble: synctest fails the test
				if i != tc.want || err != nil {
					t.Errorf("WhenAny(%s) = %d, %v; want %d, nil", tc.tasks, i, err, tc.want)
				}
				for _, tk := range tasks {
					if tk.linked() {
						t.Errorf("WhenAny(%s) left a link registered", tc.tasks)
					}
				}
				for _, s := range srcs {
					s.Complete(0, nil)
				}
			})
		})
	}
}

// lettered returns a task per distinct letter of pattern and the tasks in
// the pattern's order: "aba" is a task, another, and the first again.
func lettered(pattern string) (map[byte]*Source[int], []*Task[int]) {
	srcs := make(map[byte]*Source[int])
	tasks := make([]*Task[int], len(pattern))
	for i := range len(pattern) {
		s, ok := srcs[pattern[i]]
		if !ok {
			s = NewSource[int]()
			srcs[pattern[i]] = s
		}
		tasks[i] = s.Task()
	}
	return srcs, tasks
}

// TestWhenEachRepeated checks that WhenEach yields every position of a
// repeated task exactly once, in order, when the task completes, and in the
// order in which the tasks complete.
func TestWhenEachRepeated(t *testing.T) {
	for _, tc := range []struct {
		tasks string
		order string // the order in which the tasks complete
		want  []int
	}{
		{"ppp", "p", []int{0, 1, 2}},
		{"pqpqp", "pq", []int{0, 2, 4, 1, 3}},
		{"pqpqp", "qp", []int{1, 3, 0, 2, 4}},
		{"apbpapc", "bcpa", []int{2, 6, 1, 3, 5, 0, 4}},
		{"aaaaaaaaaaaaaaaaaaaa", "a", []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19}},
	} {
		t.Run(fmt.Sprintf("tasks=%s/order=%s", tc.tasks, tc.order), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srcs, tasks := lettered(tc.tasks)
				var got []int
				done := make(chan struct{})
				go func() {
					defer close(done)
					for i := range WhenEach(context.Background(), tasks) {
						got = append(got, i)
					}
				}()
				for _, r := range tc.order {
					synctest.Wait()
					srcs[byte(r)].Complete(0, nil)
				}
				<-done
				if !slices.Equal(got, tc.want) {
					t.Errorf("WhenEach(%s) completed in order %s yielded %v; want %v", tc.tasks, tc.order, got, tc.want)
				}
			})
		})
	}

	// Many copies, completed while WhenEach waits.
	t.Run("copies", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			n := scaleN()
			src := NewSource[int]()
			seen := make([]int, n)
			count := 0
			done := make(chan struct{})
			go func() {
				defer close(done)
				for i := range WhenEach(context.Background(), repeat(src.Task(), n)) {
					seen[i]++
					count++
				}
			}()
			synctest.Wait()
			src.Complete(1, nil)
			<-done
			for i, k := range seen {
				if k != 1 {
					t.Fatalf("WhenEach over %d copies yielded position %d %d times; want once", n, i, k)
				}
			}
			if count != n {
				t.Errorf("WhenEach over %d copies yielded %d positions", n, count)
			}
		})
	})
}

// TestWhenEachRepeatedBreak checks that breaking out of WhenEach, before or
// after a repeated task completes, leaves nothing registered.
func TestWhenEachRepeatedBreak(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srcs, tasks := lettered("ppqpdqp")
		srcs['d'].Complete(0, nil)
		for i := range WhenEach(context.Background(), tasks) {
			if i != 4 {
				t.Errorf("first yield %d; want 4", i)
			}
			break
		}
		for _, tk := range tasks {
			if tk.linked() {
				t.Fatal("a link is left registered after break")
			}
		}

		var got []int
		done := make(chan struct{})
		go func() {
			defer close(done)
			for i := range WhenEach(context.Background(), tasks) {
				got = append(got, i)
				if len(got) == 3 {
					break
				}
			}
		}()
		synctest.Wait()
		srcs['p'].Complete(0, nil)
		<-done
		if want := []int{4, 0, 1}; !slices.Equal(got, want) {
			t.Errorf("WhenEach yielded %v before the break; want %v", got, want)
		}
		for _, tk := range tasks {
			if tk.linked() {
				t.Fatal("a link is left registered after break")
			}
		}
		srcs['q'].Complete(0, nil)
	})
}

// TestAllRepeatedCancellable checks the reuse of a sequence's link with a
// task that tasks repeats: woken once, then registered with the next task;
// or unregistered when ctx is done.
func TestAllRepeatedCancellable(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srcs, tasks := lettered("ppqpq")
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var got []int
		var err error
		done := make(chan struct{})
		go func() { got, err = All(ctx, tasks); close(done) }()
		synctest.Wait()
		srcs['p'].Complete(1, nil)
		synctest.Wait()
		srcs['q'].Complete(2, nil)
		<-done
		if want := []int{1, 1, 2, 1, 2}; err != nil || !slices.Equal(got, want) {
			t.Errorf("All = %v, %v; want %v, nil", got, err, want)
		}

		srcs, tasks = lettered("ppqpq")
		done = make(chan struct{})
		go func() { got, err = All(ctx, tasks); close(done) }()
		synctest.Wait()
		cancel()
		<-done
		if !errors.Is(err, context.Canceled) {
			t.Errorf("All with ctx canceled: err = %v; want context.Canceled", err)
		}
		for _, tk := range tasks {
			if tk.linked() {
				t.Fatal("a link is left registered after All returned")
			}
		}
		for _, s := range srcs {
			s.Complete(0, nil)
		}
	})
}

// TestLinkRing drives register and unregister at random against a model of
// the links a task should hold, checks the ring after every step, and then
// the order and the positions that wake sends.
func TestLinkRing(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 3))
	for round := range 200 {
		src := NewSource[int]()
		c := &src.Task().core
		links := make([]link, 1+r.IntN(8))
		ch := make(chan int, len(links))
		for i := range links {
			links[i] = link{ch: ch, i: i}
		}
		var model []int // positions of the registered links, in registration order
		for range r.IntN(40) {
			i := r.IntN(len(links))
			if j := slices.Index(model, i); j >= 0 {
				if !c.unregister(&links[i]) {
					t.Fatalf("round %d: unregister(%d) = false; want true", round, i)
				}
				model = slices.Delete(model, j, j+1)
			} else {
				if !c.register(&links[i]) {
					t.Fatalf("round %d: register(%d) = false; want true", round, i)
				}
				model = append(model, i)
			}
			checkRing(t, c, links, model)
		}
		src.Complete(0, nil)
		var woken []int
		for range len(model) {
			woken = append(woken, <-ch)
		}
		if !slices.Equal(woken, model) {
			t.Fatalf("round %d: wake sent %v; want %v, the registration order", round, woken, model)
		}
		if len(ch) != 0 {
			t.Fatalf("round %d: wake sent %d positions too many", round, len(ch))
		}
		checkRing(t, c, links, nil)
		for i := range links {
			if c.unregister(&links[i]) {
				t.Fatalf("round %d: unregister(%d) after completion = true; want false", round, i)
			}
			if c.register(&links[i]) {
				t.Fatalf("round %d: register(%d) after completion = true; want false", round, i)
			}
		}
	}
}

// checkRing checks that c's links are the ring of model, in order, and that
// the other links are not registered.
func checkRing(t *testing.T, c *core, links []link, model []int) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	var ring []int
	if l := c.links; l != nil {
		for {
			if l.next.prev != l {
				t.Fatalf("link %d: next.prev is not the link", l.i)
			}
			ring = append(ring, l.i)
			if l = l.next; l == c.links || len(ring) > len(links) {
				break
			}
		}
	}
	if !slices.Equal(ring, model) {
		t.Fatalf("ring %v; want %v", ring, model)
	}
	for i := range links {
		if !slices.Contains(model, i) && (links[i].next != nil || links[i].prev != nil) {
			t.Fatalf("link %d is not registered but has neighbours", i)
		}
	}
}

// BenchmarkWhenAnyRepeated is BenchmarkWhenAny over n copies of one pending
// task: every link of the call is registered with the same task.
func BenchmarkWhenAnyRepeated(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, n := range []int{1_000, 100_000} {
		b.Run(fmt.Sprintf("n=%d/mode=pending", n), func(b *testing.B) {
			_, t := sources(1)
			tasks := repeat(t[0], n)
			perTask(b, n, func() { WhenAny(ctx, tasks) })
		})
	}
}
