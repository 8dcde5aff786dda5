// Package errgroupallow's tests list the imports it may have: errgroup
// only. Its groups are left as
// they are, each with a diagnostic.
package errgroupallow

import (
	"context"

	"golang.org/x/sync/errgroup"
)

func process(ctx context.Context, n int) error { return nil }

func all(ctx context.Context, ns []int) error {
	g, ctx := errgroup.WithContext(ctx) // want `errgroup group \(g\) not migrated: a test of this package names golang.org/x/sync/errgroup in a string`
	for _, n := range ns {
		g.Go(func() error { return process(ctx, n) })
	}
	return g.Wait()
}
