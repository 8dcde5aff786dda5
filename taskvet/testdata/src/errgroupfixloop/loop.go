package errgroupfixloop

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"
)

type Item struct{ ID int }

func process(ctx context.Context, it Item) error     { return nil }
func fetch(ctx context.Context, id int) (int, error) { return id, nil }
func remove(name string) error                       { return os.Remove(name) }

// Loops of g.Go over a slice: task.ForEach.

// The children pass the derived context on: fail-fast.
func forEach(ctx context.Context, items []Item) error {
	g, ctx := errgroup.WithContext(ctx) // want `this loop of g.Go is task.ForEach: rewrite it to get panics passed to the caller; the error is errgroup's \(FirstError\); a failure cancels the calls' context and no call starts after it \(errgroup called the rest with a canceled context\)`
	for _, it := range items {
		g.Go(func() error {
			return process(ctx, it)
		})
	}
	return g.Wait()
}

// A zero Group: KeepGoing, every call runs.
func zero(items []string) error {
	var g errgroup.Group // want `this loop of g.Go is task.ForEach: .*; every call runs, as with errgroup \(KeepGoing\)`
	for _, name := range items {
		name := name
		g.Go(func() error {
			if err := remove(name); err != nil {
				return fmt.Errorf("remove %s: %w", name, err)
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	return nil
}

// Limits: a constant, a call known to be positive; a variable, which may
// be 0 (errgroup's Go then blocks forever, ForEach panics), makes a group
// in place that keeps its SetLimit.
func limits(ctx context.Context, items []Item, n int) error {
	g, gctx := errgroup.WithContext(ctx) // want `task.ForEach`
	g.SetLimit(8)
	for _, it := range items {
		g.Go(func() error { return process(gctx, it) })
	}
	if err := g.Wait(); err != nil {
		return err
	}
	g2, gctx2 := errgroup.WithContext(ctx) // want `task.ForEach`
	g2.SetLimit(runtime.NumCPU())
	for _, it := range items {
		g2.Go(func() error { return process(gctx2, it) })
	}
	if err := g2.Wait(); err != nil {
		return err
	}
	g3, gctx3 := errgroup.WithContext(ctx) // want `task.Group in place`
	g3.SetLimit(n)
	for _, it := range items {
		g3.Go(func() error { return process(gctx3, it) })
	}
	return g3.Wait()
}

// Results stored by index into a slice made for them: task.Map.
func byIndex(ctx context.Context, ids []int) ([]int, error) {
	out := make([]int, len(ids))
	g, ctx := errgroup.WithContext(ctx) // want `this loop of g.Go stores each result at its index: it is task.Map, which returns the results: rewrite it to get them typed and panics passed to the caller; the error is errgroup's \(FirstError\); a failure cancels the calls' context and no call starts after it \(errgroup called the rest with a canceled context\)`
	g.SetLimit(4)
	for i, id := range ids {
		g.Go(func() error {
			n, err := fetch(ctx, id)
			if err != nil {
				return err
			}
			out[i] = n
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return out, nil
}

// An adapter for a call of other arguments; the slice read with the
// error: Settled.
func byIndexSettled(ctx context.Context, ids []int, scale int) ([]int, error) {
	counts := make([]int, len(ids))
	g, gctx := errgroup.WithContext(ctx) // want `task.Map`
	for i, id := range ids {
		g.Go(func() error {
			var err error
			counts[i], err = fetch(gctx, id*scale)
			return err
		})
	}
	err := g.Wait()
	return counts, err
}

// Other loops: a Scope whose body is the loop, with g.Go children.

// The index is used for something else than the store.
func indexUsed(ctx context.Context, ids []int) ([]int, error) {
	out := make([]int, len(ids))
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place`
	g.SetLimit(4)
	for i, id := range ids {
		g.Go(func() error {
			n, err := fetch(ctx, id+i)
			if err != nil {
				return err
			}
			out[i] = n
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return out, nil
}

// A map, a three-clause loop, statements around g.Go, a limit that may be
// negative or 0, kept as it is.
func other(ctx context.Context, m map[string]Item, n, limit int) error {
	var mu sync.Mutex
	seen := 0
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place`
	g.SetLimit(limit)
	for name, it := range m {
		if name == "" {
			continue
		}
		g.Go(func() error {
			if err := process(ctx, it); err != nil {
				return err
			}
			mu.Lock()
			seen++
			mu.Unlock()
			return nil
		})
	}
	for i := 0; i < n; i++ {
		g.Go(func() error { return process(ctx, Item{ID: i}) })
	}
	err := g.Wait()
	fmt.Println(seen)
	return err
}

// Children that spawn into the group, without a limit: a Scope allows
// that.
func tree(ctx context.Context, root *Node) error {
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place`
	var walk func(n *Node)
	walk = func(n *Node) {
		g.Go(func() error {
			if err := process(ctx, Item{}); err != nil {
				return err
			}
			for _, c := range n.Children {
				walk(c)
			}
			return nil
		})
	}
	walk(root)
	return g.Wait()
}

type Node struct{ Children []*Node }

// A return inside the loop becomes the body's failure, which the wait's
// check returns as it did.
func returns(ctx context.Context, items []Item) (int, error) {
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place`
	for _, it := range items {
		if it.ID < 0 {
			return 0, fmt.Errorf("bad item %d", it.ID)
		}
		g.Go(func() error { return process(ctx, it) })
	}
	if err := g.Wait(); err != nil {
		return 0, err
	}
	return len(items), nil
}

// Diagnostics without a fix.

// SetLimit, and children that call g.Go: errgroup blocks them at the
// limit.
func limitedTree(ctx context.Context, items []Item) error {
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place`
	g.SetLimit(2)
	for _, it := range items {
		g.Go(func() error {
			g.Go(func() error { return process(ctx, it) })
			return process(ctx, it)
		})
	}
	return g.Wait()
}

// Recursive spawning with a channel as the limiter, as gopls does to avoid
// SetLimit's starvation.
func recursive(ctx context.Context, leaves []*Node) error {
	var g errgroup.Group // want `task.Group in place`
	limiter := make(chan struct{}, runtime.GOMAXPROCS(0))
	var enqueue func(n *Node)
	enqueue = func(n *Node) {
		g.Go(func() error {
			limiter <- struct{}{}
			defer func() { <-limiter }()
			for _, c := range n.Children {
				enqueue(c)
			}
			return process(ctx, Item{})
		})
	}
	for _, l := range leaves {
		enqueue(l)
	}
	return g.Wait()
}

// Some children use the derived context, some do not: errgroup calls the
// latter after a failure, fail-fast would not, KeepGoing would not cancel
// the former: the group in place with StartAll, errgroup's rule.
func mixed(ctx context.Context, items []Item, names []string) error {
	g, gctx := errgroup.WithContext(ctx) // want `task.Group in place: .*; a failure cancels the context and every child still starts, as with errgroup \(StartAll\)`
	for _, it := range items {
		g.Go(func() error { return process(gctx, it) })
	}
	for _, name := range names {
		g.Go(func() error { return remove(name) })
	}
	return g.Wait()
}

// A child that first defers close(ch), which the loop waits for: errgroup
// runs it after a failure, a fail-fast group would not, and the loop would
// wait forever. Nor may it become KeepGoing, as the children pass the
// derived context on: StartAll starts every child, as errgroup does.
func pipelined(ctx context.Context, names []string) error {
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place.*StartAll`
	var futures []chan int
	for range names {
		ch := make(chan int, 1)
		futures = append(futures, ch)
		g.Go(func() error {
			defer close(ch)
			n, err := fetch(ctx, 1)
			if err != nil {
				return err
			}
			ch <- n
			return nil
		})
	}
	for _, ch := range futures {
		fmt.Println(<-ch)
	}
	return g.Wait()
}

// A child with an effect before it looks at its context: it uses the
// derived context, so it is taken to honor it; after a failure, a child not
// started does not count (errgroup would have counted, then returned the
// canceled context's error).
func effectFirst(ctx context.Context, items []Item) error {
	var mu sync.Mutex
	seen := 0
	g, ctx := errgroup.WithContext(ctx) // want `task.ForEach`
	for _, it := range items {
		g.Go(func() error {
			mu.Lock()
			seen++
			mu.Unlock()
			return process(ctx, it)
		})
	}
	return g.Wait()
}

// A return whose other results differ from those of the wait's check.
func returnsOther(ctx context.Context, items []Item) (int, error) {
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place`
	for i, it := range items {
		if it.ID < 0 {
			return i, fmt.Errorf("bad item %d", it.ID)
		}
		g.Go(func() error { return process(ctx, it) })
	}
	if err := g.Wait(); err != nil {
		return 0, err
	}
	return len(items), nil
}

// A variable declared between the group and the wait is read after it.
func declared(ctx context.Context, items []Item) error {
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place`
	g.Go(func() error { return process(ctx, Item{}) })
	count := 0
	for _, it := range items {
		count++
		g.Go(func() error { return process(ctx, it) })
	}
	err := g.Wait()
	fmt.Println(count)
	return err
}

// A pipeline: the wait runs in a goroutine of its own.
func pipeline(ctx context.Context, items []Item) <-chan error {
	errc := make(chan error, 1)
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place`
	for _, it := range items {
		g.Go(func() error { return process(ctx, it) })
	}
	go func() { errc <- g.Wait() }()
	return errc
}

// A negative constant limit is no limit in both: it carries over.
func negativeLimit(ctx context.Context, items []Item) error {
	g, gctx := errgroup.WithContext(ctx) // want `task.ForEach`
	g.SetLimit(-1)
	for _, it := range items {
		g.Go(func() error { return process(gctx, it) })
	}
	if err := g.Wait(); err != nil {
		return err
	}
	return nil
}

// SetLimit(0) blocks every Go: not a limit to carry over.
func zeroLimit(ctx context.Context, items []Item) error {
	g, ctx := errgroup.WithContext(ctx) // want `errgroup group \(g\) not migrated: limited to 0 \(SetLimit\(0\) blocks every Go; task panics\); call SetLimit once, with a nonzero limit`
	g.SetLimit(0)
	for _, it := range items {
		g.Go(func() error { return process(ctx, it) })
	}
	return g.Wait()
}

// Children that first make a context with a timeout from the derived one,
// or compute a name, before the call that gets it: fail-fast.
func withTimeout(ctx context.Context, items []Item) error {
	g, ctx := errgroup.WithContext(ctx) // want `task.ForEach`
	for _, it := range items {
		g.Go(func() error {
			name := fmt.Sprintf("item-%d", it.ID)
			if name == "" {
				return fmt.Errorf("no name for %d", it.ID)
			}
			ctx, cancel := context.WithTimeout(ctx, time.Second)
			defer cancel()
			return process(ctx, it)
		})
	}
	return g.Wait()
}

// A child that logs before the call: after a failure, errgroup logged for
// every child, the task package for those started.
func logsFirst(ctx context.Context, items []Item) error {
	g, ctx := errgroup.WithContext(ctx) // want `task.ForEach`
	for _, it := range items {
		g.Go(func() error {
			fmt.Println("processing", it.ID)
			return process(ctx, it)
		})
	}
	return g.Wait()
}

// The function's named err is assigned by Map's :=: every later return
// gives its results.
func namedResults(ctx context.Context, ids []int) (_ []int, err error) {
	out := make([]int, len(ids))
	g, gctx := errgroup.WithContext(ctx) // want `task.Map`
	g.SetLimit(10)
	for i, id := range ids {
		i, id := i, id
		g.Go(func() error {
			n, err := fetch(gctx, id)
			if err != nil {
				return err
			}
			out[i] = n
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return out, nil
}

// Children that deliver to a channel the spawner reads once per child, or
// mark a WaitGroup done: one not started would leave the reader waiting.
// StartAll starts every child, as errgroup does.
func delivers(ctx context.Context, items []Item) error {
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place.*StartAll`
	results := make(chan int)
	var wg sync.WaitGroup
	for _, it := range items {
		wg.Add(1)
		g.Go(func() error {
			defer wg.Done()
			fmt.Println("start", it.ID)
			n, err := fetch(ctx, it.ID)
			results <- n
			return err
		})
	}
	for range items {
		fmt.Println(<-results)
	}
	wg.Wait()
	return g.Wait()
}

// Children that call a completion callback of the caller, or give back a
// slot the loop took: one not started would leave the caller waiting, or
// the slot taken. StartAll starts every child, as errgroup does.
func callsBack(ctx context.Context, items []Item, done func()) error {
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place.*StartAll`
	for _, it := range items {
		g.Go(func() error {
			defer done()
			return process(ctx, it)
		})
	}
	return g.Wait()
}

// A pool of download slots, taken by the loop and given back by a child.
type Pool struct{ slots chan struct{} }

func (p *Pool) AcquireSlot(ctx context.Context) error {
	select {
	case p.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (p *Pool) ReleaseSlot() { <-p.slots }

func releasesSlot(ctx context.Context, items []Item, pool *Pool) error {
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place.*StartAll.*the return at line 476, between Go and Wait, leaves the children running with no Wait: a child.s panic no longer crashes the program at once`
	for _, it := range items {
		if err := pool.AcquireSlot(ctx); err != nil {
			return err
		}
		g.Go(func() error {
			defer pool.ReleaseSlot()
			return process(ctx, it)
		})
	}
	return g.Wait()
}

// Hooks run for their effects, each a function value that may ignore
// ctx (a shutdown hook): one not started after another failed would be
// skipped, where errgroup runs them all. StartAll starts every child.
func runsHooks(ctx context.Context, hooks []func(context.Context) error) error {
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place.*StartAll`
	for _, h := range hooks {
		g.Go(func() error { return h(ctx) })
	}
	return g.Wait()
}

// A return of nil from the loop was a success that left the children
// running: a Scope body cannot do that.
func returnsNil(ctx context.Context, items []Item) error {
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place`
	for _, it := range items {
		if it.ID < 0 {
			return nil
		}
		g.Go(func() error { return process(ctx, it) })
	}
	return g.Wait()
}

// A return of an error just checked is a failure.
func returnsErr(ctx context.Context, items []Item) error {
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place`
	for _, it := range items {
		if _, err := fetch(ctx, it.ID); err != nil {
			return err
		}
		g.Go(func() error { return process(ctx, it) })
	}
	return g.Wait()
}

// SetLimit under a condition, before any Go: it stays in the Scope's body.
func limitIf(ctx context.Context, items []Item, serial bool) error {
	g, gctx := errgroup.WithContext(ctx) // want `task.Group in place`
	if serial {
		g.SetLimit(1)
	}
	for _, it := range items {
		g.Go(func() error { return process(gctx, it) })
	}
	return g.Wait()
}

// Statements between SetLimit and the loop that do not use the group stay
// before the Scope, so that what they declare is still there after it.
func limitThenPrepare(ctx context.Context, items []Item) ([]int, error) {
	g, gctx := errgroup.WithContext(ctx) // want `task.Group in place`
	g.SetLimit(10)

	var (
		out []int
		mu  sync.Mutex
	)
	for _, it := range items {
		if it.ID < 0 {
			continue
		}
		g.Go(func() error {
			n, err := fetch(gctx, it.ID)
			if err != nil {
				return err
			}
			mu.Lock()
			out = append(out, n)
			mu.Unlock()
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return out, nil
}

// The wait assigns an err that other blocks use too.
func outerErr(ctx context.Context, items []Item, ok bool) error {
	var err error
	if ok {
		err = fmt.Errorf("not ok")
	}
	if !ok {
		g, ctx := errgroup.WithContext(ctx) // want `task.ForEach`
		for _, it := range items {
			g.Go(func() error { return process(ctx, it) })
		}
		if err = g.Wait(); err != nil {
			return err
		}
	}
	return err
}

// A zero Group made again by errgroup.WithContext when a condition holds:
// fail-fast then, KeepGoing else, as a variable the condition sets.
func condDerived(ctx context.Context, items []Item, failFast bool) error {
	g := &errgroup.Group{} // want `this loop of g.Go is task.ForEach: .*; where the condition made the group with errgroup.WithContext, a failure cancels the calls' context and no call starts after it \(errgroup called the rest with a canceled context\); where it did not, every call runs, as with errgroup \(KeepGoing\)`
	if failFast {
		g, ctx = errgroup.WithContext(ctx)
	}
	for _, it := range items {
		g.Go(func() error { return process(ctx, it) })
	}
	return g.Wait()
}

// The same, with a serial branch whose return becomes the body's failure.
func condScope(ctx context.Context, items []Item, failFast, parallel bool) error {
	g := &errgroup.Group{} // want `task.Group in place`
	if failFast {
		g, ctx = errgroup.WithContext(ctx)
	}
	for _, it := range items {
		if parallel {
			g.Go(func() error { return process(ctx, it) })
		} else {
			if err := process(ctx, it); err != nil {
				return err
			}
		}
	}
	if err := g.Wait(); err != nil {
		return err
	}
	return nil
}

func each(items []Item, f func(Item) error) error {
	for _, it := range items {
		if err := f(it); err != nil {
			return err
		}
	}
	return nil
}

// A wait only if the walk that spawns succeeded: the body returns err as
// its failure, and the wait keeps the Scope's error only if err is nil.
// The err that the walk declares is declared before the Scope.
func walk(ctx context.Context, items []Item) error {
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place`
	g.SetLimit(4)
	err := each(items, func(it Item) error {
		g.Go(func() error { return process(ctx, it) })
		return nil
	})
	if err == nil {
		err = g.Wait()
	}
	return err
}

// The same with an err declared before, and statements between SetLimit
// and the walk, which stay before the Scope.
func walkDeclared(ctx context.Context, items []Item, n int) error {
	_, err := os.Stat("x")
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place`
	g.SetLimit(n)
	if err != nil {
		return err
	}
	err = each(items, func(it Item) error {
		g.Go(func() error { return process(ctx, it) })
		return nil
	})
	if err == nil {
		err = g.Wait()
	}
	return err
}

// A loop waited for only if err is nil: not ForEach, which would not
// run the loop at all, but a Scope.
func loopIfNil(ctx context.Context, items []Item, err error) error {
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place`
	for _, it := range items {
		g.Go(func() error { return process(ctx, it) })
	}
	if err == nil {
		err = g.Wait()
	}
	return err
}

// A group made again in the same variables after the wait: the two are
// one group in place, the first fail-fast (its children honor the derived
// context), the second StartAll (some of its children ignore it).
func remadeFirst(ctx context.Context, items, more []Item, names []string) error {
	eg, ctx2 := errgroup.WithContext(ctx) // want `task.Group in place: .*; a failure cancels the context; where the children honor it, no child starts after it, nor after the caller.s ctx ends .*, elsewhere every child still starts, as with errgroup \(StartAll\)`
	for _, it := range items {
		eg.Go(func() error { return process(ctx2, it) })
	}
	if err := eg.Wait(); err != nil {
		return err
	}
	fmt.Println(len(items))
	eg, ctx2 = errgroup.WithContext(ctx)
	for _, it := range more {
		eg.Go(func() error { return process(ctx2, it) })
	}
	for _, name := range names {
		eg.Go(func() error { return remove(name) })
	}
	return eg.Wait()
}

// The same, the other way round: the first StartAll, the second
// fail-fast.
func remadeSecond(ctx context.Context, items, more []Item, names []string) error {
	eg, ctx2 := errgroup.WithContext(ctx) // want `task.Group in place.*StartAll`
	for _, it := range items {
		eg.Go(func() error { return process(ctx2, it) })
	}
	for _, name := range names {
		eg.Go(func() error { return remove(name) })
	}
	if err := eg.Wait(); err != nil {
		return err
	}
	eg, ctx2 = errgroup.WithContext(ctx)
	for _, it := range more {
		eg.Go(func() error { return process(ctx2, it) })
	}
	return eg.Wait()
}

// Near misses again: nothing reported.

// Under a condition, the derived context is used after the wait.
func condCtxAfter(ctx context.Context, items []Item, failFast bool) error {
	g := &errgroup.Group{} // want `task.Group in place`
	if failFast {
		g, ctx = errgroup.WithContext(ctx)
	}
	for _, it := range items {
		g.Go(func() error { return process(ctx, it) })
	}
	if err := g.Wait(); err != nil {
		return err
	}
	return process(ctx, Item{})
}

// Under a condition, a context of another name: the group is used by the
// if, not only by Go.
func condOtherCtx(ctx context.Context, items []Item, failFast bool) error {
	g := &errgroup.Group{} // want `task.Group in place`
	gctx := ctx
	if failFast {
		g, gctx = errgroup.WithContext(ctx)
	}
	for _, it := range items {
		g.Go(func() error { return process(gctx, it) })
	}
	return g.Wait()
}

// A wait only if err is nil, where a child writes err.
func walkChildWrites(ctx context.Context, items []Item) error {
	var err error
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place`
	for _, it := range items {
		g.Go(func() error {
			err = process(ctx, it)
			return err
		})
	}
	if err == nil {
		err = g.Wait()
	}
	return err
}

// A wait only if err is nil, after a return from the statements the body
// would take.
func walkReturns(ctx context.Context, items []Item) error {
	var err error
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place`
	for _, it := range items {
		if it.ID < 0 {
			return fmt.Errorf("bad item %d", it.ID)
		}
		g.Go(func() error { return process(ctx, it) })
	}
	if err == nil {
		err = g.Wait()
	}
	return err
}

// Variables declared for the group alone: made again, with the fix
// removing that statement, they would be declared and not used.
func declaredOnly(ctx context.Context, items []Item) error {
	var eg *errgroup.Group
	var ctx2 context.Context
	eg, ctx2 = errgroup.WithContext(ctx) // want `task.Group in place`
	for _, it := range items {
		eg.Go(func() error { return process(ctx2, it) })
	}
	return eg.Wait()
}

// The derived context is read between the wait and the group made again:
// the first group has no fix (the second has one, as in remadeSecond).
func remadeReadBetween(ctx context.Context, items, more []Item) error {
	eg, ctx2 := errgroup.WithContext(ctx) // want `task.Group in place`
	for _, it := range items {
		eg.Go(func() error { return process(ctx2, it) })
	}
	if err := eg.Wait(); err != nil {
		return err
	}
	fmt.Println(ctx2.Err())
	eg, ctx2 = errgroup.WithContext(ctx)
	for _, it := range more {
		eg.Go(func() error { return process(ctx2, it) })
	}
	return eg.Wait()
}
