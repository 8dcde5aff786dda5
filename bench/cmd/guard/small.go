package main

import "regexp"

// smallRows are the benchmarks of small fan-outs: RunN and a task per
// function awaited, and every call over 16 functions or children. Their
// fixed cost is what a handler calling a few backends pays, and they are
// the steadiest rows of BenchmarkGuard (docs/guard.md): they are held to
// -small, a tighter ratio than -threshold.
var smallRows = regexp.MustCompile(`^op=(Run2|Run16|Go\+Await2|Go\+Await16|[^/]+/n=16(/.*)?)$`)

// thresholds are the ratios of median times, head over base, above which
// a benchmark is slower: small for smallRows, all for the others.
type thresholds struct{ all, small float64 }

// of is the threshold of the benchmark name.
func (t thresholds) of(name string) float64 {
	if smallRows.MatchString(name) {
		return t.small
	}
	return t.all
}
