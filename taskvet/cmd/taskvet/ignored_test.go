package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestReportIgnored finds the files that import errgroup and that the
// build leaves out, and groups them by the environment that takes them,
// a package whose files the build leaves out all included; for a file that
// no build takes and that does not build on its own, it prints the line
// that says it is not analyzed and why. The
// files that the build takes, and those that do not import errgroup, are
// not listed; the tests only when they are analyzed.
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
	write(t, filepath.Join(dir, "win", "w_windows.go"), "package win\n\n"+uses)
	t.Chdir(dir)
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOWORK", "off")
	for _, tests := range []bool{true, false} {
		var b strings.Builder
		envs := reportIgnored(&b, []string{"./..."}, tests)
		out := b.String()
		const line = "gen.go: imports golang.org/x/sync/errgroup and is not analyzed: no build takes it"
		const run = "and it does not build as a package of its own (go build gen.go: "
		if strings.Count(out, "\n") != 1 || !strings.Contains(out, line) || !strings.Contains(out, run) {
			t.Errorf("tests=%v: reportIgnored printed\n%s\nwant one line, %q ... %q", tests, out, line, run)
		}
		var got []string
		for _, e := range envs {
			got = append(got, fmt.Sprintf("%s: %s: %s", e, e.fileList(), strings.Join(e.patterns(), " ")))
		}
		want := []string{"GOOS=windows: sub/s_windows.go, win/w_windows.go: ./sub ./win"}
		if tests {
			want = append([]string{"GOFLAGS=-tags=integration: b_test.go: ."}, want...)
		}
		if !slices.Equal(got, want) {
			t.Errorf("tests=%v: reportIgnored() = %q; want %q", tests, got, want)
		}
	}
}

// TestHowToLoad picks the platform, cgo and tags whose build takes a file:
// this build's architecture for another system, this build's system for
// another architecture, cgo the other way only where the file asks for
// it, and none for a file that no build takes.
func TestHowToLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go tool dist list")
	}
	t.Setenv("CGO_ENABLED", "")
	b := buildConfig{goos: "linux", goarch: "amd64", cgo: true}
	pairs := b.platforms()
	dir := t.TempDir()
	for _, tc := range []struct{ name, src, want string }{
		{"e_windows.go", "package p\n", "GOOS=windows"},
		{"f.go", "//go:build linux && arm64\n\npackage p\n", "GOARCH=arm64"},
		{"g.go", "//go:build !cgo\n\npackage p\n", "CGO_ENABLED=0"},
		{"h.go", "//go:build darwin && cgo\n\npackage p\n", "GOOS=darwin CGO_ENABLED=1"},
		{"i_windows.go", "//go:build !integration\n\npackage p\n", "GOOS=windows"},
		{"j.go", "//go:build integration && windows\n\npackage p\n", "GOOS=windows GOFLAGS=-tags=integration"},
		{"gen.go", "//go:build ignore\n\npackage main\n", "none"},
		{"k.go", "package p\n", "none"}, // this build takes it
	} {
		name := filepath.Join(dir, tc.name)
		write(t, name, tc.src)
		vars, tags, ok := b.howToLoad(name, pairs)
		got := environment{vars: vars, tags: tags}.String()
		if !ok {
			got = "none"
		}
		if got != tc.want {
			t.Errorf("%s: howToLoad() = %q; want %q", tc.name, got, tc.want)
		}
	}
}

// TestWithTags adds the tags to those of GOFLAGS and keeps its other flags.
func TestWithTags(t *testing.T) {
	for _, tc := range []struct{ flags, want string }{
		{"", "-tags=integration"},
		{"-mod=mod", "-mod=mod -tags=integration"},
		{"-buildvcs=false -tags=a,integration", "-buildvcs=false -tags=integration,a"},
	} {
		if got := withTags(tc.flags, []string{"integration"}); got != tc.want {
			t.Errorf("withTags(%q) = %q; want %q", tc.flags, got, tc.want)
		}
	}
}

// fanOut is a file of package plat that makes an errgroup group which
// taskvet -fix migrates.
func fanOut(constraint, name string) string {
	return constraint + `package plat

import "golang.org/x/sync/errgroup"

func ` + name + `(xs []int) error {
	var g errgroup.Group
	for _, x := range xs {
		g.Go(func() error { return put(x) })
	}
	return g.Wait()
}
`
}

