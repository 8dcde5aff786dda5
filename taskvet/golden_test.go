package taskvet_test

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
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
	syncVersion, sums := syncModule(t)
	// The fake testify has no real counterpart here: a module of its own.
	gomod := "module example.com/golden\n\ngo 1.26\n\n" +
		"require (\n\tgithub.com/tasktuple/task v0.0.0\n\tgolang.org/x/sync " + syncVersion + "\n\tgithub.com/stretchr/testify v0.0.0\n)\n\n" +
		"replace github.com/tasktuple/task => " + root + "\n" +
		"replace github.com/stretchr/testify => ./testify\n"
	write(t, filepath.Join(dir, "go.mod"), gomod)
	write(t, filepath.Join(dir, "go.sum"), sums)
	write(t, filepath.Join(dir, "testify", "go.mod"), "module github.com/stretchr/testify\n\ngo 1.26\n")
	fake, err := os.ReadFile("testdata/src/github.com/stretchr/testify/require/require.go")
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "testify", "require", "require.go"), string(fake))
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

// syncModule returns the version of golang.org/x/sync that this module
// uses, and its lines of go.sum.
func syncModule(t *testing.T) (string, string) {
	f, err := os.Open("go.sum")
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
