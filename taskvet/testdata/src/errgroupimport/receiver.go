package errgroupimport

import (
	"context"
	"net"

	"golang.org/x/sync/errgroup"
)

// A receiver accepts connections in Start and waits for them in Shutdown.
type receiver struct {
	addr string
	ln   net.Listener
	g    errgroup.Group
}

func (r *receiver) Start(ctx context.Context) error {
	ln, err := net.Listen("tcp", r.addr)
	if err != nil {
		return err
	}
	r.ln = ln
	r.g.Go(func() error { return r.serve(ctx) })
	return nil
}

func (r *receiver) serve(ctx context.Context) error {
	for {
		c, err := r.ln.Accept()
		if err != nil {
			return nil
		}
		c.Close()
	}
}

func (r *receiver) Shutdown(context.Context) error {
	r.ln.Close()
	return r.g.Wait()
}
