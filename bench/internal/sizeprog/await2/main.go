// Command await2 uses task.Await2 and task.Run2, to measure what one arity
// adds to a program's size.
package main

import (
	"context"
	"fmt"

	"github.com/tasktuple/task"
)

func one(context.Context) (int, error)    { return 1, nil }
func two(context.Context) (string, error) { return "two", nil }

func main() {
	ctx := context.Background()
	a, b, err := task.Await2(ctx, task.Go(ctx, one), task.Go(ctx, two))
	fmt.Println(a, b, err)
	a, b, err = task.Run2(ctx, one, two)
	fmt.Println(a, b, err)
}
