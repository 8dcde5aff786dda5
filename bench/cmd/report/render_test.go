package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// sampleIssue13 has one result of each row issue 13's targets read, with
// times chosen so that some targets are met and some missed.
const sampleIssue13 = `goos: linux
cpu: Test CPU
BenchmarkFanout/impl=waitgroup/n=2/mode=immediate-2        1000   1000 ns/op   200 B/op   7 allocs/op
BenchmarkFanout/impl=floor/n=2/mode=immediate-2            1000    800 ns/op   128 B/op   2 allocs/op
BenchmarkFanout/impl=errgroup/n=2/mode=immediate-2         1000   1000 ns/op   232 B/op   7 allocs/op
BenchmarkFanout/impl=errgroup-ctx/n=2/mode=immediate-2     1000   2000 ns/op   328 B/op   9 allocs/op
BenchmarkFanout/impl=task-run/n=2/mode=immediate-2         1000    800 ns/op   192 B/op   2 allocs/op
BenchmarkFanout/impl=task-go-await/n=2/mode=immediate-2    1000   1100 ns/op   304 B/op   4 allocs/op
BenchmarkFanout/impl=waitgroup/n=16/mode=immediate-2       1000   8000 ns/op  1500 B/op  33 allocs/op
BenchmarkFanout/impl=floor/n=16/mode=immediate-2           1000   6000 ns/op  1200 B/op  16 allocs/op
BenchmarkFanout/impl=errgroup/n=16/mode=immediate-2        1000  10000 ns/op  1600 B/op  33 allocs/op
BenchmarkFanout/impl=errgroup-ctx/n=16/mode=immediate-2    1000  12000 ns/op  1700 B/op  35 allocs/op
BenchmarkFanout/impl=task-run/n=16/mode=immediate-2        1000   7000 ns/op  1300 B/op  16 allocs/op
BenchmarkFanout/impl=task-go-await/n=16/mode=immediate-2   1000  10000 ns/op  2400 B/op  32 allocs/op
BenchmarkFanout/impl=waitgroup/n=2/mode=yield-2            1000   1200 ns/op   200 B/op   7 allocs/op
BenchmarkFanout/impl=floor/n=2/mode=yield-2                1000   1000 ns/op   128 B/op   2 allocs/op
BenchmarkFanout/impl=errgroup/n=2/mode=yield-2             1000   1500 ns/op   232 B/op   7 allocs/op
BenchmarkFanout/impl=errgroup-ctx/n=2/mode=yield-2         1000   2400 ns/op   328 B/op   9 allocs/op
BenchmarkFanout/impl=task-run/n=2/mode=yield-2             1000   1300 ns/op   192 B/op   2 allocs/op
BenchmarkFanout/impl=task-go-await/n=2/mode=yield-2        1000   1400 ns/op   304 B/op   4 allocs/op
BenchmarkFanout/impl=waitgroup/n=16/mode=yield-2           1000   9000 ns/op  1500 B/op  33 allocs/op
BenchmarkFanout/impl=floor/n=16/mode=yield-2               1000   8000 ns/op  1200 B/op  16 allocs/op
BenchmarkFanout/impl=errgroup/n=16/mode=yield-2            1000  12000 ns/op  1600 B/op  33 allocs/op
BenchmarkFanout/impl=errgroup-ctx/n=16/mode=yield-2        1000  13000 ns/op  1700 B/op  35 allocs/op
BenchmarkFanout/impl=task-run/n=16/mode=yield-2            1000   8500 ns/op  1300 B/op  16 allocs/op
BenchmarkFanout/impl=task-go-await/n=16/mode=yield-2       1000   9000 ns/op  2400 B/op  32 allocs/op
BenchmarkScale/impl=task-wheneach/n=1000/mode=pending-2       100     100000 ns/op   41000 B/op   3 allocs/op
BenchmarkScale/impl=task-wheneach/n=100000/mode=pending-2       1   10000000 ns/op 4000000 B/op   4 allocs/op
BenchmarkScale/impl=task-wheneach/n=1000/mode=completed-2    1000       5000 ns/op     136 B/op   2 allocs/op
BenchmarkScale/impl=task-map/n=1000/mode=limit8-2             100      50000 ns/op   50.00 ns/input     33000 B/op   11 allocs/op
BenchmarkScale/impl=task-map/n=100000/mode=limit8-2             1    5400000 ns/op   54.00 ns/input   3200000 B/op   11 allocs/op
`

