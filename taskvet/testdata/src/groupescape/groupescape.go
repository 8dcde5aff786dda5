package groupescape

import (
	"context"

	"github.com/tasktuple/task"
)

func load(ctx context.Context) (int, error) { return 1, nil }
func helper(g *task.Group)                  { task.Spawn(g, load) }

var global *task.Group

type server struct{ g *task.Group }

// True positives.

func stored(ctx context.Context, s *server) {
	task.Scope(ctx, func(ctx context.Context, g *task.Group) (int, error) {
		global = g // want `the group of Scope is stored in the package variable global, and a Spawn after the Scope returns panics: use it only inside the body`
		s.g = g    // want `the group of Scope is stored in a field or element`
		return 0, nil
	})
}

func keptOutside(ctx context.Context) {
	var kept *task.Group
	task.Scope(ctx, func(ctx context.Context, g *task.Group) (int, error) {
		kept = g // want `the group of Scope is stored in kept, declared outside the body`
		return 0, nil
	})
	task.Spawn(kept, load) // want `kept is the group of a Scope that has returned, so this call panics: spawn inside the Scope body`
	kept.SetLimit(2)       // want `kept is the group of a Scope that has returned`
}

func returned(ctx context.Context) {
	task.Scope(ctx, func(ctx context.Context, g *task.Group) (*task.Group, error) {
		return g, nil // want `the group of Scope is returned from the body, and a Spawn after the Scope returns panics: return results, not the group`
	})
	task.Scope(ctx, func(ctx context.Context, g *task.Group) (func(), error) {
		return func() { task.Spawn(g, load) }, nil // want `the group of Scope is returned from the body`
	})
}

func sent(ctx context.Context, ch chan *task.Group) {
	task.Scope(ctx, func(ctx context.Context, g *task.Group) (int, error) {
		ch <- g // want `the group of Scope is sent on a channel`
		return 0, nil
	})
}

func goroutine(ctx context.Context) {
	task.Scope(ctx, func(ctx context.Context, g *task.Group) (int, error) {
		go func() { task.Spawn(g, load) }() // want `a goroutine uses the group of Scope and may spawn after the Scope returns, which panics: start the work with task.Spawn instead of a go statement`
		go helper(g)                        // want `a goroutine uses the group of Scope`
		return 0, nil
	})
}

// Near misses.

func inside(ctx context.Context) {
	task.Scope(ctx, func(ctx context.Context, g *task.Group) (int, error) {
		h := g // a local alias
		helper(h)
		helper(g)
		spawn := func() *task.Task[int] { return task.Spawn(g, load) }
		t := spawn()
		task.Spawn(g, func(ctx context.Context) (int, error) {
			task.Spawn(g, load) // a child spawning into its group
			return 0, nil
		})
		return t.Wait(ctx)
	})
}
