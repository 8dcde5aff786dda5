package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckBuilds changes two packages of a module as a fix would, one so
// that it no longer builds ("imported and not used"): checkBuilds puts that
// one back as it was, says why, and keeps the other.
func TestCheckBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	t.Parallel()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "go.mod"), "module example.com/buildcheck\n\ngo 1.24\n")
	broken := filepath.Join(dir, "a", "a.go")
	kept := filepath.Join(dir, "b", "b.go")
	write(t, broken, "package a\n\nfunc A() int { return 1 }\n")
	write(t, filepath.Join(dir, "a", "other.go"), "package a\n\nvar x = A()\n")
	write(t, kept, "package b\n\nfunc B() int { return 1 }\n")
	s := takeSnapshot(dir)
	write(t, broken, "package a\n\nimport \"fmt\"\n\nfunc A() int { return 2 }\n")
	write(t, kept, "package b\n\nfunc B() int { return 2 }\n")
	var out strings.Builder
	if code := checkBuilds(&out, s, nil); code != 1 {
		t.Errorf("checkBuilds() = %d; want 1 (a fix undone)", code)
	}
	if got, _ := os.ReadFile(broken); string(got) != "package a\n\nfunc A() int { return 1 }\n" {
		t.Errorf("a/a.go after checkBuilds:\n%s\nwant it as it was before the fix", got)
	}
	if got, _ := os.ReadFile(kept); string(got) != "package b\n\nfunc B() int { return 2 }\n" {
		t.Errorf("b/b.go after checkBuilds:\n%s\nwant the fix kept", got)
	}
	for _, want := range []string{"taskvet: undid the fixes of a.go: ./a builds as it was and did not build after them", `"fmt" imported and not used`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("checkBuilds printed\n%s\nwant %q", out.String(), want)
		}
	}
	if strings.Contains(out.String(), "b.go") {
		t.Errorf("checkBuilds printed\n%s\nwant nothing of b.go, which builds", out.String())
	}
}

// TestCheckBuildsBrokenBefore: a package that did not build before the
// fixes keeps them, and checkBuilds says so.
func TestCheckBuildsBrokenBefore(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	t.Parallel()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "go.mod"), "module example.com/buildcheck\n\ngo 1.24\n")
	f := filepath.Join(dir, "a.go")
	write(t, f, "package a\n\nfunc A() int { return undefined }\n")
	s := takeSnapshot(dir)
	fixed := "package a\n\nfunc A() int { return undefined + 1 }\n"
	write(t, f, fixed)
	var out strings.Builder
	if code := checkBuilds(&out, s, nil); code != 0 {
		t.Errorf("checkBuilds() = %d; want 0", code)
	}
	if got, _ := os.ReadFile(f); string(got) != fixed {
		t.Errorf("a.go after checkBuilds:\n%s\nwant the fix kept", got)
	}
	if want := "does not build after the fixes, nor as it was before them: kept the fixes of a.go"; !strings.Contains(out.String(), want) {
		t.Errorf("checkBuilds printed\n%s\nwant %q", out.String(), want)
	}
}
