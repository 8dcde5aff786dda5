// Command guard is the speed guard of CI: it compares the speed of the
// library at a baseline commit with the working tree's, and fails when a
// benchmark got slower than a threshold or allocates more (docs/guard.md).
//
// It builds BenchmarkGuard (package bench/guard) twice, once in a copy of
// the baseline tree made with git archive and once in the working tree,
// the same guard files in both, then runs the two test binaries in
// interleaved rounds on this machine and compares, per benchmark, the
// medians of the rounds: time per operation (with a Mann-Whitney U test)
// and allocations per operation.
//
// Run it from the bench directory:
//
//	go run ./cmd/guard                      # against the commit in .ci/baseline
//	go run ./cmd/guard -base a1ba8fa        # against another commit
//	go run ./cmd/guard -self -o /tmp/cal    # the baseline against itself
//
// The exit status is 0 when no verdict fired, 1 when a benchmark is slower
// or allocates more, and 2 when the guard could not measure (a bad flag, a
// baseline missing from the clone, a build or a benchmark that failed).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

func main() {
	// An interrupt, a termination, or a write to a closed pipe (go run
	// ./cmd/guard | head) cancels ctx: the builds and benchmarks under way
	// are killed, and run removes its temporary folder before it returns.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGPIPE)
	fired, err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	if err != nil && ctx.Err() != nil {
		err = fmt.Errorf("stopped by a signal (%v)", err)
	}
	stop()
	switch {
	case errors.Is(err, flag.ErrHelp):
		os.Exit(0)
	case err != nil:
		fmt.Fprintf(os.Stderr, "guard: %v\n", err)
		os.Exit(2)
	case fired:
		os.Exit(1)
	}
}

// run is the command with its arguments; it reports whether a verdict fired.
// The temporary directory it makes is removed before it returns, on every
// path, and on an interrupt, which kills the command running.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) (fired bool, err error) {
	cfg, err := parseFlags(args, stderr)
	if err != nil {
		return false, err
	}
	root, err := gitToplevel(ctx)
	if err != nil {
		return false, err
	}
	baseRef := cfg.base
	if baseRef == "" {
		if baseRef, err = readBaseline(root); err != nil {
			return false, err
		}
	}
	base, err := resolveSide(ctx, root, "base", baseRef)
	if err != nil {
		return false, err
	}
	headRef := cfg.head
	if cfg.self {
		headRef = baseRef
	}
	head := side{name: "head", root: root}
	if headRef != "" {
		if head, err = resolveSide(ctx, root, "head", headRef); err != nil {
			return false, err
		}
	}

	tmp, err := os.MkdirTemp("", "guard-")
	if err != nil {
		return false, err
	}
	defer func() {
		if rmErr := os.RemoveAll(tmp); rmErr != nil && err == nil {
			err = rmErr
		}
	}()

	fmt.Fprintf(stdout, "guard: base %s\n", describe(ctx, root, base))
	again := ""
	if cfg.self {
		again = " (the baseline again: -self)"
	}
	fmt.Fprintf(stdout, "guard: head %s%s\n", describe(ctx, root, head), again)
	tags := ""
	for _, s := range []*side{&base, &head} {
		if err := s.prepare(ctx, root, tmp); err != nil {
			return false, err
		}
		newer, err := newerAPI(s.root)
		if err != nil {
			return false, err
		}
		if !newer && tags == "" {
			tags = olderAPITag
			fmt.Fprintf(stdout, "guard: the %s has no NewGroup: the benchmarks that need it are left out on both sides\n", s.name)
		}
	}
	for _, s := range []*side{&base, &head} {
		if err := s.build(ctx, tmp, tags, stdout); err != nil {
			return false, err
		}
	}

	sides := [2]side{base, head}
	raw, err := runRounds(ctx, cfg, sides, stdout)
	if err != nil {
		return false, err
	}
	rows, err := compareOutputs(raw[0], raw[1], cfg.thresholds(), cfg.alpha)
	if err != nil {
		return false, err
	}
	fmt.Fprintln(stdout)
	if cfg.confirm > 0 && slices.ContainsFunc(rows, func(r row) bool { return r.slower }) {
		renderTable(stdout, rows, cfg, "-rounds", cfg.rounds)
		if err := confirm(ctx, cfg, sides, raw, rows, stdout); err != nil {
			return false, err
		}
		fmt.Fprintln(stdout)
	}
	return render(stdout, rows, cfg), nil
}

// confirm runs BenchmarkGuard again, in cfg.confirm more interleaved
// rounds, and keeps the verdict slower only for the rows that confirmRows
// finds slower (first holds the first run's outputs).
// CI's shared cores switch between speeds: one benchmark measured 38 or
// 62 µs a round, on either side alike, and ten rounds can put more of one
// side's in the slow mode by chance (p below 0.01 for a change that did
// not touch the code measured); a second run that does not share the
// chance dilutes it. A slowdown of the code shows in all the rounds, and
// more rounds see it better, where a second run judged alone can land in
// a noisy stretch and see nothing (docs/guard.md). (All of it runs again:
// go test cannot select sub-benchmarks of different depths with one
// pattern.)
func confirm(ctx context.Context, cfg config, sides [2]side, first [2][]byte, rows []row, stdout io.Writer) error {
	var names []string
	for _, r := range rows {
		if r.slower {
			names = append(names, r.name)
		}
	}
	fmt.Fprintf(stdout, "guard: %d slower in this run (%s): a second run to confirm\n", len(names), strings.Join(names, ", "))
	again := cfg
	again.rounds = cfg.confirm
	if cfg.out != "" {
		again.out = filepath.Join(cfg.out, "confirm")
	}
	raw, err := runRounds(ctx, again, sides, stdout)
	if err != nil {
		return err
	}
	second, err := confirmRows(first, raw, cfg.thresholds(), cfg.alpha, names)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout)
	renderTable(stdout, second, cfg, "-rounds and -confirm", cfg.rounds+cfg.confirm)
	keepConfirmed(rows, second)
	return nil
}

// confirmRows compares the rows named in names over the rounds of both
// runs together (first and second hold each run's outputs, base then
// head): a row stays slower if all the rounds give a ratio over its
// threshold at p < alpha, and the second run's rounds alone a ratio over
// it too, so that a first run's chance stretch is not confirmed by its
// own weight in the pooled rounds.
func confirmRows(first, second [2][]byte, th thresholds, alpha float64, names []string) ([]row, error) {
	alone, err := compareOutputs(second[0], second[1], th, alpha)
	if err != nil {
		return nil, err
	}
	pooled, err := compareOutputs(slices.Concat(first[0], second[0]), slices.Concat(first[1], second[1]), th, alpha)
	if err != nil {
		return nil, err
	}
	pooled = slices.DeleteFunc(pooled, func(r row) bool { return !slices.Contains(names, r.name) })
	for i := range pooled {
		j := slices.IndexFunc(alone, func(r row) bool { return r.name == pooled[i].name })
		if j < 0 || !(alone[j].ratio > th.of(pooled[i].name)) {
			pooled[i].slower = false
		}
	}
	return pooled, nil
}

// keepConfirmed keeps the verdict slower of rows only where the second
// run's row of the same name is slower too; the others are unconfirmed.
func keepConfirmed(rows, second []row) {
	for i := range rows {
		if !rows[i].slower {
			continue
		}
		j := slices.IndexFunc(second, func(r row) bool { return r.name == rows[i].name })
		if j < 0 || !second[j].slower {
			rows[i].slower = false
			rows[i].unconfirmed = true
		}
	}
}
