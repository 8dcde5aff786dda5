package errgroupfixname

import (
	"context"

	"golang.org/x/sync/errgroup"
)

func run(ctx context.Context, name string) error { return nil }

// A parameter named task: the package is imported as tasktuple.
func runAll(ctx context.Context, task string, names []string) error {
	g, ctx := errgroup.WithContext(ctx) // want `task.ForEach`
	for _, n := range names {
		g.Go(func() error { return run(ctx, task+n) })
	}
	return g.Wait()
}
