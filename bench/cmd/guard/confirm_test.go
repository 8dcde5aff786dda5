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
	cfg := config{rounds: 10, confirm: 10, benchtime: "100ms", threshold: 1.3, alpha: 0.01, cpu: 1}
	if fired := render(&out, rows[1:3], cfg); fired || !strings.Contains(out.String(), "guard: ok:") {
		t.Errorf("render of unconfirmed rows fired=%v:\n%s", fired, out.String())
	}
}
