package main

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// A bench is the made-up measurements of one benchmark on one side: its
// ns/op and allocs/op in each round.
type bench struct {
	name       string
	ns, allocs []float64
}

// output returns the go test -bench output of the rounds of one side: per
// round, a line of each benchmark, in the order given (a benchmark with
// fewer values is missing from the later rounds).
func output(benchmarks ...bench) []byte {
	var b strings.Builder
	rounds := 0
	for _, m := range benchmarks {
		rounds = max(rounds, len(m.ns))
	}
	for r := range rounds {
		b.WriteString("goos: linux\ngoarch: amd64\npkg: github.com/tasktuple/task/bench/guard\ncpu: AMD EPYC\n")
		for _, m := range benchmarks {
			if r < len(m.ns) {
				fmt.Fprintf(&b, "BenchmarkGuard/%s \t 1000\t %g ns/op\t 64 B/op\t %g allocs/op\n", m.name, m.ns[r], m.allocs[r])
			}
		}
		b.WriteString("PASS\n")
	}
	return []byte(b.String())
}

// times returns n times of v.
func times(n int, v float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// spread returns n values around v: v, v+1, v-1, v+2, ...; constant for
// none.
func spread(n int, v float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		d := float64((i + 1) / 2)
		if i%2 == 0 {
			d = -d
		}
		s[i] = v + d
	}
	return s
}

func TestCompare(t *testing.T) {
	const threshold, alpha = 1.25, 0.05
	for _, tt := range []struct {
		name       string
		base, head [2][]float64 // ns/op and allocs/op per round
		verdict    string
		allocsVary bool
	}{
		{"same", [2][]float64{spread(10, 1000), times(10, 3)}, [2][]float64{spread(10, 1000), times(10, 3)}, "ok", false},
		{"1.5x slower", [2][]float64{spread(10, 1000), times(10, 3)}, [2][]float64{spread(10, 1500), times(10, 3)}, "slower", false},
		{"faster", [2][]float64{spread(10, 1500), times(10, 3)}, [2][]float64{spread(10, 1000), times(10, 3)}, "ok", false},
		{"1.2x slower, under the threshold", [2][]float64{spread(10, 1000), times(10, 3)}, [2][]float64{spread(10, 1200), times(10, 3)}, "ok", false},
		{"1.5x slower in 3 rounds, too few for p < alpha", [2][]float64{spread(3, 1000), times(3, 3)}, [2][]float64{spread(3, 1500), times(3, 3)}, "ok", false},
		{"1.5x slower in 4 rounds", [2][]float64{spread(4, 1000), times(4, 3)}, [2][]float64{spread(4, 1500), times(4, 3)}, "slower", false},
		{"a median 1.36x but the times overlap",
			[2][]float64{{100, 200, 300, 400, 500, 600, 700, 800, 900, 1000}, times(10, 3)},
			[2][]float64{{100, 200, 300, 400, 600, 900, 1000, 1100, 1200, 1300}, times(10, 3)}, "ok", false},
		{"one alloc more, in one round", [2][]float64{{1000}, {3}}, [2][]float64{{1000}, {4}}, "more allocs", false},
		{"one alloc more, every round", [2][]float64{spread(10, 1000), times(10, 3)}, [2][]float64{spread(10, 1000), times(10, 4)}, "more allocs", false},
		{"one alloc fewer", [2][]float64{spread(10, 1000), times(10, 4)}, [2][]float64{spread(10, 1000), times(10, 3)}, "ok", false},
		{"slower and one alloc more", [2][]float64{spread(10, 1000), times(10, 3)}, [2][]float64{spread(10, 2000), times(10, 4)}, "slower, more allocs", false},
		{"varying counts, a higher median by chance",
			[2][]float64{spread(10, 1000), {1033, 1037, 1038, 1045, 1036, 1040, 1034, 1039, 1041, 1035}},
			[2][]float64{spread(10, 1000), {1034, 1038, 1039, 1045, 1037, 1040, 1035, 1041, 1042, 1036}}, "ok", true},
		{"varying counts, clearly more",
			[2][]float64{spread(10, 1000), spread(10, 1035)},
			[2][]float64{spread(10, 1000), spread(10, 2035)}, "more allocs", true},
		{"varying on one side only, more",
			[2][]float64{spread(10, 1000), times(10, 1002)},
			[2][]float64{spread(10, 1000), spread(10, 1010)}, "more allocs", true},
	} {
		base := output(bench{"op=X-2", tt.base[0], tt.base[1]})
		head := output(bench{"op=X-2", tt.head[0], tt.head[1]})
		rows, err := compareOutputs(base, head, thresholds{threshold, threshold}, alpha)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if len(rows) != 1 || rows[0].name != "op=X" {
			t.Fatalf("%s: compareOutputs(...) = %+v; want one row, op=X", tt.name, rows)
		}
		r := rows[0]
		if r.verdict() != tt.verdict || r.allocsVary != tt.allocsVary {
			t.Errorf("%s: verdict %q, allocsVary %v (ratio %.2f, p %.4f, allocs %g → %g); want %q, %v",
				tt.name, r.verdict(), r.allocsVary, r.ratio, r.p, r.base.allocs, r.head.allocs, tt.verdict, tt.allocsVary)
		}
		if r.fired() != (tt.verdict != "ok") {
			t.Errorf("%s: fired() = %v with verdict %q", tt.name, r.fired(), r.verdict())
		}
	}
}

