package server

// No standard import: context gets a section of its own, first.

import (
	"golang.org/x/sync/errgroup"
)

func zero(ids []int) error {
	var g errgroup.Group // want `task.Group in place`
	for _, id := range ids {
		if id < 0 {
			continue
		}
		g.Go(func() error { return nil })
	}
	return g.Wait()
}
