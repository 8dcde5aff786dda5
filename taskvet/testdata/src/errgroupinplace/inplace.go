package errgroupinplace

import (
	"context"
	"errors"
	"iter"
	"runtime"

	"golang.org/x/sync/errgroup"
)

type Item struct{ ID int }

func process(ctx context.Context, it Item) error { return nil }
func work() error                                { return nil }

var rateExceededErr = errors.New("rate limit exceeded")

func insert(ctx context.Context, id int) error { return rateExceededErr }
func attach(ctx context.Context, id int) error { return nil }

// x/build's internal/cloud: the wait's error is returned, and the callers
// compare it with ==: not Do, whose error is a *task.CallError, but the
// group in place, whose error is errgroup's (FirstError).
func createInstance(ctx context.Context, id int) error {
	g, ctx := errgroup.WithContext(ctx) // want `this errgroup group \(g\) is a task.Group in place: rewrite it to get panics raised in Wait; the error is errgroup's \(FirstError\); a failure cancels the context`
	g.Go(func() error {
		return insert(ctx, id)
	})
	g.Go(func() error {
		return attach(ctx, id)
	})
	return g.Wait()
}

// The same, the error stored: it leaves the function too.
type result struct{ err error }

func stored(ctx context.Context, r *result, id int) {
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place`
	g.Go(func() error { return insert(ctx, id) })
	g.Go(func() error { return attach(ctx, id) })
	if err := g.Wait(); err != nil {
		r.err = err
	}
}

// Only compared with nil: Do.
func checked(ctx context.Context, id int) bool {
	g, ctx := errgroup.WithContext(ctx) // want `task.Do`
	g.Go(func() error { return insert(ctx, id) })
	g.Go(func() error { return attach(ctx, id) })
	if err := g.Wait(); err != nil {
		return false
	}
	return true
}

// A zero Group variable: task's zero Group is errgroup's.
func zeroVar(items []Item) error {
	var g errgroup.Group // want `task.Group in place`
	for _, it := range items {
		g.Go(func() error { return process(context.Background(), it) })
	}
	var n int
	g.Go(work)
	err := g.Wait()
	n++
	return err
}

// A group passed to a function of the package, which gives it children:
// the parameter becomes a *task.Group too.
func passed(ctx context.Context, items []Item) error {
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place`
	for _, it := range items {
		spawn(ctx, g, it)
	}
	return g.Wait()
}

func spawn(ctx context.Context, g *errgroup.Group, it Item) {
	g.Go(func() error { return process(ctx, it) })
}

// The wait runs in a goroutine of its own (a pipeline).
func waitInGoroutine(ctx context.Context, items []Item) <-chan error {
	errc := make(chan error, 1)
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place`
	for _, it := range items {
		g.Go(func() error { return process(ctx, it) })
	}
	go func() { errc <- g.Wait() }()
	return errc
}

// SetLimit with a loop over a slice: errgroup's Go blocked the loop at the
// limit, however long the slice; task.BlockAtLimit keeps that.
func boundedLimit(ctx context.Context, items []Item, n int) error {
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place.*at the limit Go blocks the caller, as errgroup's does \(BlockAtLimit\)`
	g.SetLimit(n)
	for _, it := range items {
		if it.ID < 0 {
			continue
		}
		g.Go(func() error { return process(ctx, it) })
	}
	return g.Wait()
}

// SetLimit with a loop over a channel: errgroup's Go blocked the loop at
// the limit; task.BlockAtLimit keeps that.
func unboundedLimit(ctx context.Context, items <-chan Item) error {
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place.*at the limit Go blocks the caller, as errgroup's does \(BlockAtLimit\)`
	g.SetLimit(8)
	for it := range items {
		g.Go(func() error { return process(ctx, it) })
	}
	return g.Wait()
}

// The same with a zero Group and an iterator: made by NewGroup, which
// takes the option.
func unboundedZero(seq iter.Seq[Item]) error {
	var g errgroup.Group // want `task.Group in place.*BlockAtLimit`
	g.SetLimit(-1 + 5)
	for it := range seq {
		g.Go(func() error { return process(context.Background(), it) })
	}
	return g.Wait()
}

// A negative constant limit is no limit in both: it stays.
func noLimit(ctx context.Context, items []Item) error {
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place: .*; a failure cancels the context and no child starts after it, nor after the caller.s ctx ends \(errgroup ran the rest with a canceled context\)$`
	g.SetLimit(-1)
	for _, it := range items {
		if it.ID < 0 {
			continue
		}
		g.Go(func() error { return process(ctx, it) })
	}
	return g.Wait()
}

// A component that owns its group in a field, made and waited for in one
// function.
type batch struct {
	g     *errgroup.Group
	items []Item
}

func (b *batch) run(ctx context.Context) error {
	b.g, ctx = errgroup.WithContext(ctx) // want `task.Group in place`
	for _, it := range b.items {
		b.g.Go(func() error { return process(ctx, it) })
	}
	return b.g.Wait()
}

// A zero Group field whose Go and Wait are in different methods: no fix,
// a diagnostic.
type pool struct {
	g errgroup.Group // want `errgroup group in a field \(g\) not migrated: given children in add, which does not make the group first, and made where taskvet does not see it; make the group where taskvet sees it`
}

func (p *pool) add(it Item) { p.g.Go(func() error { return process(context.Background(), it) }) }
func (p *pool) wait() error { return p.g.Wait() }

// Near misses: no fix, and a diagnostic that says why.

// A Go after the last Wait: errgroup and task run it unwaited.
func goAfterWait(ctx context.Context, items []Item) error {
	var g errgroup.Group // want `errgroup group \(g\) not migrated: given a child after its Wait \(inplace.go:176\) that no later Wait waits for; make a new group for each round of Go calls`
	g.Go(work)
	err := g.Wait()
	for _, it := range items {
		g.Go(func() error { return process(ctx, it) })
	}
	return err
}

// Waited for in a loop that gives it children again: rounds of a zero
// Group, in task as in errgroup.
func loopWait(items [][]Item) error {
	var g errgroup.Group // want `task.Group in place: .*a Go after the Wait begins a new round`
	for _, batch := range items {
		for _, it := range batch {
			g.Go(func() error { return process(context.Background(), it) })
		}
		if err := g.Wait(); err != nil {
			return err
		}
	}
	return nil
}

// Passed to a function of another package.
func passedAway(ctx context.Context) error {
	g, ctx := errgroup.WithContext(ctx) // want `errgroup group \(g\) not migrated: the group is passed to consume \(inplace.go:202\); keep the group in this package's local variables`
	g.Go(func() error { return process(ctx, Item{}) })
	consume(g)
	return g.Wait()
}

