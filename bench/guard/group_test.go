//go:build !guard_a1ba8fa

package guard

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/tasktuple/task"
)

// This file needs NewGroup and Group.Wait, which a1ba8fa does not have: the
// guard builds it only when both sides declare NewGroup, and builds neither
// side with it otherwise (the tag guard_a1ba8fa, cmd/guard's newerAPI).

// benchNewer runs, for BenchmarkGuard, errgroup's shape: NewGroup, g.Go
// per child, Wait (issue 48's first rows), over 16 and 1,000 children, with
// no limit and with 8.
func benchNewer(b *testing.B, ctx context.Context) {
	for _, n := range guardNs {
		for _, limit := range guardLimits {
			b.Run(fmt.Sprintf("op=NewGroup+Go+Wait/n=%d/limit=%s", n, limitName(limit)), func(b *testing.B) {
				b.ReportAllocs()
				for range b.N {
					g, _ := task.NewGroup(ctx)
					if limit != math.MaxInt {
						g.SetLimit(limit)
					}
					for range n {
						g.Go(nop)
					}
					check(b, g.Wait())
				}
			})
		}
	}
}
