package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"golang.org/x/perf/benchmath"
)

// config is the command line.
type config struct {
	base      string  // -base; "" reads .ci/baseline
	head      string  // -head; "" is the working tree
	self      bool    // -self: the baseline on both sides
	rounds    int     // -rounds
	confirm   int     // -confirm: the rounds of a second run when a benchmark was found slower; 0: none
	benchtime string  // -benchtime, as the test binaries take it
	threshold float64 // -threshold: the ratio of times above which a benchmark is slower
	small     float64 // -small: the same for the small fan-outs (smallRows)
	alpha     float64 // -alpha: the p-value below which a ratio counts
	cpu       int     // -cpu: GOMAXPROCS of the benchmarks (the binaries' -test.cpu)
	out       string  // -o: the folder for base.txt and head.txt; "" keeps none
}

// thresholds are -threshold and -small.
func (cfg config) thresholds() thresholds { return thresholds{cfg.threshold, cfg.small} }

// defaultBenchtime is -benchtime's default. On CI's 2-core machine a round
// takes 9 s at 100ms (each binary 4 to 5 s: 27 benchmarks, each 100 ms
// and the runs that size b.N), so 10 rounds take about 90 s; with the two
// builds (5 s with a warm build cache, 40 s cold) and the build of the
// command, the run stays within 2.5 minutes on a machine as loaded as
// that one, and within 4.5 when a second run confirms a slowdown.
const defaultBenchtime = "100ms"

// parseFlags reads the command line, and checks it before anything is
// built, so that a typo costs no build.
func parseFlags(args []string, stderr io.Writer) (config, error) {
	var cfg config
	fs := flag.NewFlagSet("guard", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: go run ./cmd/guard [flags]   (from the bench directory)\n\n"+
			"Compares BenchmarkGuard at a baseline commit with the working tree's; see docs/guard.md.\n\n")
		fs.PrintDefaults()
	}
	fs.StringVar(&cfg.base, "base", "", "the baseline `commit` (default: the one in "+baselineFile+")")
	fs.StringVar(&cfg.head, "head", "", "a `commit` to measure instead of the working tree (to check the guard on a known change)")
	fs.BoolVar(&cfg.self, "self", false, "build the baseline for both sides, to measure the false alarms")
	fs.IntVar(&cfg.rounds, "rounds", 10, "interleaved `rounds`: each runs both binaries once")
	fs.IntVar(&cfg.confirm, "confirm", 10, "`rounds` of a second run when a benchmark is found slower: slower only if found slower again (0: no second run)")
	fs.StringVar(&cfg.benchtime, "benchtime", defaultBenchtime, "time per benchmark per round (`d` or Nx, as go test's -benchtime)")
	fs.Float64Var(&cfg.threshold, "threshold", 1.3, "the `ratio` head/base of median times above which a benchmark is slower")
	fs.Float64Var(&cfg.small, "small", 1.1, "the `ratio` for the small fan-outs: RunN, Go + AwaitN, and the calls over 16 (docs/guard.md)")
	fs.Float64Var(&cfg.alpha, "alpha", 0.01, "the `p-value` below which a ratio is taken as real (Mann-Whitney U)")
	fs.IntVar(&cfg.cpu, "cpu", 1, "GOMAXPROCS of the benchmarks (`n`, -test.cpu): at 1 their allocation counts are deterministic")
	fs.StringVar(&cfg.out, "o", "", "a `folder` to write the raw outputs to, base.txt and head.txt, for benchstat")
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	switch {
	case fs.NArg() > 0:
		return config{}, fmt.Errorf("unexpected arguments %q: every setting is a flag", fs.Args())
	case cfg.self && cfg.head != "":
		return config{}, fmt.Errorf("-self and -head both name the head: give one")
	case cfg.cpu < 1:
		return config{}, fmt.Errorf("-cpu %d: need at least 1", cfg.cpu)
	case cfg.rounds < 1:
		return config{}, fmt.Errorf("-rounds %d: need at least 1", cfg.rounds)
	case cfg.confirm < 0:
		return config{}, fmt.Errorf("-confirm %d: need 0 (no second run) or more", cfg.confirm)
	case !(cfg.threshold > 0):
		return config{}, fmt.Errorf("-threshold %v: need a ratio above 0", cfg.threshold)
	case !(cfg.small > 0):
		return config{}, fmt.Errorf("-small %v: need a ratio above 0", cfg.small)
	case !(cfg.alpha > 0 && cfg.alpha <= 1):
		return config{}, fmt.Errorf("-alpha %v: need a p-value in (0, 1]", cfg.alpha)
	}
	// A setting whose rounds cannot reach a p-value below alpha could never
	// find a benchmark slower: the guard would pass whatever it measured.
	for _, f := range []struct {
		name   string
		rounds int
	}{{"-rounds", cfg.rounds}, {"-confirm", cfg.confirm}} {
		if f.rounds == 0 {
			continue // -confirm 0: no second run
		}
		if p := minP(f.rounds); p >= cfg.alpha {
			return config{}, fmt.Errorf("%s %d: the U test of %d rounds a side cannot give a p-value below %.3g (its smallest is %.3g), so nothing could be found slower: need at least %d with -alpha %v",
				f.name, f.rounds, f.rounds, p, p, minRounds(cfg.alpha), cfg.alpha)
		}
	}
	if _, err := runTimeout(cfg.benchtime); err != nil {
		return config{}, err
	}
	return cfg, nil
}

// runTimeout returns the -test.timeout of one run of a test binary at
// benchtime: about three times what a run of BenchmarkGuard's 27 benchmarks
// takes, plus a minute, so that a deadlock fails the guard with the
// goroutines' stacks instead of hanging CI. An iteration count (Nx) gives
// ten minutes.
func runTimeout(benchtime string) (time.Duration, error) {
	if n, ok := strings.CutSuffix(benchtime, "x"); ok {
		if v, err := strconv.Atoi(n); err != nil || v < 1 {
			return 0, fmt.Errorf("-benchtime %q: want a duration (100ms) or a count of iterations (1000x)", benchtime)
		}
		return 10 * time.Minute, nil
	}
	d, err := time.ParseDuration(benchtime)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("-benchtime %q: want a duration (100ms) or a count of iterations (1000x)", benchtime)
	}
	return time.Minute + 100*d, nil
}

// minP is the smallest p-value that benchmath's U test can give with n
// rounds a side: that of two samples wholly apart.
func minP(n int) float64 {
	th := &benchmath.Thresholds{CompareAlpha: 1}
	a, b := make([]float64, n), make([]float64, n)
	for i := range n {
		a[i], b[i] = float64(i), float64(n+i)
	}
	return benchmath.AssumeNothing.Compare(benchmath.NewSample(a, th), benchmath.NewSample(b, th)).P
}

// minRounds is the fewest rounds a side whose smallest p-value is below
// alpha.
func minRounds(alpha float64) int {
	n := 1
	for minP(n) >= alpha && n < 1000 {
		n++
	}
	return n
}