var consume = func(g *errgroup.Group) {}

// Children that ignore the derived context, which the loop reads: with
// KeepGoing it would not be canceled at the first failure; StartAll
// cancels it, and starts every child, as errgroup does.
func ctxRead(ctx context.Context, items []Item) error {
	g, gctx := errgroup.WithContext(ctx) // want `task.Group in place.*StartAll`
	for _, it := range items {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error { return work() })
		_ = it
	}
	return g.Wait()
}

// Children that ignore the derived context, which only the code after the
// Wait reads: KeepGoing, and Wait cancels the context, as errgroup's does.
func ctxAfterWait(ctx context.Context, items []Item) error {
	g, gctx := errgroup.WithContext(ctx) // want `task.Group in place.*every child runs, as with errgroup \(KeepGoing\)`
	for _, it := range items {
		g.Go(func() error { return work() })
		_ = it
	}
	if err := g.Wait(); err != nil {
		return err
	}
	return gctx.Err()
}

// A worker loop whose wait is followed by a return: no Go can follow it,
// though it comes first in the source.
func worker(ctx context.Context, pending <-chan Item) error {
	eg, ctx := errgroup.WithContext(ctx) // want `task.Group in place`
	for {
		select {
		case <-ctx.Done():
			if err := eg.Wait(); err != nil {
				return err
			}
			return ctx.Err()
		case it := <-pending:
			eg.Go(func() error { return process(ctx, it) })
		}
	}
}

// The same wait followed by a continue: the loop gives the group children
// after it.
func workerAgain(ctx context.Context, pending <-chan Item) error {
	eg, ctx := errgroup.WithContext(ctx) // want `errgroup group \(eg\) not migrated: given a child after its Wait`
	for {
		select {
		case <-ctx.Done():
			if err := eg.Wait(); err != nil {
				continue
			}
			return ctx.Err()
		case it := <-pending:
			eg.Go(func() error { return process(ctx, it) })
		}
	}
}

// A child that reads the derived context's Done first: a read, not a
// signal (a WaitGroup's Done is one).
func readsDone(ctx context.Context, items []Item) error {
	g, ctx := errgroup.WithContext(ctx) // want `task.ForEach`
	for _, it := range items {
		g.Go(func() error {
			select {
			case <-ctx.Done():
				return nil
			default:
			}
			return process(ctx, it)
		})
	}
	return g.Wait()
}

// max of a positive constant and anything is a positive limit: set as it
// is.
func maxLimit(items []Item) error {
	var g errgroup.Group // want `task.Group in place`
	g.SetLimit(max(2, runtime.GOMAXPROCS(0)/2))
	for _, it := range items {
		g.Go(func() error { return process(context.Background(), it) })
	}
	return g.Wait()
}

// A zero Group made by a literal, limited over a channel: made by
// NewGroup.
func unboundedLiteral(items <-chan Item) error {
	g := &errgroup.Group{} // want `task.Group in place.*BlockAtLimit`
	g.SetLimit(4)
	for it := range items {
		g.Go(func() error { return process(context.Background(), it) })
	}
	return g.Wait()
}

// A backfill over a range of log indexes: errgroup's Go blocks the loop at
// the limit, so at most 8 closures are held; task.BlockAtLimit keeps that.
func backfill(ctx context.Context, start, end int) error {
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place.*at the limit Go blocks the caller, as errgroup's does \(BlockAtLimit\)`
	g.SetLimit(8)
	for i := start; i <= end; i++ {
		g.Go(func() error { return process(ctx, Item{ID: i}) })
	}
	return g.Wait()
}

// A constant number of Go calls, fewer than the limit can matter for:
// they queue.
func fewConstant(ctx context.Context) error {
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place.*at the limit Go queues the child rather than blocking the caller: there are at most 3 Go calls`
	g.SetLimit(2)
	for i := range 3 {
		g.Go(func() error { return process(ctx, Item{ID: i}) })
	}
	return g.Wait()
}

// A zero Group made by a value literal (vitess's backup engine), limited
// in a loop: made by NewGroup, which blocks at the limit.
func valueLiteral(items []Item, n int) error {
	g := errgroup.Group{} // want `task.Group in place.*BlockAtLimit`
	g.SetLimit(n)
	for _, it := range items {
		g.Go(func() error { return process(context.Background(), it) })
	}
	return g.Wait()
}
