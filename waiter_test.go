package task

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"
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

// TestRepeatedTaskLinear checks that WhenAny and WhenEach over many copies
// of one pending task look at each of their links a bounded number of times
// when they unregister, and leave none registered. The old unregister, a walk
// from the most recently registered link, looked at n(n+1)/2 of them.
func TestRepeatedTaskLinear(t *testing.T) {
	n := scaleN()
	src := newSource[int]()
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
	withDone := append(repeat(p, n), fromResult(1))
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

// TestLinkRing drives register and unregister at random against a model of
// the links a task should hold, checks the ring after every step, and then
// the order and the positions that wake sends.
func TestLinkRing(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 3))
	for round := range 200 {
		src := newSource[int]()
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
