package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// runRounds runs the two binaries in cfg.rounds interleaved rounds, each
// round both once, the base first in odd rounds and the head first in even
// ones, so that a drift of the machine's speed over the run (another job
// starting, the CPU warming) falls on both sides alike. It prints a line per
// round, and returns the outputs of each side, base first; with -o it also
// writes them to base.txt and head.txt as the rounds go.
func runRounds(ctx context.Context, cfg config, sides [2]side, stdout io.Writer) ([2][]byte, error) {
	var raw [2][]byte
	var files [2]*os.File
	if cfg.out != "" {
		if err := os.MkdirAll(cfg.out, 0o755); err != nil {
			return raw, err
		}
		for i, s := range sides {
			f, err := os.Create(filepath.Join(cfg.out, s.name+".txt"))
			if err != nil {
				return raw, err
			}
			defer f.Close()
			files[i] = f
		}
	}
	timeout, err := runTimeout(cfg.benchtime)
	if err != nil {
		return raw, err
	}
	args := []string{
		"-test.run", "^$",
		"-test.bench", "^BenchmarkGuard$",
		"-test.benchmem",
		"-test.count", "1",
		"-test.benchtime", cfg.benchtime,
		"-test.cpu", strconv.Itoa(cfg.cpu),
		"-test.timeout", timeout.String(),
	}
	fmt.Fprintf(stdout, "guard: %d rounds of BenchmarkGuard at -benchtime %s and GOMAXPROCS %d, each running both binaries\n",
		cfg.rounds, cfg.benchtime, cfg.cpu)
	start := time.Now()
	for r := 1; r <= cfg.rounds; r++ {
		order := []int{0, 1}
		if r%2 == 0 {
			order = []int{1, 0}
		}
		var took [2]time.Duration
		for _, i := range order {
			t := time.Now()
			out, err := runBinary(ctx, sides[i], args)
			if err != nil {
				return raw, fmt.Errorf("round %d: %w", r, err)
			}
			took[i] = time.Since(t)
			raw[i] = append(raw[i], out...)
			if files[i] != nil {
				if _, err := files[i].Write(out); err != nil {
					return raw, err
				}
			}
		}
		fmt.Fprintf(stdout, "guard: round %d/%d: %s first; base %.1fs, head %.1fs; %.0fs in all\n",
			r, cfg.rounds, sides[order[0]].name, took[0].Seconds(), took[1].Seconds(), time.Since(start).Seconds())
	}
	for _, f := range files {
		if f != nil {
			if err := f.Close(); err != nil {
				return raw, err
			}
		}
	}
	if cfg.out != "" {
		fmt.Fprintf(stdout, "guard: raw outputs in %s (benchstat %[2]s %[3]s)\n", cfg.out,
			filepath.Join(cfg.out, "base.txt"), filepath.Join(cfg.out, "head.txt"))
	}
	return raw, nil
}

// runBinary runs s's test binary once, in its package's folder as go test
// would, and returns its output. A failed benchmark or a timeout is an
// error that carries the binary's output: the guard cannot compare what
// did not run.
func runBinary(ctx context.Context, s side, args []string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, s.binary, args...)
	cmd.Dir = filepath.Join(s.root, guardDir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if out := strings.TrimSpace(stdout.String() + stderr.String()); out != "" {
			err = fmt.Errorf("%v:\n%s", err, out)
		}
		return nil, fmt.Errorf("the %s's BenchmarkGuard failed: %w", s.name, err)
	}
	return stdout.Bytes(), nil
}
