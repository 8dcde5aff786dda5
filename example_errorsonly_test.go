package task_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/tasktuple/task"
)

// upload is a fake upload: c.txt, the last, is refused (a failure before
// the last input would leave, or not, the inputs after it unstarted,
// which the error counts: the output would depend on timing).
func upload(ctx context.Context, file string) error {
	if file == "c.txt" {
		return fmt.Errorf("upload %s: 403 forbidden", file)
	}
	return nil
}

// errgroup's loop of g.Go: make a group, Go into it, Wait. The loop is
// errgroup's but for the line of g.Go, whose function gets the context.
// Every failure is reported with its position, a panic reaches the
// caller of Wait, and a g.Go at the limit is queued rather than blocked.
func ExampleNewGroup() {
	ctx := context.Background()
	files := []string{"a.txt", "b.txt", "c.txt"}
	g, ctx := task.NewGroup(ctx)
	g.SetLimit(8)
	for _, f := range files {
		g.Go(func(ctx context.Context) error { return upload(ctx, f) })
	}
	err := g.Wait()
	fmt.Println(err)
	// Output: task: Group: children[2]: upload c.txt: 403 forbidden
}

// The zero Group is errgroup's zero Group: ready to use, it cancels
// nothing, runs every child, and Wait returns the first failure as its
// function returned it. It fits a group kept in a struct field.
func ExampleGroup() {
	type uploader struct {
		g task.Group // background uploads; Close waits for them
	}
	var u uploader
	for _, f := range []string{"a.txt", "b.txt", "c.txt"} {
		u.g.Go(func(ctx context.Context) error { return upload(ctx, f) })
	}
	fmt.Println(u.g.Wait())
	// Output: upload c.txt: 403 forbidden
}

// g.Go in a Scope's body: the children end with the call, and the body
// can wait for some of them with their tasks (Spawn) as it goes.
func ExampleGroup_Go() {
	ctx := context.Background()
	files := []string{"a.txt", "b.txt", "c.txt"}
	n, err := task.Scope(ctx, func(ctx context.Context, g *task.Group) (int, error) {
		for _, f := range files {
			g.Go(func(ctx context.Context) error { return upload(ctx, f) })
		}
		return len(files), nil
	})
	fmt.Println(n, err)
	// Output: 0 task: Scope: children[2]: upload c.txt: 403 forbidden
}

// Code moved from errgroup whose callers compare the error itself keeps
// errgroup's error with FirstError: the first failure, as the function
// returned it.
func ExampleFirstError() {
	ctx := context.Background()
	files := []string{"a.txt", "b.txt", "c.txt"}
	err := task.ForEach(ctx, files, 8, upload, task.FirstError)
	fmt.Println(err)
	// Output: upload c.txt: 403 forbidden
}

func ExampleGroup_TryGo() {
	release := make(chan struct{})
	g, _ := task.NewGroup(context.Background())
	g.SetLimit(1)
	fmt.Println(g.TryGo(func(context.Context) error { <-release; return nil }))
	fmt.Println(g.TryGo(func(context.Context) error { return nil })) // at the limit: not started
	close(release)
	fmt.Println(g.Wait())
	// Output:
	// true
	// false
	// <nil>
}

// The loop of Group.Go's example, over a slice: one line.
func ExampleForEach() {
	ctx := context.Background()
	files := []string{"a.txt", "b.txt", "c.txt"}
	err := task.ForEach(ctx, files, 8, upload)
	fmt.Println(err)
	// Output: task: ForEach: inputs[2]: upload c.txt: 403 forbidden
}

func ExampleDo() {
	ctx := context.Background()
	err := task.Do(ctx,
		func(ctx context.Context) error { return nil }, // warm the cache
		func(ctx context.Context) error { return errors.New("migrate: table locked") },
	)
	fmt.Println(err)
	// Output: task: Do: fns[1]: migrate: table locked
}
