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
	rows, err := compareOutputs(raw[0], raw[1], cfg.threshold, cfg.alpha)
	if err != nil {
		return false, err
	}
	fmt.Fprintln(stdout)
	if cfg.confirm > 0 && slices.ContainsFunc(rows, func(r row) bool { return r.slower }) {
		renderTable(stdout, rows, cfg, "-rounds", cfg.rounds)
		if err := confirm(ctx, cfg, sides, rows, stdout); err != nil {
			return false, err
		}
		fmt.Fprintln(stdout)
	}
	return render(stdout, rows, cfg), nil
}

// confirm runs BenchmarkGuard again, in cfg.confirm more interleaved
// rounds, and keeps the verdict slower only for the rows found slower in
// both runs. CI's shared cores switch between speeds: one benchmark
// measured 38 or 62 µs a round, on either side alike, and ten rounds can
// put more of one side's in the slow mode by chance (p below 0.01 for a
// change that did not touch the code measured). A slowdown of the code
// shows in the second run too. (All of it runs again: go test cannot
// select sub-benchmarks of different depths with one pattern.)
func confirm(ctx context.Context, cfg config, sides [2]side, rows []row, stdout io.Writer) error {
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
	second, err := compareOutputs(raw[0], raw[1], cfg.threshold, cfg.alpha)
	if err != nil {
		return err
	}
	second = slices.DeleteFunc(second, func(r row) bool { return !slices.Contains(names, r.name) })
	fmt.Fprintln(stdout)
	renderTable(stdout, second, cfg, "-confirm", cfg.confirm)
	keepConfirmed(rows, second)
	return nil
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
