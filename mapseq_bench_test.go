package task

import (
	"context"
	"testing"
)

// The benchmarks below each run one form over 1,000 inputs at limit 8 with
// a function that returns at once, so that callgrind counts each form's
// instructions per input on its own: run one with -test.benchtime 20x and
// 40x, and divide the difference by 20,000.

const seqBenchN = 1_000

func seqBenchInputs(yield func(int) bool) {
	for i := range seqBenchN {
		if !yield(i) {
			return
		}
	}
}

func seqBenchFn(_ context.Context, x int) (int, error) { return x, nil }

func BenchmarkSeqFormMap(b *testing.B) {
	ctx := context.Background()
	in := make([]int, seqBenchN)
	for range b.N {
		Map(ctx, in, 8, seqBenchFn)
	}
}

func BenchmarkSeqFormMapSeq(b *testing.B) {
	ctx := context.Background()
	for range b.N {
		for _, err := range MapSeq(ctx, seqBenchInputs, 8, seqBenchFn) {
			if err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkSeqFormMapSeqUnordered(b *testing.B) {
	ctx := context.Background()
	for range b.N {
		for _, err := range MapSeqUnordered(ctx, seqBenchInputs, 8, seqBenchFn) {
			if err != nil {
				b.Fatal(err)
			}
		}
	}
}
