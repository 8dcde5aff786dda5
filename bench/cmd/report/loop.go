package main

import (
	"bytes"
	"fmt"
)

// The loop: BenchmarkLoop, errgroup's loop over n inputs, in two forms:
// children that return only an error (out=err) and children whose values
// are gathered into a slice (out=slice), each with a limit of 8 and with
// none.

// loopBaseline is the implementation a loop row's ratios are taken
// against, in the row's form.
const loopBaseline = "errgroup-ctx"

// The modes, limits and forms of BenchmarkLoop, in the order of the
// tables.
var (
	loopModes  = []string{"immediate", "yield"}
	loopLimits = []string{"none", "8"}
	loopOuts   = []string{"err", "slice"}
)

// loopTargetNs are the numbers of inputs the loop's targets are checked
// at.
var loopTargetNs = []int{16, 1000, 100_000}

// loopMode is the mode of a loop row's key (see key).
func loopMode(mode, limit, out string) string {
	return mode + "/limit=" + limit + "/out=" + out
}

var loopNotes = map[string]string{
	"floor":                "what an expert writes by hand for the one site: without a limit a `go` statement per input and one sync.WaitGroup, with a limit 8 workers taking the next input with an atomic add; the first error kept under a mutex the success path never takes, each value written to its index; no cancellation, no panic handling (the **vs floor** column)",
	"errgroup":             "the zero errgroup.Group and g.Go, with g.SetLimit(8) at limit=8; the children get the caller's context, and nothing is canceled",
	"errgroup-ctx":         "errgroup.WithContext and g.Go, with g.SetLimit(8) at limit=8: the baseline of the ratios",
	"conc-pool-ctx":        "conc pool.New().WithContext(ctx).WithCancelOnError(), with WithMaxGoroutines(8) at limit=8",
	"pond-group":           "pond.NewGroup() on the default pool, or at limit=8 the group of pond.NewSubpool(8), a subpool of the default pool made for the loop; the children get the group's context",
	"task-scope-go":        "task.Scope and g.Go (errgroup's method in a scope), with g.SetLimit(8) at limit=8; at out=slice each child writes its value to its index, and Scope waits for the children",
	"task-scope-spawn-all": "task.Scope, task.Spawn per input, and the body returns task.All over the tasks, with g.SetLimit(8) at limit=8: the values come through the typed tasks (task.All runs a child still waiting for a slot on the body's goroutine)",
	"task-foreach":         "task.ForEach(ctx, inputs, limit, fn), limit 8 or -1",
	"task-map":             "task.Map(ctx, inputs, limit, fn), limit 8 or -1",
}

var loopLimitTitles = map[string]string{
	"none": "no limit",
	"8":    "at most 8 at once",
}

// loopTables writes one table per mode, limit and number of inputs, with
// the rows of both forms.
func loopTables(w *bytes.Buffer, r *results) {
	for _, mode := range loopModes {
		for _, limit := range loopLimits {
			measured := false
			for _, out := range loopOuts {
				for _, n := range r.ns {
					if _, ok := r.rows[key{loopBaseline, n, loopMode(mode, limit, out)}]; ok {
						measured = true
					}
				}
			}
			if !measured {
				continue
			}
			fmt.Fprintf(w, "### %s, %s (mode=%s, limit=%s)\n\n", dynamicModeTitles[mode], loopLimitTitles[limit], mode, limit)
			for _, n := range r.ns {
				loopTable(w, r, n, mode, limit)
			}
		}
	}
}

// loopTable writes the table of n inputs in mode at limit, if any of it
// was measured: the rows of out=err, then those of out=slice, each with
// its ratios against the baseline and the floor of its form.
func loopTable(w *bytes.Buffer, r *results, n int, mode, limit string) {
	hasRows, hasFloor := false, false
	for _, out := range loopOuts {
		for _, impl := range r.impls {
			if _, ok := r.rows[key{impl, n, loopMode(mode, limit, out)}]; ok {
				hasRows = true
				hasFloor = hasFloor || impl == floorImpl
			}
		}
	}
	if !hasRows {
		return
	}
	fmt.Fprintf(w, "n = %s inputs\n\n", thousands(n))
	fmt.Fprintln(w, "| Method | Out | Mean | Per input | Ratio |"+floorHeader(hasFloor)+" Allocated | Alloc Ratio | Allocs | Allocs per input |")
	fmt.Fprintln(w, "| --- | --- | ---: | ---: | ---: |"+floorRule(hasFloor)+" ---: | ---: | ---: | ---: |")
	for _, out := range loopOuts {
		m := loopMode(mode, limit, out)
		base, hasBase := r.rows[key{loopBaseline, n, m}]
		floor, outFloor := r.rows[key{floorImpl, n, m}]
		for _, impl := range r.impls {
			s, ok := r.rows[key{impl, n, m}]
			if !ok {
				continue
			}
			ratioCell, allocCell := "-", "-"
			if hasBase {
				ratioCell, allocCell = ratio(s.ns, base.ns), ratio(s.bytes, base.bytes)
			}
			floorCol := floorCell(outFloor, s, floor)
			if hasFloor && !outFloor {
				floorCol = " - |"
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s |%s %.0f B | %s | %.0f | %.2f |\n", implName(impl), out,
				formatNs(s.ns), formatNs(s.ns/float64(n)), ratioCell, floorCol,
				s.bytes, allocCell, s.allocs, s.allocs/float64(n))
		}
	}
	fmt.Fprintln(w)
}

// A loopGoal is a target of the loop: the time of impl in form out at
// most max(n, limit)× that of vs in form vsOut, at every mode, at each n
// of ns and each limit.
type loopGoal struct {
	impl, out string
	vs, vsOut string
	ns        []int
	max       func(n int, limit string) float64
	what      string
	why       string // for a miss: the reason, from profiling
}

