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

// key names one benchmark: BenchmarkFanout/impl=X/n=N/mode=M.
type key struct {
	impl string
	n    int
	mode string
}

// stat holds the medians of one benchmark.
type stat struct {
	ns, bytes, allocs float64
	runs              int
	nsSample          *benchmath.Sample // for significance tests
}

type results struct {
	rows  map[key]stat
	impls []string // in the order of the output
	modes []string
	ns    []int
}

func (r *results) countPerName() int {
	for _, s := range r.rows {
		return s.runs
	}
	return 0
}

// parse reads go test -bench output with benchfmt and takes the median of
// each metric with benchmath.
func parse(in io.Reader) (*results, error) {
	samples := map[key]map[string][]float64{}
	var order []key
	rd := benchfmt.NewReader(in, "bench")
	for rd.Scan() {
		res, ok := rd.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		k, ok := parseName(string(res.Name.Base()), res.Name)
		if !ok {
			continue
		}
		if samples[k] == nil {
			samples[k] = map[string][]float64{}
			order = append(order, k)
		}
		for _, v := range res.Values {
			samples[k][v.Unit] = append(samples[k][v.Unit], v.Value)
		}
	}
	if err := rd.Err(); err != nil {
		return nil, err
	}
	r := &results{rows: map[key]stat{}}
	median := func(xs []float64) float64 {
		if len(xs) == 0 {
			return 0
		}
		s := benchmath.NewSample(xs, &benchmath.DefaultThresholds)
		return benchmath.AssumeNothing.Summary(s, 0.95).Center
	}
	for _, k := range order {
		m := samples[k]
		r.rows[k] = stat{ns: median(m["sec/op"]) * 1e9, bytes: median(m["B/op"]), allocs: median(m["allocs/op"]), runs: len(m["sec/op"]),
			nsSample: benchmath.NewSample(m["sec/op"], &benchmath.DefaultThresholds)}
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
	slices.Sort(r.ns)
	return r, nil
}

// parseName reads the key=value parts of a benchmark name.
func parseName(base string, name benchfmt.Name) (key, bool) {
	if base != "Fanout" {
		return key{}, false
	}
	_, parts := name.Parts()
	var k key
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
		}
	}
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
