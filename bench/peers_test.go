package bench

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkFanout runs the same fan-out of N differently typed calls with
// every implementation. Names are key=value: impl, n, mode.
//
// Every loop is `for range b.N`, for every library alike: in Go 1.26 a
// b.Loop body keeps its assignments alive, which moves the captured result
// variables of the closure-based peers to the heap and adds allocations
// their real use would not make.
func BenchmarkFanout(b *testing.B) {
	ctx := context.Background()
	for _, c := range completedCases {
		b.Run(fmt.Sprintf("impl=%s/n=%d/mode=completed", c.impl, c.n), func(b *testing.B) { c.run(b, ctx, immediate) })
	}
	for _, m := range []mode{immediate, yield, usesCtx} {
		for _, c := range fanoutCases {
			b.Run(fmt.Sprintf("impl=%s/n=%d/mode=%v", c.impl, c.n, m), func(b *testing.B) { c.run(b, ctx, m) })
		}
	}
}
