package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/perf/benchunit"
)

// render writes the comparison for a CI log: what the verdicts mean, a
// table of every benchmark, the notes of the statistics, the largest ratio
// and a summary line. It reports whether a verdict fired.
func render(w io.Writer, rows []row, cfg config) (fired bool) {
	renderTable(w, rows, cfg, "-rounds", cfg.rounds)
	var slower, moreAllocs int
	for _, r := range rows {
		if r.slower {
			slower++
		}
		if r.moreAllocs {
			moreAllocs++
		}
	}
	if slower+moreAllocs == 0 {
		fmt.Fprintf(w, "guard: ok: none of %d benchmarks slower than %s at p < %g, none allocates more\n",
			len(rows), cfg.limits(), cfg.alpha)
		return false
	}
	fmt.Fprintf(w, "guard: FAIL: of %d benchmarks, %d slower than %s at p < %g, %d allocate more\n",
		len(rows), slower, cfg.limits(), cfg.alpha, moreAllocs)
	fmt.Fprintf(w, "guard: if that is meant, put the commit in %s once landed (docs/guard.md)\n", baselineFile)
	return true
}

// renderTable writes what the verdicts mean, a table of rows measured in
// rounds rounds (set by the flag named flag), the notes of the statistics
// and the largest ratio.
func renderTable(w io.Writer, rows []row, cfg config, flag string, rounds int) {
	fmt.Fprintf(w, "%s: medians of %d rounds at -benchtime %s, GOMAXPROCS %d\n", benchName, rounds, cfg.benchtime, cfg.cpu)
	fmt.Fprintf(w, "ratio: head/base of the times; p: Mann-Whitney U test of the times\n")
	small := ""
	if cfg.small != cfg.threshold {
		small = fmt.Sprintf(" (%g for the small fan-outs: Run2, Run16, Go+Await2, Go+Await16, n=16)", cfg.small)
	}
	fmt.Fprintf(w, "slower: ratio > %g%s and p < %g; more allocs: head's median allocs/op above base's\n\n", cfg.threshold, small, cfg.alpha)

	cells := [][]string{{"benchmark", "base", "head", "ratio", "p", "allocs/op", "verdict"}}
	var varied bool
	var largest *row
	var notes []string
	for i := range rows {
		r := &rows[i]
		cells = append(cells, []string{r.name, formatNs(r.base), formatNs(r.head), formatRatio(r.ratio),
			formatP(r.p), formatAllocs(*r), r.verdict()})
		varied = varied || r.allocsVary
		if !math.IsNaN(r.ratio) && (largest == nil || r.ratio > largest.ratio) {
			largest = r
		}
		for _, err := range r.warnings {
			if n := err.Error(); !slices.Contains(notes, n) {
				notes = append(notes, n)
			}
		}
	}
	writeTable(w, cells, []bool{false, true, true, true, true, true, false})

	fmt.Fprintln(w)
	if varied {
		fmt.Fprintf(w, "*: the count varied between rounds (with the scheduling): more allocs needs p < %g for the counts too\n", cfg.alpha)
	}
	for _, n := range notes {
		fmt.Fprintf(w, "note: with %s %d no benchmark can be found slower: %s\n", flag, rounds, n)
	}
	if largest != nil {
		fmt.Fprintf(w, "largest ratio: %s (%s, p %s)\n", formatRatio(largest.ratio), largest.name, formatP(largest.p))
	}
}

// writeTable writes cells in columns two spaces apart, the first row the
// header, a column aligned right where right says so.
func writeTable(w io.Writer, cells [][]string, right []bool) {
	widths := make([]int, len(right))
	for _, line := range cells {
		for j, c := range line {
			widths[j] = max(widths[j], utf8.RuneCountInString(c))
		}
	}
	for _, line := range cells {
		var b strings.Builder
		for j, c := range line {
			pad := strings.Repeat(" ", widths[j]-utf8.RuneCountInString(c))
			if j > 0 {
				b.WriteString("  ")
			}
			if right[j] {
				b.WriteString(pad + c)
			} else {
				b.WriteString(c + pad)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

// formatNs formats a median time with an SI prefix (1.234µs), as benchstat
// does; "-" for a side without the benchmark.
func formatNs(s stats) string {
	if s.runs == 0 {
		return "-"
	}
	return benchunit.Scale(s.ns/1e9, benchunit.Decimal) + "s"
}

// formatRatio formats a ratio of times: 1.03x.
func formatRatio(r float64) string {
	if math.IsNaN(r) {
		return "-"
	}
	return strconv.FormatFloat(r, 'f', 2, 64) + "x"
}

// formatP formats a p-value with three decimals; below 0.001, "<0.001".
func formatP(p float64) string {
	switch {
	case math.IsNaN(p):
		return "-"
	case p < 0.001:
		return "<0.001"
	}
	return strconv.FormatFloat(p, 'f', 3, 64)
}

// formatAllocs formats the median allocs/op of both sides: "3 → 4", with
// a star where a count varied between rounds. A median of an even count of
// rounds may end in .5.
func formatAllocs(r row) string {
	f := func(s stats) string {
		if s.runs == 0 {
			return "-"
		}
		return strconv.FormatFloat(s.allocs, 'f', -1, 64)
	}
	s := f(r.base) + " → " + f(r.head)
	if r.allocsVary {
		s += "*"
	}
	return s
}

// limits says the thresholds in a verdict: "1.3x (the small fan-outs
// 1.1x)", or one ratio when they are the same.
func (cfg config) limits() string {
	if cfg.small == cfg.threshold {
		return fmt.Sprintf("%gx", cfg.threshold)
	}
	return fmt.Sprintf("%gx (the small fan-outs %gx)", cfg.threshold, cfg.small)
}
