package errgroupinplace

import (
	"context"

	"golang.org/x/sync/errgroup"
)

func run() error { return nil }

// ko's apply: a fixed fan-out whose error is returned (Do's error would
// differ), with a child that ignores the derived context, which fail-fast
// would not start after a failure: the group in place with StartAll, which
// starts both, as errgroup does, and returns errgroup's error.
func koApply(ctx context.Context) error {
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place: .*; a failure cancels the context and every child still starts, as with errgroup \(StartAll\)`
	g.Go(func() error {
		return process(ctx, Item{})
	})
	g.Go(func() error {
		if err := run(); err != nil {
			return err
		}
		return nil
	})
	return g.Wait()
}

// oras-go's syncutil.Go: the loop takes a slot of a semaphore for each
// item, and each child gives it back; the child is made by a closure
// factory. A child not started would keep its slot: StartAll starts every
// child, as errgroup does; the factory and the literal it returns take the
// context.
func factory(ctx context.Context, sem chan struct{}, items []Item) error {
	eg, egCtx := errgroup.WithContext(ctx) // want `task.Group in place.*StartAll`
	for _, item := range items {
		sem <- struct{}{}
		eg.Go(func(it Item) func() error {
			return func() error {
				defer func() { <-sem }()
				select {
				case <-egCtx.Done():
					return nil
				default:
				}
				return process(egCtx, it)
			}
		}(item))
	}
	return eg.Wait()
}

// A factory that returns a function made elsewhere: its call stays where
// it was, evaluated at the Go, in a variable of its own.
func factoryOther(ctx context.Context, items []Item) error {
	eg, egCtx := errgroup.WithContext(ctx) // want `task.Group in place.*StartAll`
	for _, item := range items {
		eg.Go(func(it Item) func() error {
			f := func() error { return process(egCtx, it) }
			return f
		}(item))
	}
	return eg.Wait()
}
