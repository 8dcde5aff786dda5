package main

import (
	"fmt"
	"os"
)

// The table of a run of 10 rounds, on made-up measurements: a call as fast
// as at the baseline, one that got 3x slower, and one with an allocation
// more. docs/guard.md shows this output.
func Example_table() {
	base := output(
		bench{"op=Run2-2", spread(10, 750), times(10, 2)},
		bench{"op=Map/n=16/limit=8-2", spread(10, 4100), times(10, 10)},
		bench{"op=Scope+Spawn+All/n=16/limit=none-2", spread(10, 8400), times(10, 36)},
	)
	head := output(
		bench{"op=Run2-2", spread(10, 752), times(10, 2)},
		bench{"op=Map/n=16/limit=8-2", spread(10, 4150), times(10, 11)},
		bench{"op=Scope+Spawn+All/n=16/limit=none-2", spread(10, 28400), times(10, 36)},
	)
	cfg := config{rounds: 10, benchtime: "100ms", threshold: 1.3, small: 1.1, alpha: 0.01, cpu: 1}
	rows, err := compareOutputs(base, head, cfg.thresholds(), cfg.alpha)
	if err != nil {
		fmt.Println(err)
		return
	}
	render(os.Stdout, rows, cfg)
	// Output:
	// BenchmarkGuard: medians of 10 rounds at -benchtime 100ms, GOMAXPROCS 1
	// ratio: head/base of the times; p: Mann-Whitney U test of the times
	// slower: ratio > 1.3 (1.1 for the small fan-outs: Run2, Run16, Go+Await2, Go+Await16, n=16) and p < 0.01; more allocs: head's median allocs/op above base's
	//
	// benchmark                              base     head  ratio       p  allocs/op  verdict
	// op=Run2                             750.5ns  752.5ns  1.00x   0.186      2 → 2  ok
	// op=Map/n=16/limit=8                 4.101µs  4.151µs  1.01x  <0.001    10 → 11  more allocs
	// op=Scope+Spawn+All/n=16/limit=none  8.401µs  28.40µs  3.38x  <0.001    36 → 36  slower
	//
	// largest ratio: 3.38x (op=Scope+Spawn+All/n=16/limit=none, p <0.001)
	// guard: FAIL: of 3 benchmarks, 1 slower than 1.3x (the small fan-outs 1.1x) at p < 0.01, 1 allocate more
	// guard: if that is meant, put the commit in .ci/baseline once landed (docs/guard.md)
}
