package main

import (
	"bytes"
	"math"
	"slices"
	"strings"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
)

// benchName is the benchmark the guard compares; its sub-benchmarks are
// the rows. benchfmt names it without the prefix Benchmark.
const benchName = "BenchmarkGuard"

// samples holds the measurements of one benchmark over the rounds of one
// side.
type samples struct {
	sec    []float64 // time per operation, in seconds (benchfmt's tidied ns/op)
	allocs []float64 // allocations per operation
}

// stats are the medians of one benchmark on one side.
type stats struct {
	ns     float64 // median time per operation, in nanoseconds
	allocs float64 // median allocations per operation
	runs   int     // measurements: one per round; 0 when the side lacks the benchmark
}

// A row is the comparison of one benchmark.
type row struct {
	name        string  // the sub-benchmark: op=Map/n=1000/limit=8
	base, head  stats   // the medians of each side
	ratio       float64 // head.ns / base.ns
	p           float64 // the Mann-Whitney U test's p-value of the two sides' times
	slower      bool    // ratio > its threshold and p < alpha (and again in the confirmation, if there was one)
	unconfirmed bool    // slower in the first run, not in the confirmation
	moreAllocs  bool    // head.allocs > base.allocs, and if allocsVary, p < alpha for the counts too
	allocsVary  bool    // a side's allocs/op was not the same in every round
	warnings    []error // the test's: too few rounds to reach alpha
}

// fired reports whether the row fails the guard.
func (r row) fired() bool { return r.slower || r.moreAllocs }

// verdict is the row's verdict as the table shows it.
func (r row) verdict() string {
	switch {
	case r.base.runs == 0:
		return "only in head"
	case r.head.runs == 0:
		return "only in base"
	case r.slower && r.moreAllocs:
		return "slower, more allocs"
	case r.slower:
		return "slower"
	case r.moreAllocs:
		return "more allocs"
	case r.unconfirmed:
		return "ok (not confirmed)"
	}
	return "ok"
}

// compareOutputs parses the outputs of the two sides' rounds (go test
// -bench's format) and compares them benchmark by benchmark.
func compareOutputs(base, head []byte, th thresholds, alpha float64) ([]row, error) {
	b, order, err := parse(base)
	if err != nil {
		return nil, err
	}
	h, headOrder, err := parse(head)
	if err != nil {
		return nil, err
	}
	for _, name := range headOrder {
		if b[name] == nil {
			order = append(order, name)
		}
	}
	return compare(b, h, order, th, alpha), nil
}

// parse reads the results of BenchmarkGuard in out with benchfmt, and
// returns each sub-benchmark's samples, by name without the benchmark's
// own name and GOMAXPROCS (op=Run2), and the names in their first order.
func parse(out []byte) (map[string]*samples, []string, error) {
	byName := map[string]*samples{}
	var order []string
	rd := benchfmt.NewReader(bytes.NewReader(out), "")
	for rd.Scan() {
		var res *benchfmt.Result
		switch rec := rd.Result().(type) {
		case *benchfmt.SyntaxError:
			return nil, nil, rec
		case *benchfmt.Result:
			res = rec
		default:
			continue
		}
		if "Benchmark"+string(res.Name.Base()) != benchName {
			continue
		}
		_, parts := res.Name.Parts()
		var name strings.Builder
		for _, p := range parts {
			if p[0] == '/' {
				name.Write(p[1:])
				name.WriteByte('/')
			}
		}
		key := strings.TrimSuffix(name.String(), "/")
		s := byName[key]
		if s == nil {
			s = &samples{}
			byName[key] = s
			order = append(order, key)
		}
		if v, ok := res.Value("sec/op"); ok {
			s.sec = append(s.sec, v)
		}
		if v, ok := res.Value("allocs/op"); ok {
			s.allocs = append(s.allocs, v)
		}
	}
	return byName, order, rd.Err()
}

// compare compares the benchmarks named in order, as measured on the two
// sides. A benchmark is slower when the ratio of the medians of its times,
// head over base, exceeds its threshold and the Mann-Whitney U test (which
// assumes nothing of the times' distribution) gives p < alpha.
//
// It allocates more when head's median allocs/op exceeds base's. Where
// each side counted the same in every round, the medians are compared as
// they are: a single allocation more is a verdict. Where a count varied
// between rounds, the same U test must also give p < alpha for the counts.
//
// The counts vary with more than one P (-cpu 2), with how the goroutines
// interleave. In four runs of one binary at GOMAXPROCS 2,
// Scope+Spawn+All/n=1000/limit=8 counted 1,022 to 1,048 allocs/op, and
// Map/n=1000/limit=none 1,002 to 1,026. Compared as they are, the medians
// of such counts are higher on one side or the other as often as not, and
// with three such rows a commit fails against itself in most runs. At
// GOMAXPROCS 1, the guard's default, every count was the same in four runs
// of every benchmark. The test is no full cure at GOMAXPROCS 2: a count
// that varies by one (29 or 30 allocs/op) can be the same in every round
// of a short run by chance, and is then compared as it is.
func compare(base, head map[string]*samples, order []string, limits thresholds, alpha float64) []row {
	th := &benchmath.Thresholds{CompareAlpha: alpha}
	rows := make([]row, 0, len(order))
	for _, name := range order {
		r := row{name: name, ratio: math.NaN(), p: math.NaN()}
		b, h := base[name], head[name]
		if b != nil {
			r.base = summarize(b, th)
		}
		if h != nil {
			r.head = summarize(h, th)
		}
		if r.base.runs > 0 && r.head.runs > 0 {
			c := benchmath.AssumeNothing.Compare(benchmath.NewSample(slices.Clone(b.sec), th),
				benchmath.NewSample(slices.Clone(h.sec), th))
			r.p, r.warnings = c.P, c.Warnings
			r.ratio = r.head.ns / r.base.ns
			r.slower = r.ratio > limits.of(name) && r.p < alpha
			r.allocsVary = !constant(b.allocs) || !constant(h.allocs)
			r.moreAllocs = r.head.allocs > r.base.allocs
			if r.moreAllocs && r.allocsVary {
				c := benchmath.AssumeNothing.Compare(benchmath.NewSample(slices.Clone(b.allocs), th),
					benchmath.NewSample(slices.Clone(h.allocs), th))
				r.moreAllocs = c.P < alpha
				r.warnings = append(r.warnings, c.Warnings...)
			}
		}
		rows = append(rows, r)
	}
	return rows
}

// summarize returns the medians of s.
func summarize(s *samples, th *benchmath.Thresholds) stats {
	return stats{
		ns:     median(s.sec, th) * 1e9,
		allocs: median(s.allocs, th),
		runs:   len(s.sec),
	}
}

// constant reports whether xs holds one value, or none.
func constant(xs []float64) bool {
	for _, x := range xs {
		if x != xs[0] {
			return false
		}
	}
	return true
}

// median is benchmath's median of xs (the mean of the middle two for an
// even count); 0 for none.
func median(xs []float64, th *benchmath.Thresholds) float64 {
	if len(xs) == 0 {
		return 0
	}
	return benchmath.AssumeNothing.Summary(benchmath.NewSample(slices.Clone(xs), th), 0.95).Center
}
