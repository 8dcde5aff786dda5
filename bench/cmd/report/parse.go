package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
)

// The benchmarks the report reads.
const (
	benchFanout     = "Fanout"     // a fan-out of N typed calls: impl, n, mode
	benchDynamic    = "Dynamic"    // a loop that starts n children: impl, n, mode
	benchLoop       = "Loop"       // errgroup's loop over n inputs: impl, out, n, mode, limit
	benchStream     = "Stream"     // a stream of n inputs: impl, n, limit
	benchStreamHeap = "StreamHeap" // the heap of the same streams
	benchScale      = "Scale"      // costs that must not grow with n: impl, n, mode
)

var benchNames = []string{benchFanout, benchDynamic, benchLoop, benchStream, benchStreamHeap, benchScale}

// key names one sub-benchmark: BenchmarkFanout/impl=X/n=N/mode=M. mode
// holds the mode, then the name's other key=value parts in sorted order,
// joined by slashes (BenchmarkLoop/impl=X/out=err/n=N/mode=M/limit=8:
// "M/limit=8/out=err"); where the name has no mode, just the other parts
// (BenchmarkStream/impl=X/n=N/limit=8: "limit=8").
type key struct {
	impl string
	n    int
	mode string
}

// stat holds the medians of one benchmark.
type stat struct {
	ns, bytes, allocs float64
	metrics           map[string]float64 // the other units (peak-heap-B, held-heap-B)
	runs              int
	nsSample          *benchmath.Sample // for significance tests
}

// suite holds the results of one run, per benchmark name.
type suite map[string]*results

// of returns the results of one benchmark, empty if it was not run.
func (s suite) of(bench string) *results {
	if r := s[bench]; r != nil {
		return r
	}
	return &results{rows: map[key]stat{}}
}

// countPerName is the number of repetitions of each benchmark.
func (s suite) countPerName() int {
	for _, b := range benchNames {
		if n := s.of(b).countPerName(); n > 0 {
			return n
		}
	}
	return 0
}

// empty reports whether the run has no result at all.
func (s suite) empty() bool {
	for _, r := range s {
		if len(r.rows) > 0 {
			return false
		}
	}
	return true
}

type results struct {
	rows  map[key]stat
	impls []string // in the order of the output
	modes []string
	ns    []int
}

// row returns the medians of impl at n and mode, and whether they were
// measured.
func (r *results) row(impl string, n int, mode string) (stat, bool) {
	s, ok := r.rows[key{impl, n, mode}]
	return s, ok
}

func (r *results) countPerName() int {
	for _, s := range r.rows {
		return s.runs
	}
	return 0
}

// parse reads go test -bench output with benchfmt and takes the median of
// each metric with benchmath.
func parse(in io.Reader) (suite, error) {
	type named struct {
		bench string
		key
	}
	samples := map[named]map[string][]float64{}
	var order []named
	rd := benchfmt.NewReader(in, "bench")
	for rd.Scan() {
		res, ok := rd.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		base := string(res.Name.Base())
		k, ok := parseName(base, res.Name)
		if !ok {
			continue
		}
		nk := named{base, k}
		if samples[nk] == nil {
			samples[nk] = map[string][]float64{}
			order = append(order, nk)
		}
		for _, v := range res.Values {
			samples[nk][v.Unit] = append(samples[nk][v.Unit], v.Value)
		}
	}
	if err := rd.Err(); err != nil {
		return nil, err
	}
	s := suite{}
	median := func(xs []float64) float64 {
		if len(xs) == 0 {
			return 0
		}
		s := benchmath.NewSample(xs, &benchmath.DefaultThresholds)
		return benchmath.AssumeNothing.Summary(s, 0.95).Center
	}
	for _, nk := range order {
		r := s[nk.bench]
		if r == nil {
			r = &results{rows: map[key]stat{}}
			s[nk.bench] = r
		}
		k, m := nk.key, samples[nk]
		st := stat{ns: median(m["sec/op"]) * 1e9, bytes: median(m["B/op"]), allocs: median(m["allocs/op"]), runs: len(m["sec/op"]),
			nsSample: benchmath.NewSample(m["sec/op"], &benchmath.DefaultThresholds)}
		for unit, xs := range m {
			switch unit {
			case "sec/op", "B/op", "allocs/op":
			default:
				if st.metrics == nil {
					st.metrics = map[string]float64{}
				}
				st.metrics[unit] = median(xs)
			}
		}
		r.rows[k] = st
		if !slices.Contains(r.impls, k.impl) {
			r.impls = append(r.impls, k.impl)
		}
		if !slices.Contains(r.modes, k.mode) {
			r.modes = append(r.modes, k.mode)
		}
		if !slices.Contains(r.ns, k.n) {
			r.ns = append(r.ns, k.n)
		}
	}
	for _, r := range s {
		slices.Sort(r.ns)
	}
	return s, nil
}

// parseName reads the key=value parts of a benchmark name.
func parseName(base string, name benchfmt.Name) (key, bool) {
	if !slices.Contains(benchNames, base) {
		return key{}, false
	}
	_, parts := name.Parts()
	var k key
	var others []string
	for _, p := range parts {
		kv := strings.TrimPrefix(string(p), "/")
		kk, v, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		switch kk {
		case "impl":
			k.impl = v
		case "n":
			n, err := strconv.Atoi(v)
			if err != nil {
				return key{}, false
			}
			k.n = n
		case "mode":
			k.mode = v
		default:
			others = append(others, kv)
		}
	}
	slices.Sort(others)
	if k.mode != "" {
		others = append([]string{k.mode}, others...)
	}
	k.mode = strings.Join(others, "/")
	return k, k.impl != "" && k.n > 0 && k.mode != ""
}

// formatNs prints a duration in ns with a unit that fits.
func formatNs(ns float64) string {
	switch {
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.2f µs", ns/1e3)
	default:
		return fmt.Sprintf("%.2f ns", ns)
	}
}

// pValue is the probability that a and b's times come from the same
// distribution (Mann-Whitney U test, as benchstat uses).
func pValue(a, b stat) float64 {
	if a.nsSample == nil || b.nsSample == nil {
		return 0
	}
	return benchmath.AssumeNothing.Compare(a.nsSample, b.nsSample).P
}
