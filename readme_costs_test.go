package task

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestReadmeCosts checks the allocation counts of the README's cost
// table: every row is measured here with testing.AllocsPerRun, with
// functions that return at once, and a row the test does not know fails.
// A count may be lower than the table says (a compiler may do better); it
// may not be higher.
func TestReadmeCosts(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	done := fromResult(1)
	dones := make([]*Task[int], 100)
	for i := range dones {
		dones[i] = fromResult(i)
	}
	inputs := make([]int, 1000)
	const limit = 4
	errFn := func(context.Context) error { return nil }
	looks := func(ctx context.Context) (int, error) { ctx.Done(); return 1, nil }
	perChild := func(spawn func(g *Group)) float64 {
		const n = 10
		with := testing.AllocsPerRun(100, func() {
			Scope(ctx, func(ctx context.Context, g *Group) (int, error) {
				for range n {
					spawn(g)
				}
				return 0, nil
			})
		})
		without := testing.AllocsPerRun(100, func() {
			Scope(ctx, func(ctx context.Context, g *Group) (int, error) { return 0, nil })
		})
		return (with - without) / n
	}
	// Each row: the operation as the README names it, and what the
	// Allocations column says for N = 4 (RunN, Do) and limit = 4 (Map,
	// ForEach).
	rows := map[string]func() float64{
		"`AwaitN`, `Wait`, `WhenAll` of completed tasks": func() float64 {
			return max(
				testing.AllocsPerRun(100, func() { Await4(ctx, done, done, done, done) }),
				testing.AllocsPerRun(100, func() { done.Wait(ctx) }))
		},
		"`RunN`": func() float64 {
			return testing.AllocsPerRun(100, func() { Run4(ctx, immediate[int], immediate[string], immediate[int], immediate[bool]) })
		},
		"`RunN`, functions that look at their `ctx`": func() float64 {
			return testing.AllocsPerRun(100, func() { Run4(ctx, looks, looks, looks, looks) })
		},
		"`Do` of N functions": func() float64 {
			return testing.AllocsPerRun(100, func() { Do(ctx, errFn, errFn, errFn, errFn) })
		},
		"`Go` + `Wait`, per task": func() float64 {
			return testing.AllocsPerRun(100, func() { Go(ctx, immediate[int]).Wait(ctx) })
		},
		"`All` of completed tasks": func() float64 {
			return testing.AllocsPerRun(100, func() { All(ctx, dones) })
		},
		"`Scope`; `NewGroup` + `Wait`": func() float64 {
			return max(testing.AllocsPerRun(100, func() {
				Scope(ctx, func(ctx context.Context, g *Group) (int, error) { return 0, nil })
			}), testing.AllocsPerRun(100, func() {
				g, _ := NewGroup(ctx)
				g.Wait()
			}))
		},
		"`Group.Go`, per child": func() float64 { return perChild(func(g *Group) { g.Go(errFn) }) },
		"`Spawn`, per child":    func() float64 { return perChild(func(g *Group) { Spawn(g, immediate[int]) }) },
		"`Map`, `ForEach`, any number of inputs": func() float64 {
			return max(
				testing.AllocsPerRun(20, func() {
					Map(ctx, inputs, limit, func(_ context.Context, x int) (int, error) { return x, nil })
				}),
				testing.AllocsPerRun(20, func() {
					ForEach(ctx, inputs, limit, func(context.Context, int) error { return nil })
				}))
		},
		"`MapSeq`, per input": func() float64 {
			const n = 10000
			seq := func(yield func(int) bool) {
				for i := range n {
					if !yield(i) {
						return
					}
				}
			}
			return testing.AllocsPerRun(5, func() {
				for range MapSeq(ctx, seq, limit, func(_ context.Context, i int) (int, error) { return i, nil }) {
				}
			}) / n
		},
		"a range over `WhenEach` of completed tasks": func() float64 {
			return testing.AllocsPerRun(100, func() {
				for range WhenEach(ctx, dones) {
				}
			})
		},
		"`Named`": func() float64 {
			return testing.AllocsPerRun(100, func() { Named("recs", immediate[int]) })
		},
	}
	// The table: the rows after the "| Operation | Allocations |" header.
	_, table, ok := strings.Cut(string(readme), "\n| Operation | Allocations |\n| --- | --- |\n")
	if !ok {
		t.Fatal("README.md has no table with the header | Operation | Allocations |")
	}
	if end := strings.Index(table, "\n\n"); end >= 0 {
		table = table[:end]
	}
	seen := map[string]bool{}
	for _, line := range strings.Split(table, "\n") {
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cells) != 2 {
			t.Errorf("README.md cost table: %q is not a row of two cells", line)
			continue
		}
		op, text := cells[0], cells[1]
		measure, ok := rows[op]
		if !ok {
			t.Errorf("README.md cost table: %q is not measured by TestReadmeCosts", op)
			continue
		}
		seen[op] = true
		want, err := evalCount(text, 4, limit)
		if err != nil {
			t.Errorf("README.md cost table, %s: %v", op, err)
			continue
		}
		if raceEnabled {
			continue // the race detector allocates
		}
		// MapSeq's count is per input: the range's own allocations, over
		// 10,000 inputs, are 0.001 each.
		if got := measure(); got > want+0.01 {
			t.Errorf("README.md cost table, %s: %v allocations; the table says %s (%v)", op, got, text, want)
		} else {
			t.Logf("%s: %v allocations; the table says %s", op, got, text)
		}
	}
	for op := range rows {
		if !seen[op] {
			t.Errorf("README.md cost table has no row %q", op)
		}
	}
}

// evalCount evaluates a count of the cost table: a number, "N", "limit",
// or a sum of them ("N + 3", "2 + limit").
func evalCount(s string, n, limit int) (float64, error) {
	sum := 0
	for _, term := range strings.Split(s, " + ") {
		switch term {
		case "N":
			sum += n
		case "limit":
			sum += limit
		default:
			k, err := strconv.Atoi(term)
			if err != nil {
				return 0, err
			}
			sum += k
		}
	}
	return float64(sum), nil
}
