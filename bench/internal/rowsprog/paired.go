package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"
)

// A target is a row of the table as the paired rounds measure it:
// the library's side against the peer's (or the floor's), and the ratio
// of times the row must stay at or under.
type target struct {
	row   string
	label string
	peer  string  // "peer" or "floor"
	max   float64 // 0: a floor, shown beside the targets (-floors)
}

var targets = []target{
	{"newgroup16", "NewGroup, 16 × Go, Wait", "peer", 1.0},
	{"newgroup1000", "the same, 1,000", "peer", 0.9},
	{"scopego16", "Scope + 16 × g.Go", "peer", 1.0},
	{"spawn16", "Scope, 16 × Spawn, All", "peer", 1.3},
	{"spawn1000", "the same, 1,000", "peer", 1.2},
	{"run2", "Run2", "floor", 1.1},
	{"run16", "Run16", "peer", 0.85},
	{"foreach1000", "ForEach 1,000, limit 8", "peer", 1.05},
	{"mapseq1000", "MapSeq 1,000, limit 8", "peer", 1.5},
}

// paired runs rounds of every target: in each round, both sides of a row
// one after the other in this process (the order alternating from round
// to round), each for about d, and prints each row's median ratio with its
// spread over the rounds.
func paired(w io.Writer, rounds int, d time.Duration, only string) {
	targets := slices.DeleteFunc(slices.Clone(targets), func(t target) bool {
		return only != "" && !slices.Contains(strings.Split(only, ","), t.row)
	})
	testing.Init()
	flag.Set("test.benchtime", d.String())
	ctx := context.Background()
	type sides struct{ task, peer []float64 }
	got := make([]sides, len(targets))
	measure := func(f func(context.Context)) float64 {
		r := testing.Benchmark(func(b *testing.B) {
			for range b.N {
				f(ctx)
			}
		})
		return float64(r.T.Nanoseconds()) / float64(r.N)
	}
	for round := range rounds {
		for i, t := range targets {
			r := rows[t.row]
			peer := r.peer
			if t.peer == "floor" {
				peer = r.floor
			}
			if round%2 == 0 {
				got[i].task = append(got[i].task, measure(r.task))
				got[i].peer = append(got[i].peer, measure(peer))
			} else {
				got[i].peer = append(got[i].peer, measure(peer))
				got[i].task = append(got[i].task, measure(r.task))
			}
		}
		fmt.Fprintf(w, "round %d/%d done\n", round+1, rounds)
	}
	fmt.Fprintf(w, "\n%d paired rounds of %v a side\n\n", rounds, d)
	fmt.Fprintln(w, "| row | task ns/op | peer ns/op | ratio (median) | quartiles | min–max | target | met |")
	fmt.Fprintln(w, "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
	for i, t := range targets {
		ratios := make([]float64, rounds)
		for k := range ratios {
			ratios[k] = got[i].task[k] / got[i].peer[k]
		}
		med := quantile(ratios, 0.5)
		goal, met := fmt.Sprintf("≤ %.2f× %s", t.max, t.peer), "yes"
		switch {
		case t.max == 0: // a floor, not a target
			goal, met = "—", "—"
		case med > t.max:
			met = "no"
		}
		fmt.Fprintf(w, "| %s (%s) | %.0f | %.0f | %.2f× | %.2f–%.2f | %.2f–%.2f | %s | %s |\n",
			t.label, t.row, quantile(got[i].task, 0.5), quantile(got[i].peer, 0.5), med,
			quantile(ratios, 0.25), quantile(ratios, 0.75), slices.Min(ratios), slices.Max(ratios), goal, met)
	}
}

// quantile returns the q-quantile of xs, interpolated between the two
// nearest ranks.
func quantile(xs []float64, q float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	pos := q * float64(len(s)-1)
	lo := int(pos)
	if lo+1 >= len(s) {
		return s[lo]
	}
	return s[lo] + (pos-float64(lo))*(s[lo+1]-s[lo])
}
