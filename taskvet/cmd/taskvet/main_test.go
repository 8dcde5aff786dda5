package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tasktuple/task/taskvet/internal/modproxy"
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
	version, sums, goEnv := syncModule(t)
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
	cmd.Env = append(os.Environ(), goEnv...)
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

// syncModule serves golang.org/x/sync, every file as testdata/mod holds it,
// from a module proxy of the test's own, and returns its version, its lines
// of go.sum, and the variables of a go command that takes modules from that
// proxy alone: nothing comes from the network, and what the module cache
// holds does not matter (what the proxy serves is the real module, which
// the go command may keep in the cache).
func syncModule(t *testing.T) (version, sums string, goEnv []string) {
	t.Helper()
	proxy := t.TempDir()
	lines, err := modproxy.AddTxtar(proxy, filepath.Join("..", "..", "testdata", "mod", "golang.org_x_sync_v0.24.0.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	u, err := modproxy.URL(proxy)
	if err != nil {
		t.Fatal(err)
	}
	goEnv = []string{"GOWORK=off", "GOFLAGS=-mod=mod", "GOPROXY=" + u, "GOSUMDB=off"}
	return strings.Fields(lines[0])[1], strings.Join(lines, "\n") + "\n", goEnv
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
