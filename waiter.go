package task

import (
	"context"
	"runtime"
	"sync/atomic"
)

// A link registers one waiting call with one pending task. When the task
// completes it sends the link's position on ch without blocking, and drops
// the link. One channel can serve many links: WhenEach registers
// one link per task, all sharing a channel; a call that waits for tasks one
// after another (AwaitN, All) reuses a single link.
//
// Links replace a channel per task: a call over N pending tasks makes O(1)
// allocations for waiting, not O(N), and no goroutine, whatever N is.
//
// The links of a task form a ring, doubly linked, in the order they were
// registered; core.links points at the first. So register appends, wake
// sends in registration order (WhenEach yields copies of one task in
// order), and unregister takes a
// link out in O(1) however many links the task has: a call over N tasks
// does O(N) work even when tasks repeats one task N times.
//
// Rejected designs: a singly linked list, which unregister had to walk to
// find the link, O(N^2) for N copies of one task or N calls waiting for it
// (issue 8); the same list with a pointer to the previous next field, O(1)
// too but without a tail, so wake would go from the last registered to the
// first; marking links dead and leaving them for wake to skip, which lets
// the dead links of every call that gave up pile up on a task that never
// completes; and a map from task to links in the call, which allocates.
type link struct {
	ch chan int // buffered; see the callers for the capacity
	i  int      // the position the task has in the call

	// next and prev are the neighbours in the ring while the link is
	// registered (itself when it is alone), nil while it is not. Guarded
	// by the mu of the task the link is registered with, or was last: a
	// sequence registers its link with another task only after the
	// receive from ch or the unregister that ended the last registration.
	next, prev *link
}

// register appends l to c's links, unless c has completed; it reports
// whether it did. l must not be registered with any task.
func (c *core) register(l *link) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state.markWaited() != pending { // see Task.succeed
		return false
	}
	first := c.links
	if first == nil {
		l.next, l.prev = l, l
		c.links = l
		return true
	}
	last := first.prev
	l.next, l.prev = first, last
	last.next = l
	first.prev = l
	return true
}

// unregister removes l from c's links and reports whether it was there. If
// it was not, c has completed and its send on l.ch has happened (or found
// l.ch full). l must be registered with c or with no task.
func (c *core) unregister(l *link) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if h := testHookUnregister.Load(); h != nil {
		(*h)(c, 1) // no walk: l is the only link looked at
	}
	if l.next == nil {
		return false
	}
	if l.next == l {
		c.links = nil
	} else {
		l.prev.next = l.next
		l.next.prev = l.prev
		if c.links == l {
			c.links = l.next
		}
	}
	l.next, l.prev = nil, nil
	return true
}

// testHookUnregister, if set, is called by unregister with the task and the
// number of links it looked at: a test checks that the unregistering of a
// call is linear in its number of tasks by counting, not timing. A version of
// unregister that walks the links must report every step.
var testHookUnregister atomic.Pointer[func(c *core, steps int)]

// wake sends on every link, in registration order, and drops them all; the
// caller holds c.mu.
func (c *core) wake() {
	first := c.links
	if first == nil {
		return
	}
	c.links = nil
	first.prev.next = nil // the ring becomes a list, first to last
	for l := first; l != nil; {
		next := l.next
		// Unregistered before the send, so that the receiver of the
		// position can register the link again (a sequence does).
		l.next, l.prev = nil, nil
		select {
		case l.ch <- l.i:
		default: // the channel has a signal already; one is enough
		}
		l = next
	}
}

// A sequence waits for tasks one after another. Waiting for every task of a
// call, it takes them last first: tasks started one after another by Go
// tend to complete in that order, so the wait for the last usually blocks
// once and finds the others complete, where first-to-last order would
// block, and be woken, once for each. Its link is made the first time a
// task is pending, and is reused.
type sequence struct {
	l *link
}

// wait is core.block for a call over several tasks.
func (s *sequence) wait(ctx context.Context, c *core) error {
	if c.state.Load() != pending {
		return nil
	}
	c.startQueued()
	// Tasks just started by Go, or readied by the one that woke us, are
	// usually waiting in a run queue: yielding once lets them run before
	// we block, which is cheaper than blocking and being woken by the task
	// that completes; when nothing else is runnable, the yield returns at
	// once.
	runtime.Gosched()
	if c.state.Load() != pending {
		return nil
	}
	d := ctx.Done()
	if d == nil && !c.made {
		panic(errZeroTask)
	}
	if s.l == nil {
		s.l = &link{ch: make(chan int, 1)}
	}
	if !c.register(s.l) {
		return nil
	}
	if d == nil {
		<-s.l.ch
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