func TestRenderIssue13(t *testing.T) {
	s, err := parse(strings.NewReader(sampleIssue13))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tg := range append(targets(s.of(benchFanout)), scaleTargets(s.of(benchScale))...) {
		got = append(got, fmt.Sprintf("%v %s", tg.met, tg.what))
	}
	want := []string{
		"true Run2: at most 2 allocations (functions that ignore ctx)",
		"true Run16: at most 16 allocations (functions that ignore ctx)",
		"false Run16 at or under 0.85× errgroup and 1.1× the floor (mode=immediate)", // 1.17× the floor
		"true Run16 at or under 0.85× errgroup and 1.1× the floor (mode=yield)",
		"true Run2 at or under 0.5× errgroup.WithContext and 1.1× the floor (mode=immediate)",
		"false Run2 at or under 0.5× errgroup.WithContext and 1.1× the floor (mode=yield)", // 0.54× errgroup-ctx
		"true Go×2 + Await2 at or under 1.2× the hand-written WaitGroup (mode=immediate)",
		"false Go×16 + Await16 at or under 1.2× the hand-written WaitGroup (mode=immediate)", // 1.25×
		"true Go×2 + Await2 at or under 1.2× the hand-written WaitGroup (mode=yield)",
		"true Go×16 + Await16 at or under 1.2× the hand-written WaitGroup (mode=yield)",
		"true Go×2 + Await2: at most 2 allocations per task",
		"true Go×16 + Await16: at most 2 allocations per task",
		"true Run2's bytes per call within 64 B of the floor's (mode=immediate)",   // +64 B
		"false Run16's bytes per call within 64 B of the floor's (mode=immediate)", // +100 B
		"true WhenEach: at most 3 allocations per range (1,000 pending tasks)",
		"false WhenEach: at most 3 allocations per range (100,000 pending tasks)",
		"true WhenEach: at most 3 allocations per range (1,000 completed tasks)",
		"true Map's time per input at 10^5 inputs within 1.1× of that at 10^3 (limit 8)", // 1.08×
	}
	if !slices.Equal(got, want) {
		t.Errorf("targets:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	out := string(render(s, nil, env{}))
	for _, line := range []string{
		"| Method | Mean | Ratio | vs floor | Allocated | Alloc Ratio | Allocs |",
		"| floor | 6.00 µs | 0.75 | 1.00 / 1.00 | 1200 B | 0.80 | 16 |",
		"| **task-run** | 7.00 µs | 0.88 | 1.17 / 1.08 | 1300 B | 0.87 | 16 |",
		"| Run16 at or under 0.85× errgroup and 1.1× the floor (mode=immediate) | 7.00 µs: 0.70× errgroup (10.00 µs), 1.17× floor (6.00 µs); 0.58× errgroup-ctx (12.00 µs) | **missed** |",
		"| Run16's bytes per call within 64 B of the floor's (mode=immediate) | 1300 B/op vs floor 1200 B/op: +100 B | **missed** |",
		"| Map's time per input at 10^5 inputs within 1.1× of that at 10^3 (limit 8) | 54.00 ns vs 50.00 ns = 1.08× | met |",
		"| **task-wheneach** | pending | 100,000 | 10.00 ms | 100.00 ns | 4000000 B | 4 |",
		"- " + run16Why,
		"- " + whenEachWhy,
	} {
		if !strings.Contains(out, line+"\n") {
			t.Errorf("no line %q in:\n%s", line, out)
		}
	}
	// The why of a met target is not listed.
	if strings.Contains(out, mapScaleWhy) {
		t.Errorf("the why of a met target is listed:\n%s", out)
	}
}
