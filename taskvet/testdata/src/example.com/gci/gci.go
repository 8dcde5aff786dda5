package gci

// The module's .golangci.yml puts example.com/shared in a section of its
// own, after the third-party one: the task package goes in the latter.

import (
	"context"

	"golang.org/x/sync/errgroup"

	"example.com/shared/log"
)

func run(ctx context.Context, ids []int) error {
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place`
	for _, id := range ids {
		if id < 0 {
			log.Print(id)
			continue
		}
		g.Go(func() error { return ctx.Err() })
	}
	return g.Wait()
}
