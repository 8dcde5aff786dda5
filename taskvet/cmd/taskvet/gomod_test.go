package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
)

// TestEditSync: the requirement of golang.org/x/sync is dropped, or kept
// with its version and marked // indirect; go.mod parses after either.
func TestEditSync(t *testing.T) {
	const gomod = "module example.com/m\n\ngo 1.24\n\nrequire (\n\tgolang.org/x/sync v0.24.0\n\texample.com/other v1.0.0\n)\n"
	for _, used := range []bool{false, true} {
		f, err := modfile.Parse("go.mod", []byte(gomod), nil)
		if err != nil {
			t.Fatal(err)
		}
		var req *modfile.Require
		for _, r := range f.Require {
			if r.Mod.Path == syncPath {
				req = r
			}
		}
		if what := editSync(f, req, used); what == "" {
			t.Fatalf("used=%v: editSync did nothing", used)
		}
		out, err := f.Format()
		if err != nil {
			t.Fatal(err)
		}
		g, err := modfile.Parse("go.mod", out, nil)
		if err != nil {
			t.Fatalf("used=%v: go.mod after the edit does not parse: %v\n%s", used, err, out)
		}
		var got *modfile.Require
		for _, r := range g.Require {
			if r.Mod.Path == syncPath {
				got = r
			}
		}
		switch {
		case !used && got != nil:
			t.Errorf("not used: the requirement stays:\n%s", out)
		case used && (got == nil || got.Mod.Version != "v0.24.0" || !got.Indirect):
			t.Errorf("used by a dependency: want golang.org/x/sync v0.24.0 // indirect:\n%s", out)
		}
		if len(g.Require) != 2-map[bool]int{false: 1, true: 0}[used] {
			t.Errorf("used=%v: %d requirements left:\n%s", used, len(g.Require), out)
		}
	}
}

// TestRequirePlaced: the requirements taskvet writes land where go get and
// go mod tidy put them, in a go.mod of two blocks: the library's among the
// direct ones, golang.org/x/sync, once only a dependency uses it, among the
// indirect ones, each in order.
func TestRequirePlaced(t *testing.T) {
	const gomod = `module example.com/m

go 1.26

require (
	example.com/a v1.0.0
	golang.org/x/sync v0.24.0
	zz.example/z v1.0.0
)

require (
	example.com/dep v1.0.0 // indirect
	golang.org/x/text v0.30.0 // indirect
)
`
	const want = `module example.com/m

go 1.26

require (
	example.com/a v1.0.0
	github.com/tasktuple/task v0.0.0-00010101000000-000000000000
	zz.example/z v1.0.0
)

require (
	example.com/dep v1.0.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/text v0.30.0 // indirect
)
`
	name := filepath.Join(t.TempDir(), "go.mod")
	write(t, name, gomod)
	if err := requireReplaced(name, ""); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	f, err := modfile.Parse(name, data, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range f.Require {
		if r.Mod.Path == syncPath {
			editSync(f, r, true)
		}
	}
	out, err := f.Format()
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != want {
		t.Errorf("go.mod after requireReplaced and editSync:\n%s\nwant\n%s", out, want)
	}
}

// TestTidySyncOtherPlatform: the requirement of golang.org/x/sync stays
// while a _windows.go file of the module imports errgroup, and stays,
// marked // indirect, while a dependency that only a _windows.go file
// imports uses it; GOOS=windows go build ./... then needs no change to
// go.mod.
func TestTidySyncOtherPlatform(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go mod why and go build")
	}
	version, sums, goEnv := syncModule(t)
	for _, kv := range goEnv {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	for _, tc := range []struct {
		name, windows, want string
	}{
		{"module", "import \"golang.org/x/sync/errgroup\"\n\nvar _ errgroup.Group\n", "golang.org/x/sync " + version + "\n"},
		{"dependency", "import _ \"example.com/dep\"\n", "golang.org/x/sync " + version + " // indirect\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, filepath.Join(dir, "go.mod"), "module example.com/m\n\ngo 1.26.0\n\nrequire (\n\texample.com/dep v0.0.0\n\tgolang.org/x/sync "+version+"\n)\n\nreplace example.com/dep => ./dep\n")
			write(t, filepath.Join(dir, "go.sum"), sums)
			write(t, filepath.Join(dir, "a.go"), "package m\n")
			write(t, filepath.Join(dir, "w_windows.go"), "package m\n\n"+tc.windows)
			write(t, filepath.Join(dir, "dep", "go.mod"), "module example.com/dep\n\ngo 1.26.0\n\nrequire golang.org/x/sync "+version+"\n")
			write(t, filepath.Join(dir, "dep", "go.sum"), sums)
			write(t, filepath.Join(dir, "dep", "d.go"), "package dep\n\nimport \"golang.org/x/sync/errgroup\"\n\nvar G errgroup.Group\n")
			m := &mainModule{dir: dir}
			m.tidySync()
			mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(mod), tc.want) {
				t.Errorf("go.mod after tidySync:\n%s\nwant %q in it", mod, tc.want)
			}
			build := exec.Command("go", "build", "-mod=readonly", "./...")
			build.Dir = dir
			build.Env = append(os.Environ(), "GOOS=windows", "GOFLAGS=")
			if out, err := build.CombinedOutput(); err != nil {
				t.Errorf("GOOS=windows go build -mod=readonly ./...: %v\n%s", err, out)
			}
		})
	}
}
