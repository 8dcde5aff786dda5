package selfwait

import (
	"context"

	"github.com/tasktuple/task"
)

func load(ctx context.Context) (int, error) { return 1, nil }

// True positives.

func waitsForItself(ctx context.Context) {
	var t *task.Task[int]
	t = task.Go(ctx, func(ctx context.Context) (int, error) {
		return t.Wait(ctx) // want `the function of task t waits for t itself, which completes only when the function returns: it never returns; wait for it outside its function`
	})
	t.Wait(ctx)
}

func awaitsItself(ctx context.Context, other *task.Task[int]) {
	var t *task.Task[int]
	t = task.Go(ctx, func(ctx context.Context) (int, error) {
		<-t.Done()                                 // want `the function of task t waits for t itself`
		task.Await3(ctx, other, other, t)          // want `the function of task t waits for t itself`
		task.All(ctx, []*task.Task[int]{other, t}) // want `the function of task t waits for t itself`
		select {
		case <-t.Done(): // want `the function of task t waits for t itself`
		case <-ctx.Done():
		}
		a, b, err := task.Await2(ctx, other, t) // want `the function of task t waits for t itself`
		return a + b, err
	})
	t.Wait(ctx)
}

func spawnedChild(ctx context.Context) {
	task.Scope(ctx, func(ctx context.Context, g *task.Group) (int, error) {
		var c *task.Task[int]
		c = task.Spawn(g, func(ctx context.Context) (int, error) {
			return c.Wait(ctx) // want `the function of task c waits for c itself`
		})
		return c.Wait(ctx)
	})
}

// Near misses.

func waitsForAnother(ctx context.Context) {
	first := task.Go(ctx, load)
	var second *task.Task[int]
	second = task.Go(ctx, func(ctx context.Context) (int, error) {
		return first.Wait(ctx) // another task
	})
	second.Wait(ctx)
}

func laterGoroutine(ctx context.Context) {
	var t *task.Task[int]
	t = task.Go(ctx, func(ctx context.Context) (int, error) {
		go func() { t.Wait(ctx) }() // another goroutine: no deadlock
		select {
		case <-t.Done(): // a probe: does not block, and runs only once t is complete
			return t.Wait(ctx)
		default:
		}
		return 0, nil
	})
	t.Wait(ctx)
}
