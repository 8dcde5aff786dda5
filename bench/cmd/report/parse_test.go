package main

import (
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
	r, err := parse(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	wg := r.rows[key{"waitgroup", 2, "immediate"}]
	tr := r.rows[key{"task-run", 2, "immediate"}]
	near := func(a, b float64) bool { return a > b*0.999999 && a < b*1.000001 }
	if !near(wg.ns, 2000) || !near(tr.ns, 600) || tr.allocs != 2 || wg.bytes != 200 || wg.runs != 3 {
		t.Fatalf("medians: waitgroup %+v, task-run %+v", wg, tr)
	}
	if len(r.rows) != 2 || len(r.impls) != 2 || r.impls[0] != "waitgroup" {
		t.Fatalf("rows %v, impls %v", r.rows, r.impls)
	}
	out := string(tablesOnly(r))
	if !strings.Contains(out, "| **task-run** | 600.00 ns | 0.30 | 240 B | 1.20 | 2 |") {
		t.Errorf("table:\n%s", out)
	}
}
