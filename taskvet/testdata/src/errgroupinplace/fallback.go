package errgroupinplace

import (
	"context"

	"golang.org/x/sync/errgroup"
)

func run() error { return nil }

// ko's apply: a fixed fan-out whose error is returned, with a child that
// ignores the derived context: the group in place would not start it after
// a failure; RunN calls both, as errgroup, with errgroup's error.
func fallbackRunN(ctx context.Context) error {
	g, ctx := errgroup.WithContext(ctx) // want `task.Run2`
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