// TestFixOtherPlatform runs taskvet -fix ./... on a module whose package
// has a file for Unix and one for Windows, each with a group: both are
// migrated (the Windows one by a run with GOOS=windows, which taskvet says
// it makes), go.mod drops golang.org/x/sync, and the module builds for
// both. A //go:build ignore generator that imports errgroup is migrated
// as a package of its own, as go run gen.go builds it, and still runs.
func TestFixOtherPlatform(t *testing.T) {
	if testing.Short() {
		t.Skip("builds taskvet and a module")
	}
	if runtime.GOOS == "windows" {
		t.Skip("the fixture's other system is windows")
	}
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "taskvet")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	version, sums, goEnv := syncModule(t)
	for _, gen := range []bool{false, true} {
		t.Run(map[bool]string{false: "platforms", true: "ignore"}[gen], func(t *testing.T) {
			dir := t.TempDir()
			write(t, filepath.Join(dir, "go.mod"), "module example.com/plat\n\ngo 1.26\n\nrequire golang.org/x/sync "+version+"\n\nreplace github.com/tasktuple/task => "+root+"\n")
			write(t, filepath.Join(dir, "go.sum"), sums)
			write(t, filepath.Join(dir, "put.go"), "package plat\n\nfunc put(n int) error { return nil }\n")
			write(t, filepath.Join(dir, "a.go"), fanOut("//go:build unix\n\n", "all"))
			write(t, filepath.Join(dir, "b_windows.go"), fanOut("", "each"))
			const genSrc = "//go:build ignore\n\npackage main\n\nimport \"golang.org/x/sync/errgroup\"\n\nfunc main() {\n\tvar g errgroup.Group\n\tg.Go(func() error { return nil })\n\tg.Wait()\n}\n"
			if gen {
				write(t, filepath.Join(dir, "gen.go"), genSrc)
			}
			env := append(os.Environ(), goEnv...)
			cmd := exec.Command(bin, "-fix", "./...")
			cmd.Dir = dir
			cmd.Env = env
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("taskvet -fix: %v\n%s", err, out)
			}
			for _, want := range []string{"taskvet: fixing b_windows.go with GOOS=windows\n", "taskvet: analyzing b_windows.go with GOOS=windows\n"} {
				if !strings.Contains(string(out), want) {
					t.Errorf("taskvet -fix printed\n%s\nwant %q", out, want)
				}
			}
			for _, name := range []string{"a.go", "b_windows.go"} {
				src, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil {
					t.Fatal(err)
				}
				if strings.Contains(string(src), "errgroup") || !strings.Contains(string(src), "task.ForEach(") {
					t.Errorf("%s after taskvet -fix:\n%s\nwant the group migrated to task.ForEach", name, src)
				}
			}
			mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(out), "not analyzed") {
				t.Errorf("taskvet -fix printed\n%s\nwant no file said not analyzed", out)
			}
			if gen {
				// The generator, which go run gen.go builds, is
				// migrated as a package of its own.
				for _, want := range []string{"taskvet: fixing gen.go as a package of its own (no build takes it)\n", "taskvet: analyzing gen.go as a package of its own (no build takes it)\n"} {
					if !strings.Contains(string(out), want) {
						t.Errorf("taskvet -fix printed\n%s\nwant %q", out, want)
					}
				}
				src, _ := os.ReadFile(filepath.Join(dir, "gen.go"))
				if strings.Contains(string(src), "errgroup") || !strings.Contains(string(src), "task.") {
					t.Errorf("gen.go after taskvet -fix:\n%s\nwant the group migrated", src)
				}
				run := exec.Command("go", "run", "gen.go")
				run.Dir = dir
				run.Env = env
				if b, err := run.CombinedOutput(); err != nil {
					t.Errorf("go run gen.go after taskvet -fix: %v\n%s", err, b)
				}
			}
			if strings.Contains(string(mod), "golang.org/x/sync") {
				t.Errorf("go.mod after taskvet -fix:\n%s\nwant the requirement of golang.org/x/sync dropped", mod)
			}
			for _, goos := range []string{"linux", "windows"} {
				build := exec.Command("go", "build", "./...")
				build.Dir = dir
				build.Env = append(slices.Clone(env), "GOOS="+goos)
				if b, err := build.CombinedOutput(); err != nil {
					t.Errorf("GOOS=%s go build ./...: %v\n%s", goos, err, b)
				}
			}
		})
	}
}
