package main

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
)

// git runs git in dir and returns its output, trimmed; an error carries
// what git wrote to stderr.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}

// gitToplevel returns the root of the repository the command runs in.
func gitToplevel(ctx context.Context) (string, error) {
	root, err := git(ctx, ".", "rev-parse", "--show-toplevel")
	if err != nil {
		return "", fmt.Errorf("not in the repository's clone: %w", err)
	}
	return root, nil
}

// resolveSide returns the side named name at ref, resolved to a commit.
func resolveSide(ctx context.Context, root, name, ref string) (side, error) {
	commit, err := git(ctx, root, "rev-parse", "--verify", "--quiet", ref+"^{commit}")
	if err != nil {
		shallow, _ := git(ctx, root, "rev-parse", "--is-shallow-repository")
		hint := "fetch it, or name another with -" + name
		if shallow == "true" {
			hint = "this clone is shallow: fetch the history (git fetch --unshallow), or name another with -" + name
		}
		return side{}, fmt.Errorf("the %s %q is not a commit in this clone: %s", name, ref, hint)
	}
	return side{name: name, commit: commit}, nil
}

// describe names what side s builds, with the subject of its commit: a
// commit, or the working tree on top of HEAD and whether it has changes.
func describe(ctx context.Context, root string, s side) string {
	rev, what := s.commit, ""
	if rev == "" {
		rev, what = "HEAD", "working tree at "
	}
	line, err := git(ctx, root, "log", "-1", "--format=%h %s", rev)
	if err != nil {
		line = rev
	}
	if len(line) > 80 {
		line = line[:77] + "..."
	}
	if s.commit == "" {
		if st, err := git(ctx, root, "status", "--porcelain", "--untracked-files=no"); err == nil && st != "" {
			line += " (with uncommitted changes)"
		}
	}
	return what + line
}
