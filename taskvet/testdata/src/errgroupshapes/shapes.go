// Package errgroupshapes holds the shapes measured on modules nobody on
// the team picked: a Go of a function that a call returns, two names in a
// var block, groups kept in fields and embedded in structs, whose Go and
// Wait are in different methods.
package errgroupshapes

import (
	"context"
	"sync/atomic"

	"golang.org/x/sync/errgroup"
)

type Item struct{ ID int }

func process(ctx context.Context, it Item) error { return nil }

// made counts the calls of fetcher: the factory runs at the Go, once per
// Go, by the goroutine that calls Go.
var made atomic.Int64

func fetcher(ctx context.Context, it Item) func() error {
	made.Add(1)
	return func() error { return process(ctx, it) }
}

// A factory: g.Go(f(args)). The call stays at the Go, in a variable of its
// own, so that it is evaluated there, as errgroup's Go got it.
func factory(ctx context.Context, items []Item) error {
	g, ctx := errgroup.WithContext(ctx) // want `this errgroup group \(g\) is a task.Group in place`
	for _, it := range items {
		// One child per item.
		g.Go(fetcher(ctx, it /* the item */))
	}
	return g.Wait()
}

// stamp reads *n when it is called: the child it returns stores that.
func stamp(n, out *int) func() error {
	v := *n
	return func() error { *out = v; return nil }
}

// evaluatedAtGo returns 1 with errgroup: stamp runs at the Go, before n
// changes. Evaluated in the child, it would read 2, and race.
func evaluatedAtGo() int {
	var g errgroup.Group // want `this errgroup group \(g\) is a task.Group in place`
	n, out := 1, 0
	g.Go(stamp(&n, &out))
	n = 2
	_ = g.Wait()
	return out
}

type handler struct{ prefix string }

func (h *handler) serve(ctx context.Context, it Item) func() error {
	return func() error { return process(ctx, it) }
}

// A method that makes the child, twice in one block: two names.
func methodFactory(ctx context.Context, h *handler, a, b Item) error {
	var g errgroup.Group // want `this errgroup group \(g\) is a task.Group in place`
	g.Go(h.serve(ctx, a))
	g.Go(h.serve(ctx, b))
	return g.Wait()
}

// Two names in a var block.
func varBlock(ctx context.Context, items []Item) (int, error) {
	var (
		g, gctx = errgroup.WithContext(ctx) // want `this errgroup group \(g\) is a task.Group in place`
		n       int
	)
	for _, it := range items {
		n++
		g.Go(func() error { return process(gctx, it) })
	}
	return n, g.Wait()
}

// A group in a field, Go in start and Wait in stop: start makes the group
// before any Go, so no Go can follow a Wait of the same group.
type server struct {
	g   *errgroup.Group
	ctx context.Context
}

func (s *server) start(ctx context.Context, items []Item) {
	s.g, s.ctx = errgroup.WithContext(ctx) // want `this errgroup group \(g\) is a task.Group in place: .*StartAll.*; Go and Wait are in different functions \(start; stop\): a child's panic still crashes the program at once`
	for _, it := range items {
		s.g.Go(func() error {
			// The loop of one item.
			return process(s.ctx, it)
		})
	}
}

func (s *server) stop() error { return s.g.Wait() }

// A restartable service: the group is made once, with the struct, and
// serve may give it children after shutdown has waited: a new round of the
// zero Group, in task as in errgroup.
type restartable struct {
	g *errgroup.Group
}

func newRestartable() *restartable { return &restartable{g: new(errgroup.Group)} } // want `task.Group in place: .*Go and Wait are in different functions \(serve; shutdown\).*a Go after the Wait begins a new round`

func (r *restartable) serve(it Item) {
	r.g.Go(func() error { return process(context.Background(), it) })
}

func (r *restartable) shutdown() error { return r.g.Wait() }

// A network engine's event loops: the group embedded with its context in
// an anonymous struct, Go in start, Wait in stop.
type engine struct {
	loops struct {
		*errgroup.Group
		ctx context.Context
	}
	reads, writes atomic.Int64
}

