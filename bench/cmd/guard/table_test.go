package main

import (
	"strings"
	"testing"
)

// tableRows are the rows of the table tests, in 4 rounds: one of each
// verdict.
func tableRows(t *testing.T) []row {
	t.Helper()
	base := output(
		bench{"op=Run2-2", spread(4, 1000), times(4, 3)},
		bench{"op=Await2-2", spread(4, 8), times(4, 0)},
		bench{"op=Map/n=16/limit=none-2", spread(4, 7000), times(4, 18)},
		bench{"op=Scope+Spawn+All/n=1000/limit=8-2", spread(4, 300_000), []float64{1033, 1037, 1038, 1045}},
	)
	head := output(
		bench{"op=Run2-2", spread(4, 1010), times(4, 3)},
		bench{"op=Await2-2", spread(4, 16), times(4, 1)},
		bench{"op=Map/n=16/limit=none-2", spread(4, 7000), times(4, 19)},
		bench{"op=Scope+Spawn+All/n=1000/limit=8-2", spread(4, 900_000), []float64{1034, 1038, 1040, 1041}},
	)
	rows, err := compareOutputs(base, head, thresholds{1.25, 1.25}, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestRender(t *testing.T) {
	var b strings.Builder
	cfg := config{rounds: 4, benchtime: "100ms", threshold: 1.25, small: 1.25, alpha: 0.05, cpu: 1}
	if fired := render(&b, tableRows(t), cfg); !fired {
		t.Error("render(...) = false; want true: verdicts fired")
	}
	want := `BenchmarkGuard: medians of 4 rounds at -benchtime 100ms, GOMAXPROCS 1
ratio: head/base of the times; p: Mann-Whitney U test of the times
slower: ratio > 1.25 and p < 0.05; more allocs: head's median allocs/op above base's

benchmark                             base     head  ratio      p       allocs/op  verdict
op=Run2                            1.000µs  1.011µs  1.01x  0.029           3 → 3  ok
op=Await2                          8.500ns  16.50ns  1.94x  0.029           0 → 1  slower, more allocs
op=Map/n=16/limit=none             7.001µs  7.001µs  1.00x  1.000         18 → 19  more allocs
op=Scope+Spawn+All/n=1000/limit=8  300.0µs  900.0µs  3.00x  0.029  1037.5 → 1039*  slower

*: the count varied between rounds (with the scheduling): more allocs needs p < 0.05 for the counts too
largest ratio: 3.00x (op=Scope+Spawn+All/n=1000/limit=8, p 0.029)
guard: FAIL: of 4 benchmarks, 2 slower than 1.25x at p < 0.05, 2 allocate more
guard: if that is meant, put the commit in .ci/baseline once landed (docs/guard.md)
`
	if got := b.String(); got != want {
		t.Errorf("render(...) wrote\n%s\nwant\n%s", got, want)
	}
}

func TestRenderOK(t *testing.T) {
	rows := tableRows(t)[:1]
	var b strings.Builder
	cfg := config{rounds: 4, benchtime: "100ms", threshold: 1.25, small: 1.25, alpha: 0.05, cpu: 1}
	if fired := render(&b, rows, cfg); fired {
		t.Error("render(...) = true; want false: no verdict fired")
	}
	got := b.String()
	last := got[strings.LastIndex(got[:len(got)-1], "\n")+1:]
	if want := "guard: ok: none of 1 benchmarks slower than 1.25x at p < 0.05, none allocates more\n"; last != want {
		t.Errorf("render(...) ends with %q; want %q", last, want)
	}
	if strings.Contains(got, "*: the count varied") {
		t.Errorf("render(...) explains a star that no row has:\n%s", got)
	}
}

func TestRenderTooFewRounds(t *testing.T) {
	base := output(bench{"op=Run2-2", spread(2, 1000), times(2, 3)})
	head := output(bench{"op=Run2-2", spread(2, 3000), times(2, 3)})
	rows, err := compareOutputs(base, head, thresholds{1.25, 1.25}, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	cfg := config{rounds: 2, benchtime: "20ms", threshold: 1.25, small: 1.25, alpha: 0.05, cpu: 1}
	if fired := render(&b, rows, cfg); fired {
		t.Error("render(...) = true; want false: 2 rounds cannot reach p < 0.05")
	}
	want := "note: with -rounds 2 no benchmark can be found slower: need >= 4 samples to detect a difference at alpha level 0.05\n"
	if !strings.Contains(b.String(), want) {
		t.Errorf("render(...) wrote\n%s\nwant a line %q", b.String(), want)
	}
}
