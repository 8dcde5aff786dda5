// Package taskdump keeps a registry of the calls of package task that are
// running, with their functions, and writes it as a tree: a thread dump of
// structured fan-outs, for a debug endpoint or a signal handler.
//
//	task.Run3                                  running 2.001s
//	  f1                                       running 2.001s
//	    task.Scope                             running 1.5s
//	      children[0]                          running 1.5s
//	  recs (f2)                                running 2.001s
//
// A call with a grace period (task.Grace) that has stopped taking new work
// says so after its running time: how many of its functions still run,
// how much work it leaves not started (inputs of Map, children of a Scope
// waiting for a slot; not said by MapSeq, which cannot tell), and the
// grace period left, once it has started (a Scope stopped by Group.Stop
// has its grace period start when its caller's ctx is done):
//
//	task.Map                                   running 1.8s; stopping, 2 running, 12 not started, 4.2s of grace left
//	  inputs[0]                                running 1.8s
//	  inputs[1]                                running 1.8s
//
// Once the grace period has ended, its functions still running were
// canceled, and those that have not returned yet are listed:
//
//	task.Map                                   running 7s; cut, 1 running
//	  inputs[0]                                running 7s
//
// Call [Enable] once, early in main. The registry costs a lock per call
// and per function while enabled; programs that do not enable it pay
// nothing for it.
package taskdump

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tasktuple/task/internal/probe"
)

var once sync.Once

// Enable starts recording the calls that start from now on.
func Enable() {
	once.Do(func() { probe.Install(registry{}) })
}

// Write writes the calls running now, as a tree: each call with its
// functions, each function with the calls it runs, and how long each has
// been running.
func Write(w io.Writer) error {
	mu.Lock()
	defer mu.Unlock()
	var b strings.Builder
	now := time.Now()
	var walk func(ns map[*node]bool, depth int)
	walk = func(ns map[*node]bool, depth int) {
		sorted := make([]*node, 0, len(ns))
		for n := range ns {
			sorted = append(sorted, n)
		}
		slices.SortFunc(sorted, func(a, b *node) int {
			if c := a.start.Compare(b.start); c != 0 {
				return c
			}
			return strings.Compare(a.name, b.name)
		})
		for _, n := range sorted {
			label := strings.Repeat("  ", depth) + n.name
			state := "running"
			if n.queued {
				state = "waiting"
			}
			fmt.Fprintf(&b, "%-42s %s %v", label, state, now.Sub(n.start))
			if n.stop != nil {
				b.WriteString("; ")
				n.stop.write(&b, n, now)
			}
			b.WriteByte('\n')
			walk(n.children, depth+1)
		}
	}
	walk(roots, 0)
	_, err := io.WriteString(w, b.String())
	return err
}

var (
	mu    sync.Mutex
	roots = map[*node]bool{} // guarded by mu, as every node's children
)

// A node is a running call or function.
type node struct {
	name     string
	start    time.Time
	parent   *node // nil for a call at the top
	children map[*node]bool
	queued   bool       // a child of a Scope waiting for a slot
	call     bool       // a call, not a function
	stop     *stopState // a call that stopped taking new work (Grace)
}

// A stopState is the stop of a call with a grace period.
type stopState struct {
	notStarted int       // the work not started at the stop; -1: the call could not tell
	graceEnd   time.Time // when the grace period ends; zero until it starts
	cut        bool      // the grace period ended: the functions still running were canceled
}

// write writes the state of n, a call that stopped: "stopping, 3 running,
// 12 not started, 4.2s of grace left", or once the grace period has ended
// "cut, 1 running". The functions running are those of n still registered,
// waiting children of a Scope left out.
func (s *stopState) write(b *strings.Builder, n *node, now time.Time) {
	running := 0
	for c := range n.children {
		if !c.queued {
			running++
		}
	}
	if s.cut {
		fmt.Fprintf(b, "cut, %d running", running)
		return
	}
	fmt.Fprintf(b, "stopping, %d running", running)
	if s.notStarted >= 0 {
		fmt.Fprintf(b, ", %d not started", s.notStarted)
	}
	if !s.graceEnd.IsZero() {
		fmt.Fprintf(b, ", %v of grace left", max(s.graceEnd.Sub(now), 0))
	}
}

type key struct{}

func add(ctx context.Context, name string) (context.Context, *node) {
	n := &node{name: name, start: time.Now(), children: map[*node]bool{}}
	n.parent, _ = ctx.Value(key{}).(*node)
	mu.Lock()
	if n.parent != nil {
		n.parent.children[n] = true
	} else {
		roots[n] = true
	}
	mu.Unlock()
	return context.WithValue(ctx, key{}, n), n
}

func remove(n *node) {
	mu.Lock()
	if n.parent != nil {
		delete(n.parent.children, n)
	} else {
		delete(roots, n)
	}
	mu.Unlock()
}

type registry struct{}

func (registry) Call(ctx context.Context, call string) (context.Context, func(error)) {
	ctx, n := add(ctx, "task."+call)
	n.call = true // before another goroutine can see n, as it is written without mu
	return ctx, func(error) { remove(n) }
}

func (registry) Func(ctx context.Context, call, arg string) (context.Context, func(probe.Outcome)) {
	ctx, n := add(ctx, arg)
	return ctx, func(probe.Outcome) { remove(n) }
}

// Queued records a child of a Scope that waits for a slot.
func (registry) Queued(ctx context.Context, call, arg string) func() {
	_, n := add(ctx, arg)
	mu.Lock()
	n.queued = true
	mu.Unlock()
	return func() { remove(n) }
}

func (registry) Named(ctx context.Context, name string) (context.Context, func()) {
	if n, ok := ctx.Value(key{}).(*node); ok {
		mu.Lock()
		n.name = name + " (" + n.name + ")"
		mu.Unlock()
	}
	return ctx, func() {}
}

// callNode is the node of the call whose context, as Call returned it, is ctx.
func callNode(ctx context.Context) *node {
	if n, ok := ctx.Value(key{}).(*node); ok && n.call {
		return n
	}
	return nil
}

// Stop records that a call with a grace period stopped taking new work.
func (registry) Stop(ctx context.Context, call string, notStarted int, grace time.Duration) {
	n := callNode(ctx)
	if n == nil {
		return
	}
	s := &stopState{notStarted: notStarted}
	if grace > 0 {
		s.graceEnd = time.Now().Add(grace)
	}
	mu.Lock()
	n.stop = s
	mu.Unlock()
}

// GraceStart records the start of the grace period of a call that
// Group.Stop stopped.
func (registry) GraceStart(ctx context.Context, call string, grace time.Duration) {
	if n := callNode(ctx); n != nil {
		end := time.Now().Add(grace)
		mu.Lock()
		if n.stop != nil {
			n.stop.graceEnd = end
		}
		mu.Unlock()
	}
}

// GraceEnd records the end of the grace period of a call.
func (registry) GraceEnd(ctx context.Context, call string) {
	if n := callNode(ctx); n != nil {
		mu.Lock()
		if n.stop != nil {
			n.stop.cut = true
		}
		mu.Unlock()
	}
}