func (e *engine) read(ctx context.Context) error  { e.reads.Add(1); return nil }
func (e *engine) write(ctx context.Context) error { e.writes.Add(1); return nil }

func (e *engine) start(ctx context.Context) {
	g, gctx := errgroup.WithContext(ctx) // want `this errgroup group \(g, Group\) is a task.Group in place: .*StartAll.*a child's panic still crashes the program at once`
	e.loops = struct {
		*errgroup.Group
		ctx context.Context
	}{g, gctx}
	e.loops.Go(func() error { return e.read(e.loops.ctx) })
	e.loops.Go(func() error {
		// The write loop.
		return e.write(e.loops.ctx)
	})
}

func (e *engine) stop() error { return e.loops.Wait() }

// An embedded group in a named struct, made by a keyed literal.
type worker struct {
	*errgroup.Group
	ctx context.Context
}

func runWorker(ctx context.Context, items []Item) error {
	g, gctx := errgroup.WithContext(ctx) // want `this errgroup group \(g, Group\) is a task.Group in place`
	w := &worker{Group: g, ctx: gctx}
	for _, it := range items {
		w.Go(func() error { return process(w.ctx, it) })
	}
	return w.Wait()
}

// Pool is exported: other packages can call its Go with a func() error.
type Pool struct {
	*errgroup.Group // want `errgroup group in a field \(Group\) not migrated: the group is embedded in Pool, which other packages can use`
}

func (p *Pool) Add(it Item) { p.Go(func() error { return process(context.Background(), it) }) }

// A TryGo of a factory in a condition: the call cannot move before it.
func tryFactory(ctx context.Context, it Item) error {
	g, ctx := errgroup.WithContext(ctx) // want `errgroup group \(g\) not migrated: a Go of fetcher\(ctx, it\) that is not a statement of its own, where the fix would evaluate the call first; assign the function to a variable declared once before the Go`
	if !g.TryGo(fetcher(ctx, it)) {
		return nil
	}
	return g.Wait()
}

func newGroup() *errgroup.Group { return new(errgroup.Group) }

// A group from a call of the package: reported, not migrated.
func fromCall(items []Item) error {
	g := newGroup() // want `errgroup group \(g\) not migrated: the group is assigned from newGroup\(\)`
	for _, it := range items {
		g.Go(func() error { return process(context.Background(), it) })
	}
	return g.Wait()
}

// Spawn gives children to a group that other packages make.
func Spawn(g *errgroup.Group, it Item) { // want `errgroup group \(g\) not migrated: passed to Spawn, which other packages can call with their own errgroup`
	g.Go(func() error { return process(context.Background(), it) })
}

// A named func type made by a call; the group embedded by value and
// reached through its field's name.
type job func() error

func mkJob(ctx context.Context, it Item) job { return func() error { return process(ctx, it) } }

// A struct literal that leaves its errgroup.Group out makes a zero group:
// made, given children and waited for in one function.
type batch struct {
	errgroup.Group
	n int
}

func runBatch(ctx context.Context, items []Item) error {
	b := &batch{} // want `this errgroup group \(Group\) is a task.Group in place: .*the zero task.Group is errgroup's zero Group`
	for _, it := range items {
		b.n++
		b.Group.Go(mkJob(ctx, it))
	}
	return b.Wait()
}

// A conversion is not a call that makes the function: Go gets job(f)
// itself, which may be a variable.
func converted(ctx context.Context, f func() error) error {
	var g errgroup.Group // want `errgroup group \(g\) not migrated: a Go of job\(f\), which may change before the child runs`
	g.Go(job(f))
	return g.Wait()
}

// A child that spawns with a factory: the call moves inside the child.
func nested(ctx context.Context, items []Item) error {
	g, ctx := errgroup.WithContext(ctx) // want `this errgroup group \(g\) is a task.Group in place`
	g.Go(func() error {
		for _, it := range items {
			g.Go(mkJob(ctx, it))
		}
		return nil
	})
	return g.Wait()
}

