package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

const sample = `goos: linux
goarch: amd64
cpu: Test CPU
BenchmarkFanout/impl=waitgroup/n=2/mode=immediate-2    1000   1000 ns/op   200 B/op   7 allocs/op
BenchmarkFanout/impl=waitgroup/n=2/mode=immediate-2    1000   3000 ns/op   200 B/op   7 allocs/op
BenchmarkFanout/impl=waitgroup/n=2/mode=immediate-2    1000   2000 ns/op   200 B/op   7 allocs/op
BenchmarkFanout/impl=task-run/n=2/mode=immediate-2     1000    500 ns/op   240 B/op   2 allocs/op
BenchmarkFanout/impl=task-run/n=2/mode=immediate-2     1000    700 ns/op   240 B/op   2 allocs/op
BenchmarkFanout/impl=task-run/n=2/mode=immediate-2     1000    600 ns/op   240 B/op   2 allocs/op
BenchmarkOther-2 10 5 ns/op
`

func TestParseMedians(t *testing.T) {
	s, err := parse(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	r := s.of(benchFanout)
	wg := r.rows[key{"waitgroup", 2, "immediate"}]
	tr := r.rows[key{"task-run", 2, "immediate"}]
	near := func(a, b float64) bool { return a > b*0.999999 && a < b*1.000001 }
	if !near(wg.ns, 2000) || !near(tr.ns, 600) || tr.allocs != 2 || wg.bytes != 200 || wg.runs != 3 {
		t.Fatalf("medians: waitgroup %+v, task-run %+v", wg, tr)
	}
	if len(r.rows) != 2 || len(r.impls) != 2 || r.impls[0] != "waitgroup" {
		t.Fatalf("rows %v, impls %v", r.rows, r.impls)
	}
	out := string(tablesOnly(s))
	if !strings.Contains(out, "| **task-run** | 600.00 ns | 0.30 | 240 B | 1.20 | 2 |") {
		t.Errorf("table:\n%s", out)
	}
}

const sampleNew = `goos: linux
cpu: Test CPU
BenchmarkDynamic/impl=errgroup-ctx/n=16/mode=immediate-2   1000   10000 ns/op   1700 B/op   40 allocs/op
BenchmarkDynamic/impl=task-scope/n=16/mode=immediate-2     1000    7000 ns/op   3000 B/op   30 allocs/op
BenchmarkDynamic/impl=errgroup-ctx/n=1000/mode=immediate-2   10   500000 ns/op   96000 B/op   2000 allocs/op
BenchmarkDynamic/impl=task-scope/n=1000/mode=immediate-2     10   450000 ns/op   190000 B/op   2000 allocs/op
BenchmarkStream/impl=pipeline/n=1000/limit=8-2       100   500000 ns/op   10000 B/op   60 allocs/op
BenchmarkStream/impl=task-mapseq/n=1000/limit=8-2    100   400000 ns/op   50000 B/op   1000 allocs/op
BenchmarkStream/impl=task-map/n=1000/limit=8-2       100   300000 ns/op   34000 B/op     28 allocs/op
BenchmarkStream/impl=task-mapseq-unordered/n=1000/limit=8-2    100   500000 ns/op   1700 B/op   22 allocs/op
BenchmarkStreamHeap/impl=task-mapseq/n=1000/limit=8-2      100   400000 ns/op   2760 held-heap-B   50000 peak-heap-B   50000 B/op   1000 allocs/op
BenchmarkStreamHeap/impl=task-mapseq/n=1000000/limit=8-2     1   400000000 ns/op   1752 held-heap-B   3800000 peak-heap-B   48000000 B/op   1000000 allocs/op
`

func TestParseDynamicAndStream(t *testing.T) {
	s, err := parse(strings.NewReader(sampleNew))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.of(benchFanout).rows) != 0 || len(s.of(benchDynamic).rows) != 4 || len(s.of(benchStream).rows) != 4 {
		t.Fatalf("rows: fanout %d, dynamic %d, stream %d; want 0, 4, 4",
			len(s.of(benchFanout).rows), len(s.of(benchDynamic).rows), len(s.of(benchStream).rows))
	}
	h, ok := s.of(benchStreamHeap).rows[key{"task-mapseq", 1_000_000, "limit=8"}]
	if !ok || h.metrics["held-heap-B"] != 1752 || h.metrics["peak-heap-B"] != 3800000 {
		t.Fatalf("heap row %+v, %v; want held 1752 and peak 3800000", h, ok)
	}
	out := string(tablesOnly(s))
	for _, want := range []string{
		"| **task-scope** | 7.00 µs | 437.50 ns | 0.70 | 3000 B | 1.76 | 30 | 1.88 |",
		"| **task-mapseq** | input | 400.00 µs | 400.00 ns | 0.80 | 50000 B | 5.00 | 1000 | 48.8 KiB | 2.7 KiB |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no line %q in:\n%s", want, out)
		}
	}
	var got []string
	for _, tg := range append(dynamicTargets(s.of(benchDynamic)), streamTargets(s.of(benchStream), s.of(benchStreamHeap))...) {
		got = append(got, fmt.Sprintf("%v %s", tg.met, tg.what))
	}
	want := []string{
		"true Scope at or under 0.8× errgroup.WithContext's time and allocations at 16 children (mode=immediate)",
		"false Scope at or under 0.8× errgroup.WithContext's time and allocations at 1,000 children (mode=immediate)",
		"true MapSeq's time per input at or under 1.5× Map's (10^3 inputs; limit=8)",           // 1.33×
		"false MapSeqUnordered's time per input at or under 1.5× Map's (10^3 inputs; limit=8)", // 1.67×
		"true MapSeq's heap flat over 10^6 inputs (peak; limit=8)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("targets:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
