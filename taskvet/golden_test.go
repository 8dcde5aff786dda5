package taskvet_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tasktuple/task/taskvet/internal/modproxy"
)

// TestGoldenCompiles builds the fixed code of every .golden file in a
// module of its own, against the real github.com/tasktuple/task (the
// repository root, by a replace) and the real errgroup, so that a fix that
// does not compile, or a fake that drifted from the real API, fails here.
func TestGoldenCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	goldens, err := filepath.Glob("testdata/src/*/*.golden")
	if err != nil || len(goldens) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	syncVersion, sums, goEnv := syncModule(t)
	for _, kv := range goEnv {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	// The fake testify has no real counterpart here: a module of its own.
	gomod := "module example.com/golden\n\ngo 1.26\n\n" +
		"require (\n\tgithub.com/tasktuple/task v0.0.0\n\tgolang.org/x/sync " + syncVersion + "\n\tgithub.com/stretchr/testify v0.0.0\n\texample.com/errors v0.0.0\n)\n\n" +
		"replace github.com/tasktuple/task => " + root + "\n" +
		"replace github.com/stretchr/testify => ./testify\n" +
		"replace example.com/errors => ./exerrors\n"
	write(t, filepath.Join(dir, "go.mod"), gomod)
	write(t, filepath.Join(dir, "go.sum"), sums)
	write(t, filepath.Join(dir, "testify", "go.mod"), "module github.com/stretchr/testify\n\ngo 1.26\n")
	fake, err := os.ReadFile("testdata/src/github.com/stretchr/testify/require/require.go")
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "testify", "require", "require.go"), string(fake))
	// Another package named errors, as cockroachdb/errors is.
	write(t, filepath.Join(dir, "exerrors", "go.mod"), "module example.com/errors\n\ngo 1.26\n")
	fake, err = os.ReadFile("testdata/src/example.com/errors/errors.go")
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "exerrors", "errors.go"), string(fake))
	for _, g := range goldens {
		pkg := filepath.Base(filepath.Dir(g))
		src, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(dir, pkg, strings.TrimSuffix(filepath.Base(g), ".golden")), string(src))
	}
	cmd := exec.Command("go", "vet", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the fixed code of %d golden files does not build:\n%s", len(goldens), out)
	}
	// The group in place of x/build's internal/cloud: the error that
	// leaves the function is errgroup's, which its callers compare with
	// ==; a limited group over a channel blocks at the limit and ends; a
	// KeepGoing group's context, read after the Wait, is canceled there,
	// as errgroup's.
	write(t, filepath.Join(dir, "errgroupinplace", "run_test.go"), `package errgroupinplace

import (
	"context"
	"errors"
	"testing"
)

func TestInPlace(t *testing.T) {
	if err := createInstance(context.Background(), 1); err != rateExceededErr {
		t.Errorf("createInstance() = %v; want rateExceededErr itself", err)
	}
	items := make(chan Item)
	go func() {
		defer close(items)
		for i := range 100 {
			items <- Item{ID: i}
		}
	}()
	if err := unboundedLimit(context.Background(), items); err != nil {
		t.Errorf("unboundedLimit() = %v; want nil", err)
	}
	if err := ctxAfterWait(context.Background(), []Item{{ID: 1}}); !errors.Is(err, context.Canceled) {
		t.Errorf("ctxAfterWait() = %v; want context.Canceled: Wait cancels the group's context, as errgroup's", err)
	}
}
`)
	cmd = exec.Command("go", "test", "-race", "-run", "^TestInPlace$", "./errgroupinplace")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the fixed code of errgroupinplace fails:\n%s", out)
	}
	// The loop forms run: no SetLimit, or a negative one, is the limit -1,
	// no limit, and the option a condition sets may be the zero Option.
	write(t, filepath.Join(dir, "errgroupfixloop", "run_test.go"), `package errgroupfixloop

import (
	"context"
	"testing"
)

func TestLoop(t *testing.T) {
	items := make([]Item, 100)
	if err := negativeLimit(context.Background(), items); err != nil {
		t.Errorf("negativeLimit() = %v; want nil", err)
	}
	for _, failFast := range []bool{false, true} {
		if err := condDerived(context.Background(), items, failFast); err != nil {
			t.Errorf("condDerived(failFast=%v) = %v; want nil", failFast, err)
		}
	}
}
`)
	cmd = exec.Command("go", "test", "-run", "^TestLoop$", "./errgroupfixloop")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the fixed code of errgroupfixloop fails:\n%s", out)
	}
	// The shapes of fields, embedded groups and factories run, under the
	// race detector: a factory is called at the Go, before the caller goes
	// on, as errgroup's Go got its function; a group in a field made by
	// start and waited for by stop can be started again.
	write(t, filepath.Join(dir, "errgroupshapes", "run_test.go"), `package errgroupshapes

import (
	"context"
	"testing"
)

func TestShapes(t *testing.T) {
	ctx := context.Background()
	if got := evaluatedAtGo(); got != 1 {
		t.Errorf("evaluatedAtGo() = %d; want 1: the factory runs at the Go, as with errgroup", got)
	}
	made.Store(0)
	if err := factory(ctx, make([]Item, 10)); err != nil || made.Load() != 10 {
		t.Errorf("factory() = %v, %d calls of fetcher; want nil, 10", err, made.Load())
	}
	if err := methodFactory(ctx, &handler{}, Item{}, Item{ID: 1}); err != nil {
		t.Errorf("methodFactory() = %v; want nil", err)
	}
	if n, err := varBlock(ctx, make([]Item, 3)); n != 3 || err != nil {
		t.Errorf("varBlock() = %d, %v; want 3, nil", n, err)
	}
	var s server
	for round := range 2 {
		s.start(ctx, make([]Item, 5))
		if err := s.stop(); err != nil {
			t.Errorf("round %d: stop() = %v; want nil", round, err)
		}
	}
	var e engine
	e.start(ctx)
	if err := e.stop(); err != nil || e.reads.Load() != 1 || e.writes.Load() != 1 {
		t.Errorf("engine stop() = %v after %d reads, %d writes; want nil after 1, 1", err, e.reads.Load(), e.writes.Load())
	}
	if err := runWorker(ctx, make([]Item, 4)); err != nil {
		t.Errorf("runWorker() = %v; want nil", err)
	}
	if err := runBatch(ctx, make([]Item, 4)); err != nil {
		t.Errorf("runBatch() = %v; want nil", err)
	}
	if err := nested(ctx, make([]Item, 4)); err != nil {
		t.Errorf("nested() = %v; want nil", err)
	}
	if err := runBatches(ctx, make([]Item, 4)); err != nil {
		t.Errorf("runBatches() = %v; want nil", err)
	}
}
`)
	cmd = exec.Command("go", "test", "-race", "-run", "^TestShapes$", "./errgroupshapes")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the fixed code of errgroupshapes fails:\n%s", out)
	}
	// A long-lived group's hook: a child panics, nobody calls Wait, and the
	// program crashes at once with the child's panic, as errgroup's did
	// (without the hook, the test would block until its timeout).
	write(t, filepath.Join(dir, "errgrouplonglived", "crash_test.go"), `package errgrouplonglived

import (
	"context"
	"net"
	"testing"
)

type panicListener struct{ net.Listener }

func (panicListener) Accept() (net.Conn, error) { panic("accept exploded") }
func (panicListener) Close() error              { return nil }

func TestCrash(t *testing.T) {
	s := newServer(context.Background(), panicListener{})
	s.Run()
	select {}
}
`)
	cmd = exec.Command("go", "test", "-timeout", "5m", "-run", "^TestCrash$", "./errgrouplonglived")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "panic: task: panic: accept exploded") || !strings.Contains(string(out), "errgrouplonglived.(*server).accept") || strings.Contains(string(out), "timed out") {
		t.Errorf("a child's panic in a long-lived group, nobody waiting: %v\n%s\nwant a crash with the child's panic and its stack", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "errgroupfix")); err != nil {
		return
	}
	// The fixed code runs: a closure that wraps its error keeps the
	// wrapping, and with task.FirstError the call returns that error as
	// the closure returned it, as errgroup did: the same message, and
	// errors.As finds the wrapped type.
	write(t, filepath.Join(dir, "errgroupfix", "run_test.go"), `package errgroupfix

import (
	"context"
	"errors"
	"testing"
)

func TestWraps(t *testing.T) {
	cachesErr = &CacheError{Name: "x"}
	defer func() { cachesErr = nil }()
	_, _, err := wraps(context.Background())
	var ce *CacheError
	if !errors.As(err, &ce) || ce.Name != "x" {
		t.Errorf("wraps() = %v; errors.As finds no *CacheError", err)
	}
	if err == nil || err.Error() != "describe caches: cache x" {
		t.Errorf("wraps() = %v; want the closure's error, describe caches: cache x", err)
	}
}
`)
	cmd = exec.Command("go", "test", "-run", "^TestWraps$", "./errgroupfix")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the fixed code of errgroupfix fails:\n%s", out)
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
	lines, err := modproxy.AddTxtar(proxy, filepath.Join(".", "testdata", "mod", "golang.org_x_sync_v0.24.0.txtar"))
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
