package main

import (
	"bytes"
	"fmt"
)

// The dynamic fan-out: BenchmarkDynamic, a loop that starts n children.

// dynamicBaseline is the implementation the dynamic fan-out's ratios are
// taken against.
const dynamicBaseline = "errgroup-ctx"

var dynamicNotes = map[string]string{
	"floor":                "what an expert writes by hand for the one site: a loop of `go` statements, each child writing its result and its error to its index of two slices made beforehand, one sync.WaitGroup, the first error in child order returned; no cancellation (the bar of the **vs floor** column)",
	"errgroup-ctx":         "errgroup.WithContext and g.Go, each child writing its result to its index: the baseline of the ratios",
	"errgroup-ctx-limit8":  "the same with g.SetLimit(8)",
	"conc-pool-ctx":        "conc pool.New().WithContext(ctx).WithCancelOnError(), each child writing to its index (ResultContextPool, at v0.3.0, returns the results in the order the calls end, not the children's)",
	"conc-pool-ctx-limit8": "the same with WithMaxGoroutines(8)",
	"pond-group":           "pond.NewGroup() on the default pool, each child writing to its index and getting the group's context",
	"task-scope":           "task.Scope, task.Spawn per child, and the body returns task.All over the spawned tasks: the results come through the typed tasks",
	"task-scope-limit8":    "the same with g.SetLimit(8): children spawned at the limit wait as tasks, without a goroutine",
	"task-scope-index":     "task.Scope written as errgroup is: each child writes its result to its index and the body returns at once, Scope waiting for the children",
}

var dynamicModeTitles = map[string]string{
	"immediate": "Children that return at once",
	"yield":     "Children that yield once (runtime.Gosched)",
}

// dynamicTables writes one table per mode and number of children.
func dynamicTables(w *bytes.Buffer, r *results) {
	for _, mode := range r.modes {
		fmt.Fprintf(w, "### %s (mode=%s)\n\n", dynamicModeTitles[mode], mode)
		fmt.Fprintf(w, "Ratios against `%s`%s.\n\n", dynamicBaseline, floorNote(r, mode))
		for _, n := range r.ns {
			base, ok := r.rows[key{dynamicBaseline, n, mode}]
			if !ok {
				continue
			}
			floor, hasFloor := r.rows[key{floorImpl, n, mode}]
			fmt.Fprintf(w, "n = %s children\n\n", thousands(n))
			fmt.Fprintln(w, "| Method | Mean | Per child | Ratio |"+floorHeader(hasFloor)+" Allocated | Alloc Ratio | Allocs | Allocs per child |")
			fmt.Fprintln(w, "| --- | ---: | ---: | ---: |"+floorRule(hasFloor)+" ---: | ---: | ---: | ---: |")
			for _, impl := range r.impls {
				s, ok := r.rows[key{impl, n, mode}]
				if !ok {
					continue
				}
				fmt.Fprintf(w, "| %s | %s | %s | %s |%s %.0f B | %s | %.0f | %.2f |\n", implName(impl), formatNs(s.ns),
					formatNs(s.ns/float64(n)), ratio(s.ns, base.ns), floorCell(hasFloor, s, floor),
					s.bytes, ratio(s.bytes, base.bytes), s.allocs, s.allocs/float64(n))
			}
			fmt.Fprintln(w)
		}
	}
}

// dynamicTargets: Scope at or under 0.8× errgroup.WithContext's time and
// allocations at 16 and 1,000 children.
func dynamicTargets(r *results) []target {
	var ts []target
	for _, mode := range r.modes {
		for _, n := range []int{16, 1000} {
			ours, ok := r.rows[key{"task-scope", n, mode}]
			if !ok {
				continue
			}
			eg, ok := r.rows[key{dynamicBaseline, n, mode}]
			if !ok {
				continue
			}
			ts = append(ts, target{
				what: fmt.Sprintf("Scope at or under 0.8× errgroup.WithContext's time and allocations at %s children (mode=%s)",
					thousands(n), mode),
				measured: fmt.Sprintf("time %s vs %s = %s×; allocations %.0f vs %.0f = %s×",
					formatNs(ours.ns), formatNs(eg.ns), ratio(ours.ns, eg.ns), ours.allocs, eg.allocs, ratio(ours.allocs, eg.allocs)),
				met: ours.ns <= 0.8*eg.ns && ours.allocs <= 0.8*eg.allocs,
				why: scopeWhy,
			})
		}
	}
	return ts
}

// scopeWhy explains a missed Scope target, from the benchmarks' profiles
// (go test -bench 'Dynamic/^impl=(task-scope|errgroup-ctx)$/^n=16$'
// -cpuprofile, -memprofile).
const scopeWhy = "Scope: task.Spawn allocates the child (its task and function in one object, 72 bytes, in the 80-byte size " +
	"class; the child of a limited group or of a Named function has its extra in the same object, in the 144-byte class) " +
	"and the closure of its `go` statement (24 bytes: the child and its type's dictionary), besides the caller's " +
	"closure, where errgroup's g.Go allocates only the caller's closure (capturing the index and the slice) and its " +
	"own `go` closure; task.All adds the slice of tasks and the slice of results. The time: a child that succeeds " +
	"takes no lock (atomic counts, and one compare-and-swap of its task's state; only children that fail are " +
	"listed), but each child is a typed task, more bytes to allocate and clear than errgroup's, and the body's " +
	"task.All waits on each task in turn where errgroup waits once. A child is a goroutine and a typed task: " +
	"errgroup's goroutine and closure are the floor it is measured against, so 0.8× is not reachable this way. With " +
	"SetLimit(8), children spawned at the limit run one after another on the goroutines already started, with one " +
	"allocation and no goroutine each, which is why task-scope-limit8 is the fastest row from 1,000 children."

func implName(impl string) string {
	if isOurs(impl) {
		return "**" + impl + "**"
	}
	return impl
}

// thousands writes n with commas: 100,000.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
