package main

import (
	"bytes"
	"fmt"
)

// Scale: BenchmarkScale, the costs that must not grow with the number of
// tasks (a WhenEach range's allocations, task.Map's time per input).

var scaleNotes = map[string]string{
	"task-wheneach": "one range over task.WhenEach of n tasks, to the end: of tasks completed beforehand (completed), or of tasks made with task.Promise that another goroutine completes in order while the range waits (pending; the sources and the goroutine are made with the timer and the count of allocations stopped)",
	"task-map":      "task.Map over n ints, at most 8 calls at once, of a function that returns at once",
}

// maxWhenEachAllocs is the most allocations a range over WhenEach may make,
// whatever the number of tasks.
const maxWhenEachAllocs = 3

// perItem is a scale row's time per task or input: the ns/input metric
// where the benchmark reports it, the mean divided by n otherwise.
func perItem(s stat, n int) float64 {
	if v, ok := s.metrics["ns/input"]; ok {
		return v
	}
	return s.ns / float64(n)
}

// scaleTables writes one table of every scale row.
func scaleTables(w *bytes.Buffer, r *results) {
	if len(r.rows) == 0 {
		return
	}
	fmt.Fprintln(w, "| Method | Mode | n | Mean | Per task or input | Allocated | Allocs |")
	fmt.Fprintln(w, "| --- | --- | ---: | ---: | ---: | ---: | ---: |")
	for _, impl := range r.impls {
		for _, mode := range r.modes {
			for _, n := range r.ns {
				s, ok := r.rows[key{impl, n, mode}]
				if !ok {
					continue
				}
				fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %.0f B | %.0f |\n", implName(impl), mode, thousands(n),
					formatNs(s.ns), formatNs(perItem(s, n)), s.bytes, s.allocs)
			}
		}
	}
	fmt.Fprintln(w)
}

// scaleTargets: a WhenEach range makes at most maxWhenEachAllocs
// allocations at every n, pending or completed; Map's time per input at
// 10^5 inputs is at most 1.1× that at 10^3.
func scaleTargets(r *results) []target {
	var ts []target
	for _, mode := range []string{"pending", "completed"} {
		for _, n := range r.ns {
			s, ok := r.rows[key{"task-wheneach", n, mode}]
			if !ok {
				continue
			}
			ts = append(ts, target{
				what:     fmt.Sprintf("WhenEach: at most %d allocations per range (%s %s tasks)", maxWhenEachAllocs, thousands(n), mode),
				measured: fmt.Sprintf("%.0f allocs/op, %.0f B/op", s.allocs, s.bytes),
				met:      s.allocs <= maxWhenEachAllocs,
				why:      whenEachWhy,
			})
		}
	}
	small, ok1 := r.rows[key{"task-map", 1000, "limit8"}]
	big, ok2 := r.rows[key{"task-map", 100_000, "limit8"}]
	if ok1 && ok2 {
		a, b := perItem(small, 1000), perItem(big, 100_000)
		ts = append(ts, target{
			what:     "Map's time per input at 10^5 inputs within 1.1× of that at 10^3 (limit 8)",
			measured: fmt.Sprintf("%s vs %s = %s×", formatNs(b), formatNs(a), ratio(b, a)),
			met:      b <= 1.1*a,
			why:      mapScaleWhy,
		})
	}
	return ts
}

func renderScale(w *bytes.Buffer, r *results) {
	if !section(w, "Scale", "BenchmarkScale", r) {
		return
	}
	fmt.Fprintln(w, "Costs that must not grow with the number of tasks: what one range over task.WhenEach")
	fmt.Fprintln(w, "allocates, and task.Map's time per input. **Per task or input** is the mean divided by n.")
	fmt.Fprintln(w)
	for _, impl := range r.impls {
		fmt.Fprintf(w, "- `%s`: %s\n", impl, scaleNotes[impl])
	}
	fmt.Fprintln(w)
	scaleTables(w, r)
}
