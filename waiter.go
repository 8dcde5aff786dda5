package task

import (
	"context"
	"runtime"
)

// A link registers one waiting call with one pending task. When the task
// completes it sends the link's position on ch without blocking, and drops
// the link. One channel can serve many links: WhenAny and WhenEach register
// one link per task, all sharing a channel; a call that waits for tasks one
// after another (AwaitN, All, WhenAll) reuses a single link.
//
// Links replace a channel per task: a call over N pending tasks makes O(1)
// allocations for waiting, not O(N), and no goroutine, whatever N is.
type link struct {
	ch   chan int // buffered; see the callers for the capacity
	i    int      // the position the task has in the call
	next *link    // guarded by the mu of the task the link is registered with
}

// register adds l to c's links, unless c has completed; it reports whether
// it did.
func (c *core) register(l *link) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state.Load() != pending {
		return false
	}
	l.next = c.links
	c.links = l
	return true
}

// unregister removes l from c's links and reports whether it was there. If
// it was not, c has completed and its send on l.ch has happened.
func (c *core) unregister(l *link) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for p := &c.links; *p != nil; p = &(*p).next {
		if *p == l {
			*p = l.next
			l.next = nil
			return true
		}
	}
	return false
}

// wake sends on every link; the caller holds c.mu.
func (c *core) wake() {
	for l := c.links; l != nil; {
		next := l.next
		l.next = nil
		select {
		case l.ch <- l.i:
		default: // the channel has a signal already; one is enough
		}
		l = next
	}
	c.links = nil
}

// A sequence waits for tasks one after another. Its link is made the first
// time a task is pending and ctx can be canceled, and is reused.
type sequence struct {
	l       *link
	yielded bool // runtime.Gosched was called once already
}

// wait is core.block for a call over several tasks.
func (s *sequence) wait(ctx context.Context, c *core) error {
	if c.state.Load() != pending {
		return nil
	}
	if !s.yielded {
		// Tasks just started by Go are usually waiting in this P's run
		// queue: yielding once lets them run here before we block, which
		// is cheaper than being woken by another thread.
		s.yielded = true
		runtime.Gosched()
		if c.state.Load() != pending {
			return nil
		}
	}
	d := ctx.Done()
	if d == nil {
		c.waitForever()
		return nil
	}
	if s.l == nil {
		s.l = &link{ch: make(chan int, 1)}
	}
	if !c.register(s.l) {
		return nil
	}
	select {
	case <-s.l.ch:
		return nil
	case <-d:
		if c.unregister(s.l) {
			return contextError(ctx)
		}
		<-s.l.ch // completed meanwhile: take its signal so the link can be reused
		return nil
	}
}
