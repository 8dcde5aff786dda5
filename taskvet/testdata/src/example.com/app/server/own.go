package server

// The module's own imports in a section of their own, after the
// third-party section: the task package goes in the third-party one.

import (
	"context"

	"golang.org/x/sync/errgroup"

	"example.com/app/config"
)

func run(ctx context.Context, ids []int) error {
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place`
	for _, id := range ids {
		if id < config.Workers {
			continue
		}
		g.Go(func() error { return ctx.Err() })
	}
	return g.Wait()
}
