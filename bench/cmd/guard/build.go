package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// guardDir is the package of BenchmarkGuard, relative to the repository's
// root, and guardPkg the same relative to the bench module.
const (
	guardDir = "bench/guard"
	guardPkg = "./guard"
)

// A side is one of the two trees compared.
type side struct {
	name   string // "base" or "head"
	commit string // the commit built; "" for the working tree
	root   string // the tree built: the repository's root, or a copy of commit
	binary string // the test binary, once built
}

// olderAPITag is the build tag that leaves out the benchmarks of
// bench/guard that need an API newer than a1ba8fa's (see newerAPI).
const olderAPITag = "guard_a1ba8fa"

// prepare makes s's tree ready to build in tmp. A commit is copied out of
// git into tmp/<name> (git archive, so the clone's worktrees and index stay
// as they are), and its bench/guard replaced by the working tree's, so that
// both sides run the same benchmarks whatever the commit had.
func (s *side) prepare(ctx context.Context, root, tmp string) error {
	if s.commit == "" {
		s.root = root
		return nil
	}
	s.root = filepath.Join(tmp, s.name)
	if err := extract(ctx, root, s.commit, s.root); err != nil {
		return err
	}
	return copyGuard(filepath.Join(root, guardDir), filepath.Join(s.root, guardDir))
}

// newerAPI reports whether the library in the tree at root declares
// NewGroup (and with it Group.Wait), which the benchmarks of
// bench/guard/group_test.go need: a1ba8fa, the oldest commit the guard
// builds, has neither.
func newerAPI(root string) (bool, error) {
	files, err := filepath.Glob(filepath.Join(root, "*.go"))
	if err != nil {
		return false, err
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			return false, err
		}
		if bytes.Contains(data, []byte("\nfunc NewGroup(")) {
			return true, nil
		}
	}
	return false, nil
}

// build builds s's test binary of BenchmarkGuard in tmp, from the tree
// prepare made, with the build tags tags (none if empty). The build runs
// with GOWORK=off: the bench module's go.mod replaces the library by its
// parent folder, the tree's own; the workspace would bring in the other
// modules.
func (s *side) build(ctx context.Context, tmp, tags string, stdout io.Writer) error {
	start := time.Now()
	bench := filepath.Join(s.root, "bench")
	if _, err := os.Stat(filepath.Join(bench, "go.mod")); err != nil {
		return fmt.Errorf("%s: the tree has no bench module: %w", s.name, err)
	}
	s.binary = filepath.Join(tmp, s.name+".test")
	cmd := exec.CommandContext(ctx, "go", "test", "-c", "-tags="+tags, "-o", s.binary, guardPkg)
	cmd.Dir = bench
	cmd.Env = append(os.Environ(), "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		if out := strings.TrimSpace(string(out)); out != "" {
			err = fmt.Errorf("%v:\n%s", err, out)
		}
		return fmt.Errorf("building the %s (go test -c %s in %s): %w", s.name, guardPkg, bench, err)
	}
	fmt.Fprintf(stdout, "guard: built the %s in %.1fs\n", s.name, time.Since(start).Seconds())
	return nil
}

// extract writes the tree of commit into dir: git archive commit | tar -x.
func extract(ctx context.Context, root, commit, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	archive := exec.CommandContext(ctx, "git", "-C", root, "archive", "--format=tar", commit)
	untar := exec.CommandContext(ctx, "tar", "-x", "-C", dir)
	var archiveErr, untarErr bytes.Buffer
	archive.Stderr, untar.Stderr = &archiveErr, &untarErr
	pipe, err := archive.StdoutPipe()
	if err != nil {
		return err
	}
	untar.Stdin = pipe
	if err := archive.Start(); err != nil {
		return err
	}
	errUntar := untar.Run() // reads the pipe to its end before archive.Wait closes it
	errArchive := archive.Wait()
	if errArchive != nil || errUntar != nil {
		return fmt.Errorf("git archive %s | tar -x -C %s: %v %s; %v %s", commit, dir,
			errArchive, strings.TrimSpace(archiveErr.String()), errUntar, strings.TrimSpace(untarErr.String()))
	}
	return nil
}

// copyGuard replaces the Go files of dst by those of src: the folder is
// made anew, so that a guard file the commit had and the working tree no
// longer has cannot join the build.
func copyGuard(src, dst string) error {
	files, err := filepath.Glob(filepath.Join(src, "*.go"))
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("no Go files in %s: the working tree has no BenchmarkGuard", src)
	}
	if err := os.RemoveAll(dst); err != nil {
		return err
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dst, filepath.Base(f)), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
