package task_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/tasktuple/task"
)

func ExampleScope() {
	ctx := context.Background()
	// The body returns the scope's result; children of different types
	// are awaited as tasks.
	page, err := task.Scope(ctx, func(ctx context.Context, g *task.Group) (string, error) {
		tu := task.Spawn(g, loadUser)
		to := task.Spawn(g, loadOrders)
		user, orders, err := task.Await2(ctx, tu, to)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%s has %d orders", user.Name, len(orders)), nil
	})
	fmt.Println(page, err)
	// Output: Ada has 2 orders <nil>
}

// links is a fake web: each page links to others.
var links = map[string][]string{
	"/":      {"/a", "/b"},
	"/a":     {"/a/1", "/b"},
	"/b":     {"/"},
	"/a/1":   {"/a/1/x"},
	"/a/1/x": nil,
}

// A crawler: each child fetches a page and spawns the pages it finds into
// the same group, at most 2 fetches at once; its task holds what it found
// (here the number of links). Wait returns when the last page is done, and
// every task has completed: the results are read without waiting.
func ExampleSpawn() {
	var mu sync.Mutex
	seen := map[string]*task.Task[int]{}
	var visit func(g *task.Group, url string)
	visit = func(g *task.Group, url string) {
		mu.Lock()
		defer mu.Unlock()
		if seen[url] != nil {
			return
		}
		seen[url] = task.Spawn(g, func(ctx context.Context) (int, error) {
			found := links[url] // fetch(ctx, url) in real life
			for _, next := range found {
				visit(g, next)
			}
			return len(found), nil
		})
	}
	g, _ := task.NewGroup(context.Background())
	g.SetLimit(2)
	visit(g, "/")
	err := g.Wait()
	for _, url := range slices.Sorted(maps.Keys(seen)) {
		n, _ := seen[url].Wait(context.Background())
		fmt.Println(url, n)
	}
	fmt.Println(err)
	// Output:
	// / 2
	// /a 2
	// /a/1 1
	// /a/1/x 0
	// /b 1
	// <nil>
}

func ExampleGroup_SetLimit() {
	ids := []int{1, 2, 3, 4, 5, 6}
	sum, err := task.Scope(context.Background(), func(ctx context.Context, g *task.Group) (int, error) {
		g.SetLimit(3) // at most 3 children run at once; the others wait, without a goroutine
		tasks := make([]*task.Task[int], len(ids))
		for i, id := range ids {
			tasks[i] = task.Spawn(g, func(ctx context.Context) (int, error) { return id * 10, nil })
		}
		vals, err := task.All(ctx, tasks)
		total := 0
		for _, v := range vals {
			total += v
		}
		return total, err
	})
	fmt.Println(sum, err)
	// Output: 210 <nil>
}

func ExampleTrySpawn() {
	release := make(chan struct{})
	_, err := task.Scope(context.Background(), func(ctx context.Context, g *task.Group) (int, error) {
		g.SetLimit(1)
		busy, _ := task.TrySpawn(g, func(context.Context) (int, error) { <-release; return 1, nil })
		t2, ok := task.TrySpawn(g, func(context.Context) (int, error) { return 2, nil })
		fmt.Println("second started:", ok, t2 == nil) // at the limit: do something else
		close(release)
		return busy.Wait(ctx)
	})
	fmt.Println(err)
	// Output:
	// second started: false true
	// <nil>
}

func ExampleMapSeq() {
	ctx := context.Background()
	words := slices.Values([]string{"go", "task", "scope", "tuple"})
	for n, err := range task.MapSeq(ctx, words, 2, func(ctx context.Context, w string) (int, error) {
		if w == "tuple" {
			return 0, errors.New("too long")
		}
		return len(w), nil
	}) {
		fmt.Println(n, err) // in input order; a failure carries its index
	}
	// Output:
	// 2 <nil>
	// 4 <nil>
	// 5 <nil>
	// 0 task: MapSeq: inputs[3]: too long
}

func ExampleMapSeqUnordered() {
	ctx := context.Background()
	words := slices.Values([]string{"a", "bb", "ccc"})
	var got []string
	for s, err := range task.MapSeqUnordered(ctx, words, 3, func(ctx context.Context, w string) (string, error) {
		return strings.ToUpper(w), nil // carries its input: results come in completion order
	}) {
		if err != nil {
			fmt.Println(err)
			return
		}
		got = append(got, s)
	}
	sort.Strings(got)
	fmt.Println(got)
	// Output: [A BB CCC]
}
