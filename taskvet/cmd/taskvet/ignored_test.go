package main

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestReportIgnored lists the files that import errgroup and that the
// build leaves out, each with the command that analyzes it; the files that
// the build takes, and those that do not import errgroup, are not listed.
func TestReportIgnored(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	if runtime.GOOS == "windows" {
		t.Skip("the fixture's other system is windows")
	}
	dir := t.TempDir()
	const uses = "import \"golang.org/x/sync/errgroup\"\n\nvar _ errgroup.Group\n"
	write(t, filepath.Join(dir, "go.mod"), "module example.com/ignored\n\ngo 1.26\n")
	write(t, filepath.Join(dir, "a.go"), "package ignored\n\n"+uses)
	write(t, filepath.Join(dir, "gen.go"), "//go:build ignore\n\npackage main\n\n"+uses)
	write(t, filepath.Join(dir, "b_test.go"), "//go:build integration\n\npackage ignored\n\n"+uses)
	write(t, filepath.Join(dir, "sub", "s.go"), "package sub\n")
	write(t, filepath.Join(dir, "sub", "s_windows.go"), "package sub\n\n"+uses)
	write(t, filepath.Join(dir, "sub", "t_windows.go"), "package sub\n")
	t.Chdir(dir)
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOWORK", "off")
	var b strings.Builder
	n := reportIgnored(&b, []string{"./..."})
	const tail = "and is not analyzed: its build constraints exclude it from this build"
	want := []string{
		"b_test.go: imports golang.org/x/sync/errgroup " + tail,
		"to analyze it, run GOFLAGS=-tags=integration taskvet .",
		"gen.go: imports golang.org/x/sync/errgroup " + tail,
		"to analyze it, run taskvet gen.go (a file that no build takes",
		"sub/s_windows.go: imports golang.org/x/sync/errgroup " + tail,
		"to analyze it, run GOOS=windows taskvet ./sub",
	}
	out := b.String()
	if n != 3 {
		t.Errorf("reportIgnored() = %d; want 3 files\n%s", n, out)
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("reportIgnored printed\n%s\nwant a line with %q", out, w)
		}
	}
	if strings.Contains(out, "t_windows.go") || strings.Contains(out, "a.go") {
		t.Errorf("reportIgnored printed\n%s\nwant no line for a file that the build takes or that does not import errgroup", out)
	}
}