// A parameter that no group of the package reaches.
func spawnAll(g *errgroup.Group, items []Item) { // want `errgroup group \(g\) not migrated: no statement of this package makes it \(a parameter, or a variable assigned from a call\); migrate the code that makes the group, then this one`
	for _, it := range items {
		g.Go(func() error { return process(context.Background(), it) })
	}
}

// Embedded next to another embedded field, whose methods could collide
// with task.Group's.
type mixed struct {
	*errgroup.Group // want `errgroup group in a field \(Group\) not migrated: the group is embedded next to another embedded field`
	context.Context
}

func runMixed(ctx context.Context) error {
	g, gctx := errgroup.WithContext(ctx) // want `made here is not migrated: see shapes.go:243`
	m := mixed{g, gctx}
	m.Go(func() error { return process(m, Item{}) })
	return m.Wait()
}

// Local variables named task and tasktuple hide the names the fix would
// give the package.
func shadowed(ctx context.Context, a, b Item) error {
	task, tasktuple := a.ID, b.ID
	g, ctx := errgroup.WithContext(ctx) // want `errgroup group \(g\) not migrated: the fix needs the task and context packages, and a name of the file denotes something else where it would use them`
	g.Go(func() error { return process(ctx, Item{ID: task}) })
	g.Go(func() error { return process(ctx, Item{ID: tasktuple}) })
	return g.Wait()
}

// A struct with a zero group, declared by var, or made by new, in the
// function that gives it children and waits: the same field as runBatch's,
// one diagnostic and one fix for both.
func runBatches(ctx context.Context, items []Item) error {
	var b batch
	for _, it := range items {
		b.Go(mkJob(ctx, it))
	}
	if err := b.Wait(); err != nil {
		return err
	}
	p := new(batch)
	for _, it := range items {
		p.Go(mkJob(ctx, it))
	}
	return p.Wait()
}

// Another struct made after the Wait does not make r's group again: r's
// Go after its Wait begins a round that no Wait waits for.
type round struct{ errgroup.Group } // want `errgroup group in a field \(Group\) not migrated: given a child after its Wait \(shapes.go:289\) that no later Wait waits for`

func reusedAfterOther(ctx context.Context, a, b Item) error {
	r := &round{} // want `made here is not migrated: see shapes.go:284`
	r.Go(mkJob(ctx, a))
	if err := r.Wait(); err != nil {
		return err
	}
	s := &round{} // want `made here is not migrated: see shapes.go:284`
	r.Go(mkJob(ctx, b))
	s.Go(mkJob(ctx, b))
	return s.Wait()
}

// A restartable service, limited: errgroup's Go blocks its caller at the
// limit, which needs task.BlockAtLimit, and so NewGroup, which a struct
// literal cannot call for a field that is not a pointer: no fix.
type throttled struct {
	g errgroup.Group // want `errgroup group in a field \(g\) not migrated: a zero Group that must block at its limit, in a form that NewGroup cannot replace`
}

func newThrottled() *throttled {
	t := &throttled{} // want `made here is not migrated: see shapes.go:`
	t.g.SetLimit(4)
	return t
}

func (t *throttled) serve(it Item) {
	t.g.Go(func() error { return process(context.Background(), it) })
}

func (t *throttled) shutdown() error { return t.g.Wait() }

// A restartable service, limited, whose Go is called by an exported
// method (a job completer): Go must block at the limit, so the zero Group
// is made by NewGroup with BlockAtLimit, which a Go after Wait uses again.
type completer struct {
	g *errgroup.Group
}

func newCompleter(n int) *completer {
	g := &errgroup.Group{} // want `this errgroup group \(g\) is a task.Group in place: .*BlockAtLimit.*; a Go after the Wait begins a new round, as errgroup's`
	g.SetLimit(n)
	return &completer{g: g}
}

func (c *completer) Complete(ctx context.Context, it Item) {
	c.g.Go(func() error { return process(ctx, it) })
}

func (c *completer) Stop() error { return c.g.Wait() }
