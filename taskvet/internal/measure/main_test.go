package main

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
)

func TestNoRun(t *testing.T) {
	// go test that could not start: one failure for the package.
	out := noRun("./x", []byte("go: errors parsing go.mod:\ngo.mod:99:2: usage: require module/path v1.2.3\n"), errors.New("exit status 1"))
	pass, fail := testResults(out)
	if want := []string{"./x [go test did not run: go: errors parsing go.mod:] [package]"}; pass != 0 || !slices.Equal(fail, want) {
		t.Errorf("got %d passed, %q failed; want 0, %q", pass, fail, want)
	}
	// A run with a result is left as it is.
	js := []byte(`{"Action":"pass","Package":"p","Test":"TestA"}
{"Action":"fail","Package":"p","Test":"TestB"}
{"Action":"fail","Package":"p"}
`)
	pass, fail = testResults(noRun("./p", js, errors.New("exit status 1")))
	if want := []string{"p.TestB", "p [package]"}; pass != 1 || !slices.Equal(fail, want) {
		t.Errorf("got %d passed, %q failed; want 1, %q", pass, fail, want)
	}
}

// TestOtherBuilds reads the environments of taskvet's lines, each once,
// with their packages; GOFLAGS adds to that of every go command here.
func TestOtherBuilds(t *testing.T) {
	out := []byte(`taskvet: fixing client_windows.go, engine_windows.go, sub/s_windows.go with GOOS=windows
a.go:3:2: not migrated
taskvet: analyzing client_windows.go, engine_windows.go, sub/s_windows.go with GOOS=windows
taskvet: analyzing b_test.go with GOARCH=arm64 GOFLAGS=-tags=integration
gen.go: imports golang.org/x/sync/errgroup and is not analyzed: its build constraints exclude it from this build (GOOS=linux GOARCH=amd64); to analyze it, run taskvet gen.go (a file that no build takes, loaded as a package of its own)
`)
	builds := otherBuilds(out)
	if len(builds) != 2 {
		t.Fatalf("otherBuilds() = %+v; want 2", builds)
	}
	if b := builds[0]; b.name != "GOOS=windows" || !slices.Equal(b.dirs, []string{"./.", "./sub"}) || len(b.files) != 3 {
		t.Errorf("otherBuilds()[0] = %+v; want GOOS=windows, ./. and ./sub, 3 files", b)
	}
	got := builds[1].environ()
	if want := "GOFLAGS=-mod=mod -tags=integration"; got[len(got)-1] != want || !slices.Contains(got, "GOARCH=arm64") {
		t.Errorf("environ() = %q; want GOARCH=arm64 and, last, %q", got, want)
	}
}

// TestDiagnosticsOnce: a diagnostic printed by two runs (a file of every
// platform, analyzed again with GOOS=windows) counts once.
func TestDiagnosticsOnce(t *testing.T) {
	const one = `{"p": {"errgroupfix": [{"posn": "/m/src/a.go:3:2", "message": "not migrated"}]}}`
	const two = `{"p": {"errgroupfix": [{"posn": "/m/src/a.go:3:2", "message": "not migrated"}, {"posn": "/m/src/b_windows.go:3:2", "message": "not migrated"}]}}`
	if got := diagnostics([]byte(one + "\n" + two)); len(got) != 2 {
		t.Errorf("diagnostics() = %+v; want 2", got)
	}
}

// TestIgnoredFiles lists the files that this build leaves out, in a
// package that it builds and in one whose files it leaves out all.
func TestIgnoredFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	if runtime.GOOS == "windows" {
		t.Skip("the fixture's other system is windows")
	}
	dir := t.TempDir()
	for name, src := range map[string]string{
		"go.mod":               "module example.com/m\n\ngo 1.26\n",
		"a.go":                 "package m\n",
		"b_windows.go":         "package m\n",
		"win/w_windows.go":     "package win\n",
		"other/o.go":           "package other\n",
		"other/o_plan9_arm.go": "package other\n",
	} {
		check(os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		check(os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
	}
	got := slices.Sorted(maps.Keys(ignoredFiles(dir, []string{"./.", "./win"})))
	if want := []string{"b_windows.go", "win/w_windows.go"}; !slices.Equal(got, want) {
		t.Errorf("ignoredFiles() = %q; want %q", got, want)
	}
}
