package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestKeepConfirmed(t *testing.T) {
	both := stats{ns: 1000, allocs: 1, runs: 10}
	rows := []row{
		{name: "op=A", slower: true},     // slower again: stays
		{name: "op=B", slower: true},     // not again: unconfirmed
		{name: "op=C", slower: true},     // missing from the second run: unconfirmed
		{name: "op=D", moreAllocs: true}, // an allocation verdict is not rerun
		{name: "op=E"},                   // ok stays ok, whatever the second run says
	}
	for i := range rows {
		rows[i].base, rows[i].head, rows[i].ratio = both, both, 1
	}
	second := []row{{name: "op=A", slower: true}, {name: "op=B"}, {name: "op=E", slower: true}}
	keepConfirmed(rows, second)
	want := []string{"slower", "ok (not confirmed)", "ok (not confirmed)", "more allocs", "ok"}
	for i, r := range rows {
		if got := r.verdict(); got != want[i] {
			t.Errorf("%s: verdict %q; want %q", r.name, got, want[i])
		}
	}
	var out bytes.Buffer
	cfg := config{rounds: 10, confirm: 10, benchtime: "100ms", threshold: 1.3, small: 1.1, alpha: 0.01, cpu: 1}
	if fired := render(&out, rows[1:3], cfg); fired || !strings.Contains(out.String(), "guard: ok:") {
		t.Errorf("render of unconfirmed rows fired=%v:\n%s", fired, out.String())
	}
}

// TestConfirmRows: the confirmation judges the rounds of both runs
// together, and asks the second run's ratio alone to be over the
// threshold too. A slowdown of 15% that a noisy second run does not show
// at p < alpha alone is still found; a first run's fluke that the second
// run does not repeat is not, in a small fan-out's row as in another.
func TestConfirmRows(t *testing.T) {
	th := thresholds{all: 1.3, small: 1.1}
	const small, large = "op=NewGroup+Go+Wait/n=16/limit=none", "op=ForEach/n=1000/limit=8"
	noisy := func(v float64) []float64 { // half the rounds 40% slower, on both sides
		s := spread(10, v)
		for i := 0; i < len(s); i += 2 {
			s[i] *= 1.4
		}
		return s
	}
	for _, tt := range []struct {
		what                       string
		name                       string
		base1, head1, base2, head2 []float64
		slower                     bool
	}{
		{"15% slower, the second run noisy", small, spread(10, 3000), spread(10, 3450), noisy(3000), noisy(3450), true},
		{"a fluke 1.6x in the first run, none in the second", large, spread(10, 17000), spread(10, 27000), spread(10, 17000), spread(10, 17000), false},
		{"the same, a small fan-out", small, spread(10, 3000), spread(10, 4800), spread(10, 3000), spread(10, 3000), false},
	} {
		out := func(ns []float64) []byte { return output(bench{tt.name + "-2", ns, times(10, 17)}) }
		first, second := [2][]byte{out(tt.base1), out(tt.head1)}, [2][]byte{out(tt.base2), out(tt.head2)}
		rows, err := confirmRows(first, second, th, 0.01, []string{tt.name})
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != 1 || rows[0].base.runs != 20 || rows[0].slower != tt.slower {
			t.Errorf("%s: %+v; want 20 rounds a side, slower %v", tt.what, rows, tt.slower)
		}
		if alone, _ := compareOutputs(second[0], second[1], th, 0.01); tt.slower && alone[0].slower {
			t.Errorf("%s: the second run alone finds it slower (%+v): the case does not test the pooling", tt.what, alone[0])
		}
	}
}
