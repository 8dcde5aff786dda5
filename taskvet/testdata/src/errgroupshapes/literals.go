package errgroupshapes

import (
	"context"
	"runtime"

	"golang.org/x/sync/errgroup"
)

// A command's action: the group lives and ends in a function literal
// outside any function.
type command struct {
	action func(ctx context.Context, items []Item) error
}

var push = command{
	action: func(ctx context.Context, items []Item) error {
		eg, ctx := errgroup.WithContext(ctx) // want `this loop of eg.Go is task.ForEach`
		for _, it := range items {
			eg.Go(func() error { return process(ctx, it) })
		}
		return eg.Wait()
	},
}

// Made, given its children and waited for inside one goroutine.
func shutdownAll(ctx context.Context, items []Item, done chan<- error) {
	go func() {
		var g errgroup.Group // want `this errgroup group \(g\) is a task.Group in place`
		for _, it := range items {
			g.Go(func() error { return process(ctx, it) })
		}
		done <- g.Wait()
	}()
}

// A test helper's cleanup: two names in a var block, limited right after.
func cleanup(ctx context.Context, items []Item) func() error {
	return func() error {
		var (
			errGroup, ctx2 = errgroup.WithContext(ctx) // want `this errgroup group \(errGroup\) is a task.Group in place`
			n              = runtime.NumCPU()
		)
		errGroup.SetLimit(n)
		for _, it := range items {
			errGroup.Go(func() error { return process(ctx2, it) })
		}
		return errGroup.Wait()
	}
}

// A group made with its context and kept in a field, started again after
// its Wait: errgroup's next round, and task's, run with the canceled
// context.
type listener struct {
	g   *errgroup.Group
	ctx context.Context
}

func newListener(ctx context.Context) *listener {
	g, ctx := errgroup.WithContext(ctx) // want `this errgroup group \(g\) is a task.Group in place: .*StartAll.*; Go and Wait are in different functions \(start; stop\): .*; a Go after the Wait begins a new round, as errgroup's`
	return &listener{g: g, ctx: ctx}
}

func (l *listener) start(it Item) { l.g.Go(func() error { return process(l.ctx, it) }) }
func (l *listener) stop() error   { return l.g.Wait() }
