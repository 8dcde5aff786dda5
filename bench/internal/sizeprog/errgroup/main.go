// Command errgroup does the work of await2 with errgroup, the size
// reference.
package main

import (
	"context"
	"fmt"

	"golang.org/x/sync/errgroup"
)

func one(context.Context) (int, error)    { return 1, nil }
func two(context.Context) (string, error) { return "two", nil }

func main() {
	var a int
	var b string
	g, ctx := errgroup.WithContext(context.Background())
	g.Go(func() error { var err error; a, err = one(ctx); return err })
	g.Go(func() error { var err error; b, err = two(ctx); return err })
	err := g.Wait()
	fmt.Println(a, b, err)
}
