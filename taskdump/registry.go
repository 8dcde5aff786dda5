package taskdump

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/tasktuple/task/internal/probe"
)

// The registry: a tree of nodes, one per call or function running now,
// kept by the probe that Enable installs. Every node is guarded by mu.

var (
	mu     sync.Mutex
	root   node  // its children are the calls at the top
	lastID int64 // the id of the last node added; guarded by mu
)

// A node is a running call or function. Its children are kept in the
// order they were added, in a list, so that adding and removing one costs
// the same whatever their number, and a snapshot can list the first ones
// without looking at the others.
type node struct {
	id     int64 // unique in the process, for the page to keep a node open
	name   string
	start  time.Time
	parent *node      // the root for a call at the top
	call   *callState // nil for a function; set before the node is shared
	queued bool       // a child of a Scope waiting for a slot

	first, last *node // the children
	prev, next  *node // the siblings
	nChildren   int   // the children registered now
	nQueued     int   // of them, those waiting for a slot
}

// A callState is what a call's node has that a function's has not. It is
// allocated with the node (see callNode), so that a function's node is
// small and a call's costs one allocation too.
type callState struct {
	limit     int // at most limit functions run at once; 0: no limit, or not told
	inputs    int // the inputs of Map and ForEach; -1: the call cannot tell
	started   int // the functions started
	succeeded int // the functions that ended, by how
	failed    int
	canceled  int
	failures  []failure  // the first maxFailures failures
	stop      *stopState // a call that stopped taking new work (Grace)
}

// A callNode is the node of a call and its state, in one allocation.
type callNode struct {
	node
	state callState
}

// A stopState is the stop of a call with a grace period.
type stopState struct {
	notStarted int       // the work not started at the stop; -1: the call could not tell
	graceEnd   time.Time // when the grace period ends; zero until it starts
	cut        bool      // the grace period ended: the functions still running were canceled
}

// A failure is a function that failed, as the snapshot lists it.
type failure struct {
	Name  string `json:"name"`
	Error string `json:"error"`
}

const (
	// maxFailures is how many failures a call keeps the text of; it
	// counts them all.
	maxFailures = 10
	// maxErrorLen is the most bytes of an error's text kept, cut at the
	// start of a character and followed by "…".
	maxErrorLen = 500
)

type key struct{}

// add registers a node named name under the node in ctx (the root if
// none), and returns ctx with it.
func add(ctx context.Context, name string, call, queued bool) (context.Context, *node) {
	var n *node
	if call {
		cn := &callNode{state: callState{inputs: -1}}
		n = &cn.node
		n.call = &cn.state
	} else {
		n = &node{}
	}
	n.name, n.start, n.queued = name, time.Now(), queued
	parent, _ := ctx.Value(key{}).(*node)
	if parent == nil {
		parent = &root
	}
	n.parent = parent
	mu.Lock()
	lastID++
	n.id = lastID
	n.prev = parent.last
	if parent.last != nil {
		parent.last.next = n
	} else {
		parent.first = n
	}
	parent.last = n
	parent.nChildren++
	if queued {
		parent.nQueued++
	} else if !call && parent.call != nil {
		parent.call.started++
	}
	mu.Unlock()
	return context.WithValue(ctx, key{}, n), n
}

// remove takes n out of the registry; the caller holds mu.
func (n *node) remove() {
	p := n.parent
	if n.prev != nil {
		n.prev.next = n.next
	} else {
		p.first = n.next
	}
	if n.next != nil {
		n.next.prev = n.prev
	} else {
		p.last = n.prev
	}
	n.prev, n.next = nil, nil
	p.nChildren--
	if n.queued {
		p.nQueued--
	}
}

// ended records how function n ended, in its call, and removes it. ctx is
// the function's context.
func (n *node) ended(ctx context.Context, o probe.Outcome) {
	var msg string
	failed := true
	switch {
	case o.Panicked:
		msg = "panic: " + fmt.Sprint(o.Value)
	case o.Goexit:
		msg = "runtime.Goexit called"
	case o.Err == nil:
		failed = false
	case ctx.Err() != nil && (errors.Is(o.Err, context.Canceled) || errors.Is(o.Err, context.DeadlineExceeded)):
		failed = false
	default:
		msg = o.Err.Error()
	}
	if len(msg) > maxErrorLen {
		i := maxErrorLen
		for !utf8.RuneStart(msg[i]) {
			i--
		}
		msg = msg[:i] + "…"
	}
	mu.Lock()
	defer mu.Unlock()
	n.remove()
	c := n.parent.call
	if c == nil {
		return // a function of a call that started before Enable
	}
	switch {
	case failed:
		c.failed++
		if len(c.failures) < maxFailures {
			c.failures = append(c.failures, failure{Name: n.name, Error: msg})
		}
	case o.Err != nil:
		c.canceled++
	default:
		c.succeeded++
	}
}

// registry is the probe that Enable installs.
type registry struct{}

func (registry) Call(ctx context.Context, call string) (context.Context, func(error)) {
	ctx, n := add(ctx, "task."+call, true, false)
	return ctx, func(error) { mu.Lock(); n.remove(); mu.Unlock() }
}

func (registry) Func(ctx context.Context, call, arg string) (context.Context, func(probe.Outcome)) {
	ctx, n := add(ctx, arg, false, false)
	return ctx, func(o probe.Outcome) { n.ended(ctx, o) }
}

// Queued records a child of a Scope that waits for a slot.
func (registry) Queued(ctx context.Context, call, arg string) func() {
	_, n := add(ctx, arg, false, true)
	return func() { mu.Lock(); n.remove(); mu.Unlock() }
}

func (registry) Named(ctx context.Context, name string) (context.Context, func()) {
	if n, ok := ctx.Value(key{}).(*node); ok {
		mu.Lock()
		n.name = name + " (" + n.name + ")"
		mu.Unlock()
	}
	return ctx, func() {}
}

// callOf is the state of the call whose context, as Call returned it, is
// ctx; nil if ctx is not a call's.
func callOf(ctx context.Context) *callState {
	if n, ok := ctx.Value(key{}).(*node); ok {
		return n.call
	}
	return nil
}

// Limit records the limit of a call, and its number of inputs.
func (registry) Limit(ctx context.Context, call string, limit, inputs int) {
	if c := callOf(ctx); c != nil {
		mu.Lock()
		c.limit, c.inputs = limit, inputs
		mu.Unlock()
	}
}

// Stop records that a call with a grace period stopped taking new work.
func (registry) Stop(ctx context.Context, call string, notStarted int, grace time.Duration) {
	c := callOf(ctx)
	if c == nil {
		return
	}
	s := &stopState{notStarted: notStarted}
	if grace > 0 {
		s.graceEnd = time.Now().Add(grace)
	}
	mu.Lock()
	c.stop = s
	mu.Unlock()
}

// GraceStart records the start of the grace period of a call that
// Group.Stop stopped.
func (registry) GraceStart(ctx context.Context, call string, grace time.Duration) {
	if c := callOf(ctx); c != nil {
		end := time.Now().Add(grace)
		mu.Lock()
		if c.stop != nil {
			c.stop.graceEnd = end
		}
		mu.Unlock()
	}
}

// GraceEnd records the end of the grace period of a call.
func (registry) GraceEnd(ctx context.Context, call string) {
	if c := callOf(ctx); c != nil {
		mu.Lock()
		if c.stop != nil {
			c.stop.cut = true
		}
		mu.Unlock()
	}
}
