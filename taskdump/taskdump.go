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
			fmt.Fprintf(&b, "%-42s %s %v\n", label, state, now.Sub(n.start))
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
	queued   bool // a child of a Scope waiting for a slot
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