// withLimit is the lead a limited loop keeps over errgroup's, whose
// SetLimit blocks the spawner where a Scope queues the child.
const withLimit = 0.9

var loopGoals = []loopGoal{
	{"task-scope-go", "err", "errgroup-ctx", "err", []int{16, 1000},
		func(_ int, limit string) float64 { return limitedOr(limit, 1.0) },
		"Scope + g.Go, children that return only an error, at or under errgroup.WithContext's loop (0.9× with a limit)", loopGoWhy},
	{"task-scope-spawn-all", "slice", "errgroup-ctx", "slice", []int{16, 1000},
		func(n int, limit string) float64 {
			if n <= 16 {
				return limitedOr(limit, 1.3)
			}
			return limitedOr(limit, 1.2)
		},
		"Scope + Spawn + All at or under 1.3× errgroup.WithContext's loop writing each value to its index at 16 children, 1.2× at 1,000 (0.9× with a limit)", loopSpawnWhy},
	{"task-foreach", "err", "task-map", "slice", loopTargetNs,
		func(int, string) float64 { return 1.1 },
		"ForEach within 1.1× of Map's time", ""},
}

// limitedOr is withLimit for a limited loop, else max.
func limitedOr(limit string, max float64) float64 {
	if limit != "none" {
		return withLimit
	}
	return max
}

// loopGoWhy and loopSpawnWhy explain the loop's missed targets, from
// callgrind's counts of the loop at 1,000 children (bench/instructions.sh).
const loopGoWhy = "Scope + g.Go: a child of g.Go is what errgroup's is, a goroutine and one allocation (its go " +
	"statement's closure). Counted in instructions (callgrind, one P, 1,000 children that return at once), a " +
	"child costs 4,151 instructions in a Scope and 4,126 in errgroup.WithContext (1.01×): the library's own " +
	"code is 144 of them (the function called with one deferred call that recovers panics and Goexit and ends " +
	"the child, and one test of the admission), errgroup's 85, and the runtime's goroutine creation, " +
	"scheduling and exit about 3,300 in both. Wall-clock ratios move around that with how well each loop keeps " +
	"both cores busy. See docs/performance.md."

const loopSpawnWhy = "Scope + Spawn + All: each child is a typed task that errgroup does not have (its task and " +
	"function in one object, 72 bytes for an int, in the 80-byte size class), and its go statement's closure " +
	"(24 bytes: the child and its type's dictionary) is a third allocation, besides the caller's closure, " +
	"where errgroup's child makes two; the runtime's share is 3,703 instructions a child against 3,539. A child " +
	"that succeeds takes no lock, but All then waits on each task in turn and copies its value where " +
	"errgroup's children write the slice themselves: 4,797 instructions a child against 4,300 (1.12×; the " +
	"library's own 322, errgroup's 110). Where the value is only written to a slice, Map or g.Go writing the " +
	"index is the form to use; Spawn is for children whose tasks the body waits on. See docs/performance.md."

// loopTargets checks loopGoals against the medians of the run.
func loopTargets(r *results) []target {
	var ts []target
	for _, g := range loopGoals {
		for _, mode := range loopModes {
			for _, limit := range loopLimits {
				for _, n := range g.ns {
					ours, ok1 := r.rows[key{g.impl, n, loopMode(mode, limit, g.out)}]
					vs, ok2 := r.rows[key{g.vs, n, loopMode(mode, limit, g.vsOut)}]
					if !ok1 || !ok2 {
						continue
					}
					ts = append(ts, target{
						what: fmt.Sprintf("%s (%s inputs, mode=%s, limit=%s)", g.what, thousands(n), mode, limit),
						measured: fmt.Sprintf("%s vs %s = %s×; allocations %.0f vs %.0f, bytes %.0f vs %.0f",
							formatNs(ours.ns), formatNs(vs.ns), ratio(ours.ns, vs.ns), ours.allocs, vs.allocs, ours.bytes, vs.bytes),
						met: ours.ns <= g.max(n, limit)*vs.ns,
						why: g.why,
					})
				}
			}
		}
	}
	return ts
}

func renderLoop(w *bytes.Buffer, r *results) {
	if !section(w, "The loop", "BenchmarkLoop", r) {
		return
	}
	fmt.Fprintln(w, "errgroup's loop, the shape of most errgroup code: a slice of n inputs and a child per input,")
	fmt.Fprintln(w, "started by a `for` loop. With **out=err** each child returns only an error; with **out=slice**")
	fmt.Fprintln(w, "it returns an int as well, which the peers (and Scope with g.Go) write to its index of a slice")
	fmt.Fprintln(w, "made beforehand, and which task.Map and task.All return in input order. The children return at")
	fmt.Fprintln(w, "once or after one runtime.Gosched, with at most 8 running at once (**limit=8**) or with no")
	fmt.Fprintln(w, "limit (**limit=none**: no SetLimit, -1). All but errgroup.Group and the floor cancel")
	fmt.Fprintln(w, "the others' context on the first error. **Per input** is the mean divided by n; **Ratio** and")
	fmt.Fprintln(w, "**Alloc Ratio** are against `errgroup.WithContext` in the same form (out), **vs floor** is the")
	fmt.Fprintln(w, "time and the bytes against `floor` in the same form.")
	fmt.Fprintln(w)
	for _, impl := range r.impls {
		fmt.Fprintf(w, "- `%s`: %s\n", impl, loopNotes[impl])
	}
	fmt.Fprintln(w)
	loopTables(w, r)
}