func TestCompareMedians(t *testing.T) {
	base := output(bench{"op=Map/n=16/limit=8-2", []float64{900, 1000, 5000}, []float64{3, 3, 3}})
	head := output(bench{"op=Map/n=16/limit=8-2", []float64{1100, 1200, 1300, 1400}, []float64{4, 5, 6, 7}})
	rows, err := compareOutputs(base, head, thresholds{1.25, 1.25}, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	// benchfmt reads ns/op as sec/op: the nanoseconds come back within
	// a rounding error.
	near := func(x, y float64) bool { return math.Abs(x-y) <= 1e-9*y }
	r := rows[0]
	if !near(r.base.ns, 1000) || r.base.allocs != 3 || r.base.runs != 3 ||
		!near(r.head.ns, 1250) || r.head.allocs != 5.5 || r.head.runs != 4 || !near(r.ratio, 1.25) {
		t.Errorf("medians: base %+v, head %+v, ratio %v; want {1000 3 3}, {1250 5.5 4}, 1.25", r.base, r.head, r.ratio)
	}
}

func TestCompareNames(t *testing.T) {
	base := "BenchmarkOther-2 \t 1000\t 5 ns/op\nBenchmarkGuard/op=Run2-2 \t 1000\t 5 ns/op\t 0 B/op\t 2 allocs/op\n" +
		"BenchmarkGuard/op=Gone-2 \t 1000\t 5 ns/op\t 0 B/op\t 2 allocs/op\n"
	head := "BenchmarkGuard/op=New/n=16-2 \t 1000\t 5 ns/op\t 0 B/op\t 2 allocs/op\nBenchmarkGuard/op=Run2-2 \t 1000\t 5 ns/op\t 0 B/op\t 2 allocs/op\n"
	rows, err := compareOutputs([]byte(base), []byte(head), thresholds{1.25, 1.25}, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		got = append(got, r.name+": "+r.verdict())
		if r.fired() {
			t.Errorf("%s fired: %q", r.name, r.verdict())
		}
	}
	want := []string{"op=Run2: ok", "op=Gone: only in base", "op=New/n=16: only in head"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("rows %q; want %q", got, want)
	}
	if r := rows[1]; !math.IsNaN(r.ratio) || !math.IsNaN(r.p) {
		t.Errorf("op=Gone: ratio %v, p %v; want NaN, NaN", r.ratio, r.p)
	}
}

func TestCompareSyntaxError(t *testing.T) {
	bad := []byte("BenchmarkGuard/op=Run2-2 \t 1000\t five ns/op\n")
	if _, err := compareOutputs(bad, bad, thresholds{1.25, 1.25}, 0.05); err == nil {
		t.Error("compareOutputs of a line with a bad value: no error")
	}
}

// TestSmallRows: the small fan-outs are held to -small, the others to
// -threshold.
func TestSmallRows(t *testing.T) {
	const alpha = 0.01
	th := thresholds{all: 1.3, small: 1.1}
	for _, tt := range []struct {
		name  string
		small bool
	}{
		{"op=Run2", true},
		{"op=Run16", true},
		{"op=Go+Await2", true},
		{"op=Go+Await16", true},
		{"op=Map/n=16/limit=8", true},
		{"op=NewGroup+Go+Wait/n=16/limit=none", true},
		{"op=Scope+Spawn+All/n=16/limit=8", true},
		{"op=Await2", false},
		{"op=Await16", false},
		{"op=Map/n=1000/limit=8", false},
		{"op=NewGroup+Go+Wait/n=1000/limit=none", false},
		{"op=Run24", false},
		{"op=Map/n=160/limit=8", false},
	} {
		if got := smallRows.MatchString(tt.name); got != tt.small {
			t.Errorf("smallRows.MatchString(%q) = %v; want %v", tt.name, got, tt.small)
		}
		// 1.15x slower in every round: slower where the threshold is 1.1.
		base := output(bench{tt.name + "-2", spread(10, 1000), times(10, 3)})
		head := output(bench{tt.name + "-2", spread(10, 1150), times(10, 3)})
		rows, err := compareOutputs(base, head, th, alpha)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != 1 || rows[0].slower != tt.small {
			t.Errorf("%s 1.15x slower: rows %+v; want slower %v", tt.name, rows, tt.small)
		}
	}
}
