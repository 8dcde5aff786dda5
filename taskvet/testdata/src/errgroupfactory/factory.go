package errgroupfactory

import (
	"context"

	"golang.org/x/sync/errgroup"
)

type client struct{}

type part struct{ n int }

// A method of the package that returns the worker: its result and the
// literal it returns take the context; the Go stays as it is.
func (c *client) download(ctx context.Context, workers int, parts []part) error {
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place`
	ch := make(chan part, len(parts))
	for n := 0; n < workers; n++ {
		g.Go(c.worker(ctx, ch))
	}
	for _, p := range parts {
		ch <- p
	}
	close(ch)
	return g.Wait()
}

func (c *client) worker(ctx context.Context, ch chan part) func() error {
	return func() error {
		for p := range ch {
			if err := ctx.Err(); err != nil {
				return err
			}
			_ = p
		}
		return nil
	}
}

// A factory that is also called elsewhere keeps its type: the call moves
// to a variable before the Go.
func run(ctx context.Context, ids []int) error {
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place`
	for _, id := range ids {
		g.Go(job(ctx, id))
	}
	return g.Wait()
}

func job(ctx context.Context, id int) func() error {
	return func() error { return ctx.Err() }
}

func direct(ctx context.Context) error { return job(ctx, 0)() }
