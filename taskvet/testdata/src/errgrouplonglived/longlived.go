package errgrouplonglived

import (
	"context"
	"net"

	"golang.org/x/sync/errgroup"
)

// A server made in New, given its loops by Run and waited for in Close: a
// child's panic crashed the program at once with errgroup; the fix keeps
// that.
type server struct {
	g   *errgroup.Group
	ctx context.Context
	ln  net.Listener
}

func newServer(ctx context.Context, ln net.Listener) *server {
	g, gctx := errgroup.WithContext(ctx) // want `task.Group in place: .*Go and Wait are in different functions \(Run; Close\): a child's panic still crashes the program at once, as errgroup's did, by the context.AfterFunc that the fix adds`
	return &server{g: g, ctx: gctx, ln: ln}
}

func (s *server) Run() {
	s.g.Go(func() error { return s.accept(s.ctx) })
}

func (s *server) accept(ctx context.Context) error {
	for ctx.Err() == nil {
		c, err := s.ln.Accept()
		if err != nil {
			return err
		}
		c.Close()
	}
	return ctx.Err()
}

func (s *server) Close() error {
	s.ln.Close()
	return s.g.Wait()
}

// An accept loop whose Wait is after the loop, which only a break ends (as
// a walk of pages is): no hook, the message says that the panic waits.
func serve(ctx context.Context, ln net.Listener, handle func(net.Conn) error) error {
	g, _ := errgroup.WithContext(ctx) // want `task.Group in place: .*the Wait comes after the loop that gives the children \(line 48\), which runs until it is broken out of: a child's panic no longer crashes the program at once, as errgroup's did`
	for {
		c, err := ln.Accept()
		if err != nil {
			break
		}
		g.Go(func() error { return handle(c) })
	}
	return g.Wait()
}

// A zero Group in a field has no context to watch: the panic waits for
// the Wait, and the message says so.
type pool struct {
	g errgroup.Group
}

func (p *pool) start(work func() error) {
	p.g.Go(work)
}

func (p *pool) stop() error { return p.g.Wait() }

func newPool() *pool {
	return &pool{} // want `task.Group in place: .*Go and Wait are in different functions \(start; stop\): a child's panic no longer crashes the program at once, as errgroup's did: the group holds it, and the Wait raises it when it is called, if it ever is`
}

// A limited zero Group given children by one method and waited for by
// another (river's job completer): made by NewGroup to block at the
// limit, it gets a context for the hook.
type completer struct {
	g *errgroup.Group
}

func newCompleter(n int) *completer {
	g := &errgroup.Group{} // want `the zero Group is made by task.NewGroup\(context.Background\(\), task.FirstError, task.StartAll\).*a child's panic still crashes the program at once`
	g.SetLimit(n)
	return &completer{g: g}
}

func (c *completer) complete(work func() error) {
	c.g.Go(func() error { return work() })
}

func (c *completer) stop() error { return c.g.Wait() }

// A network receiver (an OpenTelemetry receiver's Manager): a zero Group
// made in Start, its Go there, its Wait in Shutdown.
type manager struct {
	serverGroup *errgroup.Group
}

func (m *manager) Start(serve func() error) {
	m.serverGroup = &errgroup.Group{} // want `the zero Group is made by task.NewGroup\(context.Background\(\), task.FirstError, task.StartAll\).*Go and Wait are in different functions \(Start; Shutdown\): a child's panic still crashes the program at once`
	m.serverGroup.Go(func() error { return serve() })
}

func (m *manager) Shutdown() error { return m.serverGroup.Wait() }

// A fetch made in open and waited for by the body it returns, when its
// reader closes it (containerd's fetcher): the Wait runs in a callback the
// function keeps, maybe long after open has returned, and the fix keeps
// the crash.
type body struct {
	BeforeClose func() error
}

func fetchPart(ctx context.Context, part int) error { return nil }

func open(ctx context.Context, parts int) *body {
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place: .*Go and Wait are in different functions \(open; a function literal at line \d+\): a child's panic still crashes the program at once`
	for i := range parts {
		g.Go(func() error { return fetchPart(ctx, i) })
	}
	return &body{BeforeClose: func() error { return g.Wait() }}
}
