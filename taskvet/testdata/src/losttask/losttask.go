package losttask

import (
	"context"
	"errors"

	"github.com/tasktuple/task"
)

func load(ctx context.Context) (int, error)      { return 1, nil }
func tick(ctx context.Context) (struct{}, error) { return struct{}{}, nil }
func use(t *task.Task[int])                      {}
func cond() bool                                 { return true }

var kept *task.Task[int]

type holder struct{ t *task.Task[int] }

// True positives.

func dropped(ctx context.Context) {
	task.Go(ctx, load) // want `task.Go is never waited for, so its error is lost and a panic in it crashes the program: wait for it \(Wait, AwaitN, All\), return it or store it`
}

func blank(ctx context.Context) {
	_ = task.Go(ctx, load) // want `task.Go is never waited for`
}

func unusedVar(ctx context.Context) {
	t := task.Go(ctx, load) // want `task.Go is never waited for`
	t = task.Go(ctx, load)
	use(t)
}

func overwritten(ctx context.Context) error {
	t := task.Go(ctx, load) // want `task.Go is never waited for`
	t, complete := task.Promise[int]()
	complete(2, nil)
	_, err := t.Wait(ctx)
	return err
}

func promise(ctx context.Context) {
	task.Promise[int]()                 // want `the task of task.Promise is never waited for, so the value and error complete gives it are lost: wait for it \(Wait, AwaitN, All\), return it or store it`
	_, complete := task.Promise[int]()  // want `the task of task.Promise is never waited for`
	t, complete2 := task.Promise[int]() // want `the task of task.Promise is never waited for`
	complete(1, nil)
	complete2(1, nil)
	t = nil
	_ = t
}

func deferred(ctx context.Context) {
	go task.Go(ctx, load) // want `task.Go is never waited for`
}

func spawnValue(ctx context.Context) {
	task.Scope(ctx, func(ctx context.Context, g *task.Group) (int, error) {
		task.Spawn(g, load)             // want `the value of the task from task.Spawn is never read: wait for the task, or spawn a function that returns struct\{\}`
		_, ok := task.TrySpawn(g, load) // want `the value of the task from task.TrySpawn is never read`
		_ = ok
		return 0, nil
	})
}

// Near misses: every path that waits, returns, stores or passes the task
// on, and children whose value is struct{}.

func waited(ctx context.Context) (int, error) {
	t := task.Go(ctx, load)
	return t.Wait(ctx)
}

func returned(ctx context.Context) *task.Task[int] {
	return task.Go(ctx, load)
}

func stored(ctx context.Context, h *holder, m map[string]*task.Task[int], ts []*task.Task[int]) {
	kept = task.Go(ctx, load)
	h.t = task.Go(ctx, load)
	m["a"] = task.Go(ctx, load)
	ts[0] = task.Go(ctx, load)
	ts = append(ts, task.Go(ctx, load))
	_ = holder{t: task.Go(ctx, load)}
}

func passed(ctx context.Context) {
	use(task.Go(ctx, load))
	t := task.Go(ctx, load)
	use(t)
}

func onSomePath(ctx context.Context) error {
	t := task.Go(ctx, load)
	if cond() {
		return errors.New("early") // lostcancel would report this path; a task that is waited for on some path is not lost
	}
	_, err := t.Wait(ctx)
	return err
}

func inLoop(ctx context.Context) {
	var prev *task.Task[int]
	for range 3 {
		if prev != nil {
			prev.Wait(ctx) //nolint
		}
		prev = task.Go(ctx, load)
	}
}

func closure(ctx context.Context) func() {
	t := task.Go(ctx, load)
	return func() { use(t) }
}

func namedResult(ctx context.Context) (t *task.Task[int]) {
	t = task.Go(ctx, load)
	return
}

func addressed(ctx context.Context) {
	t := task.Go(ctx, load)
	p := &t
	use(*p)
}

func children(ctx context.Context) {
	task.Scope(ctx, func(ctx context.Context, g *task.Group) (struct{}, error) {
		task.Spawn(g, tick)
		tv := task.Spawn(g, load)
		v, err := tv.Wait(ctx)
		_ = v
		return struct{}{}, err
	})
}

func promised(ctx context.Context) (*task.Task[int], func(int, error) bool) {
	return task.Promise[int]()
}

func promiseWaited(ctx context.Context) (int, error) {
	t, complete := task.Promise[int]()
	go complete(load(ctx))
	return t.Wait(ctx)
}
