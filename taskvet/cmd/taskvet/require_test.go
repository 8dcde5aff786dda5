package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// requireDemo is a module that uses errgroup and does not require the task
// package: the fix imports it.
const requireDemo = `package demo

import (
	"context"

	"golang.org/x/sync/errgroup"
)

func put(ctx context.Context, n int) error { return nil }

func all(ctx context.Context, xs []int) error {
	g, ctx := errgroup.WithContext(ctx)
	for _, x := range xs {
		g.Go(func() error { return put(ctx, x) })
	}
	return g.Wait()
}
`

// runGet is the line taskvet prints when it cannot add the requirement.
var runGet = regexp.MustCompile(`run go get github\.com/tasktuple/task@[0-9a-z.+-]+, then taskvet again`)

// TestFixAddsRequirement runs taskvet -fix in a module that does not
// require github.com/tasktuple/task: with a replace of it in go.mod, taskvet
// adds the requirement as go mod tidy writes it, and the check after the
// fix loads the packages (no "analysis skipped"); without one, and no way
// to fetch it (the test's module proxy has only golang.org/x/sync), it
// prints the one line to run and exits 1.
func TestFixAddsRequirement(t *testing.T) {
	if testing.Short() {
		t.Skip("builds taskvet and a module")
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
	for _, tc := range []struct {
		name    string
		replace bool
		goLine  string
	}{{"replaced", true, "1.26"}, {"unknown", false, "1.26"}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			gomod := "module example.com/demo\n\ngo " + tc.goLine + "\n\nrequire golang.org/x/sync " + version + "\n"
			if tc.replace {
				gomod += "\nreplace github.com/tasktuple/task => " + root + "\n"
			}
			write(t, filepath.Join(dir, "go.mod"), gomod)
			write(t, filepath.Join(dir, "go.sum"), sums)
			write(t, filepath.Join(dir, "demo.go"), requireDemo)
			cmd := exec.Command(bin, "-fix", "./...")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), goEnv...)
			out, err := cmd.CombinedOutput()
			if strings.Contains(string(out), "analysis skipped") || strings.Contains(string(out), "no required module provides") {
				t.Errorf("taskvet -fix printed the loader's errors:\n%s", out)
			}
			mod, _ := os.ReadFile(filepath.Join(dir, "go.mod"))
			if !tc.replace {
				exit, ok := err.(*exec.ExitError)
				if !ok || exit.ExitCode() != 1 {
					t.Errorf("taskvet -fix: %v, want exit status 1\n%s", err, out)
				}
				if lines := strings.Count(strings.TrimSpace(string(out)), "\n") + 1; lines != 1 || !runGet.Match(out) {
					t.Errorf("taskvet -fix printed %d lines:\n%s\nwant one that says to run go get github.com/tasktuple/task@VERSION", lines, out)
				}
				return
			}
			if err != nil {
				t.Fatalf("taskvet -fix: %v\n%s", err, out)
			}
			if !strings.Contains(string(mod), "github.com/tasktuple/task v0.0.0-00010101000000-000000000000") {
				t.Errorf("go.mod after taskvet -fix:\n%s\nwant the requirement of github.com/tasktuple/task", mod)
			}
			// Nothing imports errgroup any more: go.mod stays tidy.
			if strings.Contains(string(mod), "golang.org/x/sync") || !strings.Contains(string(out), "no package of the module imports golang.org/x/sync any more: dropped its requirement") {
				t.Errorf("taskvet -fix printed\n%s\ngo.mod after it:\n%s\nwant the requirement of golang.org/x/sync dropped, and a line that says so", out, mod)
			}
			if strings.Contains(string(out), "moves the go line of") {
				t.Errorf("taskvet -fix printed\n%s\nwant no line about the go line, which stays at %s", out, tc.goLine)
			}
			build := exec.Command("go", "build", "./...")
			build.Dir = dir
			build.Env = cmd.Env
			if b, err := build.CombinedOutput(); err != nil {
				t.Errorf("the fixed module does not build: %v\n%s", err, b)
			}
		})
	}
}

// TestGoLineMove reads the go line of the library's go.mod (here the
// repository's, as a replace gives it) and says, in one line, what moving
// the module's go line to it turns on: the loop variables of Go 1.22 only
// when the line crosses 1.22.
func TestGoLineMove(t *testing.T) {
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(data), "\ngo ")
	lib, _, _ := strings.Cut(rest, "\n")
	for _, tc := range []struct {
		from  string
		to    string
		loops bool
	}{{"1.21", lib, true}, {"1.22", lib, false}, {"", lib, true}, {lib, "", false}} {
		m := &mainModule{dir: t.TempDir(), goVersion: tc.from, replaced: true, replaceDir: root}
		var b strings.Builder
		to := m.goLineMove(&b)
		out := b.String()
		if to != tc.to {
			t.Errorf("goLineMove() from %q = %q; want %q", tc.from, to, tc.to)
		}
		if tc.to == "" {
			if out != "" {
				t.Errorf("goLineMove() from %q printed %q; want nothing", tc.from, out)
			}
			continue
		}
		from := tc.from
		if from == "" {
			from = "1.16"
		}
		for _, want := range []string{"from " + from + " to " + lib + ": go test runs the vet checks of Go " + lib, "run go mod edit -go=" + lib + " && go vet ./... && go test ./..."} {
			if !strings.Contains(out, want) {
				t.Errorf("goLineMove() from %q printed %q; want %q in it", tc.from, out, want)
			}
		}
		if got := strings.Contains(out, "declares new loop variables (Go 1.22)"); got != tc.loops || strings.Count(out, "\n") != 1 {
			t.Errorf("goLineMove() from %q printed %q; want one line, which names the loop variables: %v", tc.from, out, tc.loops)
		}
	}
}
