package task_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/tasktuple/task"
)

// A crawler's errors name the page, not the spawn order.
func ExampleNamedErr() {
	g, _ := task.NewGroup(context.Background(), task.KeepGoing)
	for _, page := range []string{"/a", "/b", "/c"} {
		g.Go(task.NamedErr("index "+page, func(ctx context.Context) error {
			if page == "/c" {
				return errors.New("disk full")
			}
			return nil
		}))
	}
	fmt.Println(g.Wait())
	// Output: task: Group: index /c: disk full
}

// Each call of Map named by its input: the error says which user, not
// which position.
func ExampleNamedBy() {
	ids := []int{7, 42}
	user := func(id int) string { return "user " + strconv.Itoa(id) }
	_, err := task.Map(context.Background(), ids, 8, task.NamedBy(user, func(ctx context.Context, id int) (string, error) {
		if id == 42 {
			return "", errors.New("404 not found")
		}
		return "Ada", nil
	}), task.KeepGoing)
	fmt.Println(err)
	// Output: task: Map: user 42: 404 not found
}

func ExampleNamedByErr() {
	files := []string{"a.txt", "c.txt"}
	err := task.ForEach(context.Background(), files, 8, task.NamedByErr(func(f string) string { return f }, upload), task.KeepGoing)
	fmt.Println(err)
	// Output: task: ForEach: c.txt: upload c.txt: 403 forbidden
}
