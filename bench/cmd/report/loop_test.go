package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// sampleLoop has rows of both forms at 16 inputs, with times chosen so that
// some targets are met and some missed; the floor is measured in the out=err
// form only.
const sampleLoop = `goos: linux
cpu: Test CPU
BenchmarkLoop/impl=floor/out=err/n=16/mode=immediate/limit=none-2                   1000    5000 ns/op    600 B/op   2 allocs/op
BenchmarkLoop/impl=errgroup-ctx/out=err/n=16/mode=immediate/limit=none-2            1000   10000 ns/op   1600 B/op  34 allocs/op
BenchmarkLoop/impl=task-scope-go/out=err/n=16/mode=immediate/limit=none-2           1000    8500 ns/op   1200 B/op  17 allocs/op
BenchmarkLoop/impl=task-foreach/out=err/n=16/mode=immediate/limit=none-2            1000    5000 ns/op    400 B/op   5 allocs/op
BenchmarkLoop/impl=errgroup-ctx/out=slice/n=16/mode=immediate/limit=none-2          1000   11000 ns/op   1800 B/op  35 allocs/op
BenchmarkLoop/impl=task-scope-spawn-all/out=slice/n=16/mode=immediate/limit=none-2  1000   15000 ns/op   3000 B/op  36 allocs/op
BenchmarkLoop/impl=task-map/out=slice/n=16/mode=immediate/limit=none-2              1000    4000 ns/op    500 B/op   5 allocs/op
BenchmarkLoop/impl=errgroup-ctx/out=err/n=16/mode=immediate/limit=8-2               1000   10000 ns/op   1600 B/op  34 allocs/op
BenchmarkLoop/impl=task-scope-go/out=err/n=16/mode=immediate/limit=8-2              1000    9500 ns/op   1300 B/op  18 allocs/op
`

func TestLoopReport(t *testing.T) {
	s, err := parse(strings.NewReader(sampleLoop))
	if err != nil {
		t.Fatal(err)
	}
	r := s.of(benchLoop)
	if st, ok := r.row("task-scope-go", 16, "immediate/limit=none/out=err"); !ok || st.ns != 8500 {
		t.Fatalf("row of task-scope-go, out=err, limit=none: %+v, %v; want 8500 ns", st, ok)
	}
	var got []string
	for _, tg := range loopTargets(r) {
		got = append(got, fmt.Sprintf("%v %s", tg.met, tg.what))
	}
	want := []string{
		"true Scope + g.Go, children that return only an error, at or under errgroup.WithContext's loop (0.9× with a limit) (16 inputs, mode=immediate, limit=none)",                                       // 0.85×
		"false Scope + g.Go, children that return only an error, at or under errgroup.WithContext's loop (0.9× with a limit) (16 inputs, mode=immediate, limit=8)",                                         // 0.95×
		"false Scope + Spawn + All at or under 1.3× errgroup.WithContext's loop writing each value to its index at 16 children, 1.2× at 1,000 (0.9× with a limit) (16 inputs, mode=immediate, limit=none)", // 1.36×
		"false ForEach within 1.1× of Map's time (16 inputs, mode=immediate, limit=none)",                                                                                                                  // 1.25×
	}
	if !slices.Equal(got, want) {
		t.Errorf("targets:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	out := string(render(s, nil, env{}))
	for _, line := range []string{
		"## The loop",
		"### Children that return at once, no limit (mode=immediate, limit=none)",
		"### Children that return at once, at most 8 at once (mode=immediate, limit=8)",
		"| Method | Out | Mean | Per input | Ratio | vs floor | Allocated | Alloc Ratio | Allocs | Allocs per input |",
		"| **task-scope-go** | err | 8.50 µs | 531.25 ns | 0.85 | 1.70 / 2.00 | 1200 B | 0.75 | 17 | 1.06 |",
		"| **task-map** | slice | 4.00 µs | 250.00 ns | 0.36 | - | 500 B | 0.28 | 5 | 0.31 |",
		"| Scope + g.Go, children that return only an error, at or under errgroup.WithContext's loop (0.9× with a limit) (16 inputs, mode=immediate, limit=none) | 8.50 µs vs 10.00 µs = 0.85×; allocations 17 vs 34, bytes 1200 vs 1600 | met |",
		"- `task-foreach`: " + loopNotes["task-foreach"],
	} {
		if !strings.Contains(out, line+"\n") {
			t.Errorf("no line %q in:\n%s", line, out)
		}
	}
	// The table at limit=8 has no floor column: no floor was measured there.
	if !strings.Contains(out, "| **task-scope-go** | err | 9.50 µs | 593.75 ns | 0.95 | 1300 B | 0.81 | 18 | 1.12 |\n") {
		t.Errorf("no limit=8 row without a floor column in:\n%s", out)
	}
	for _, impl := range r.impls {
		if loopNotes[impl] == "" {
			t.Errorf("no note for %s", impl)
		}
	}
}
