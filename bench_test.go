package task

import (
	"fmt"
	"testing"
)

// The benchmarks of this package measure AwaitN and RunN alone; the
// comparison with other libraries lives in the bench module.
//
// They use for range b.N rather than b.Loop: in Go 1.26 a b.Loop body
// keeps its assignments alive, which can move captured values to the heap
// and count allocations real code does not make.

func BenchmarkAwait(b *testing.B) {
	for _, a := range arities {
		if a.benchAwait == nil {
			continue
		}
		b.Run(fmt.Sprintf("n=%d/mode=completed", a.n), a.benchAwait)
		b.Run(fmt.Sprintf("n=%d/mode=go", a.n), a.benchGoAwait)
	}
}

func BenchmarkRun(b *testing.B) {
	for _, a := range arities {
		if a.benchRun == nil {
			continue
		}
		b.Run(fmt.Sprintf("n=%d/mode=immediate", a.n), func(b *testing.B) { a.benchRun(b, false) })
		b.Run(fmt.Sprintf("n=%d/mode=usesctx", a.n), func(b *testing.B) { a.benchRun(b, true) })
	}
}
