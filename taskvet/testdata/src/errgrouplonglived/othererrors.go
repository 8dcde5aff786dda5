package errgrouplonglived

import (
	"context"

	"example.com/errors"
	"golang.org/x/sync/errgroup"
)

var errStopped = errors.New("stopped")

// A file that imports another errors package as errors: the hook imports
// the standard one as stderrors.
type replayer struct {
	g *errgroup.Group
}

func (r *replayer) run(ctx context.Context) {
	r.g, ctx = errgroup.WithContext(ctx) // want `Go and Wait are in different functions \(run; wait\): a child's panic still crashes the program at once`
	r.g.Go(func() error { return ctx.Err() })
}

func (r *replayer) wait() error {
	if err := r.g.Wait(); err != nil {
		return err
	}
	return errStopped
}
