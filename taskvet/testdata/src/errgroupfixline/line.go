// Code generated from gen.tmpl; a //line directive maps what follows to
// the template's lines.

package errgroupfixline

import (
	"context"

	"golang.org/x/sync/errgroup"
)

func compute() int                   { return 1 }
func name() string                   { return "" }
func ping(ctx context.Context) error { return nil }

//line gen.tmpl:500
func fromTemplate(ctx context.Context) (int, string, error) {
	var n int
	var s string
	g, ctx := errgroup.WithContext(ctx) // want `task.Run2`
	g.Go(func() error {
		n = compute()
		return nil
	})
	g.Go(func() error {
		s = name()
		return ping(ctx)
	})
	if err := g.Wait(); err != nil {
		return 0, "", err
	}
	return n, s, nil
}
