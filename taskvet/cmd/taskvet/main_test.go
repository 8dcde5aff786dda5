package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestFixExitStatus runs taskvet -fix on a module with sites that have a
// fix and one that has none: the fixes are applied (a group made again after
// the wait of another is one group in place), the other diagnostic is printed, and taskvet says so and exits
// with status 3.
func TestFixExitStatus(t *testing.T) {
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
	version, sums := syncModule(t)
	dir := t.TempDir()
	write(t, filepath.Join(dir, "go.mod"), "module example.com/fixdemo\n\ngo 1.26\n\n"+
		"require (\n\tgithub.com/tasktuple/task v0.0.0\n\tgolang.org/x/sync "+version+"\n)\n\n"+
		"replace github.com/tasktuple/task => "+root+"\n")
	write(t, filepath.Join(dir, "go.sum"), sums)
	write(t, filepath.Join(dir, "fixdemo.go"), `package fixdemo

import (
	"context"

	"golang.org/x/sync/errgroup"
)

func get(ctx context.Context) (int, error) { return 1, nil }

func put(ctx context.Context, n int) error { return nil }

func remade(ctx context.Context, xs, ys []int) error {
	eg, ctx2 := errgroup.WithContext(ctx)
	for _, x := range xs {
		eg.Go(func() error { return put(ctx2, x) })
	}
	if err := eg.Wait(); err != nil {
		return err
	}
	eg, ctx2 = errgroup.WithContext(ctx)
	for _, y := range ys {
		eg.Go(func() error { return put(ctx2, y) })
	}
	return eg.Wait()
}

func fixed(ctx context.Context) (int, int, error) {
	var a, b int
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		var err error
		a, err = get(ctx)
		return err
	})
	g.Go(func() error {
		var err error
		b, err = get(ctx)
		return err
	})
	if err := g.Wait(); err != nil {
		return 0, 0, err
	}
	return a, b, nil
}

type pool struct{ g errgroup.Group }

func (p *pool) add(n int) { p.g.Go(func() error { return put(context.Background(), n) }) }
func (p *pool) wait() error { return p.g.Wait() }
`)
	cmd := exec.Command(bin, "-fix", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	out, err := cmd.CombinedOutput()
	exit, ok := err.(*exec.ExitError)
	if !ok || exit.ExitCode() != 3 {
		t.Fatalf("taskvet -fix: %v, want exit status 3\n%s", err, out)
	}
	for _, want := range []string{"errgroup group in a field (g) not migrated: given children in add", "taskvet: -fix applied the fixes it had; the diagnostics above remain"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("taskvet -fix printed\n%s\nwant a line with %q", out, want)
		}
	}
	src, err := os.ReadFile(filepath.Join(dir, "fixdemo.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"a, b, err := task.Run2(ctx, get, get, task.FirstError)",
		"eg, ctx2 := task.NewGroup(ctx, task.FirstError)",
		"eg, ctx2 = task.NewGroup(ctx, task.FirstError)",
		"eg.Go(func(context.Context) error { return put(ctx2, y) })",
	} {
		if !strings.Contains(string(src), want) {
			t.Errorf("the fixes were not applied: want %q in\n%s", want, src)
		}
	}
}

// syncModule returns the version of golang.org/x/sync that taskvet uses,
// and its lines of go.sum.
func syncModule(t *testing.T) (string, string) {
	f, err := os.Open("../../go.sum")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var version, sums string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 3 && fields[0] == "golang.org/x/sync" {
			sums += sc.Text() + "\n"
			version = strings.TrimSuffix(fields[1], "/go.mod")
		}
	}
	if version == "" {
		t.Fatal("golang.org/x/sync is not in go.sum")
	}
	return version, sums
}

func write(t *testing.T, name, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
