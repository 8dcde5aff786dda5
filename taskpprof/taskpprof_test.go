package taskpprof_test

import (
	"bytes"
	"context"
	"os"
	"runtime/pprof"
	"strings"
	"testing"

	"github.com/tasktuple/task"
	"github.com/tasktuple/task/taskpprof"
)

func TestMain(m *testing.M) {
	taskpprof.Enable()
	os.Exit(m.Run())
}

// blocked runs a Run2 whose first function is Named and blocks until f
// returns, inside pprof.Do with the caller's own label; f sees the
// goroutines while they block.
func blocked(f func()) {
	release := make(chan struct{})
	started := make(chan struct{})
	pprof.Do(context.Background(), pprof.Labels("handler", "checkout"), func(ctx context.Context) {
		go func() { <-started; f(); close(release) }()
		if _, _, err := task.Run2(ctx,
			task.Named("recs", func(context.Context) (int, error) { close(started); <-release; return 0, nil }),
			func(context.Context) (int, error) { <-release; return 0, nil }); err != nil {
			panic(err)
		}
	})
}

func TestGoroutineProfile(t *testing.T) {
	var profile string
	blocked(func() {
		var b bytes.Buffer
		pprof.Lookup("goroutine").WriteTo(&b, 1)
		profile = b.String()
	})
	want := `labels: {"handler":"checkout", "task.arg":"f1", "task.call":"Run2", "task.name":"recs"}`
	if !strings.Contains(profile, want) {
		t.Errorf("goroutine profile lacks %s:\n%s", want, profile)
	}
}

func TestLabelsRestored(t *testing.T) {
	// The last function runs on the caller's goroutine: its labels go
	// once it returns.
	if _, _, err := task.Run2(context.Background(), func(context.Context) (int, error) { return 0, nil }, func(context.Context) (int, error) { return 0, nil }); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	pprof.Lookup("goroutine").WriteTo(&b, 1)
	for _, g := range strings.Split(b.String(), "\n\n") {
		if strings.Contains(g, "TestLabelsRestored") && strings.Contains(g, "task.call") {
			t.Errorf("the caller's goroutine kept the labels:\n%s", g)
		}
	}
}

// TestCost: what labelling costs per call of Run2 (the core's pins hold the
// cost without it: N allocations).
func TestCost(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	ctx := context.Background()
	n := testing.AllocsPerRun(100, func() {
		if _, _, err := task.Run2(ctx, func(context.Context) (int, error) { return 0, nil }, func(context.Context) (int, error) { return 0, nil }); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("Run2 with labels: %v allocations (2 without)", n)
	if n > 16 {
		t.Errorf("Run2 with labels: %v allocations; want at most 16 (7 per function, 2 for the call)", n)
	}
}

// TestGoroutineProfileNewGroup: the children of a Group of NewGroup carry
// the labels of their call and position.
func TestGoroutineProfileNewGroup(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{})
	g, _ := task.NewGroup(context.Background())
	g.Go(func(context.Context) error { return nil })
	g.Go(func(context.Context) error { close(started); <-release; return nil })
	<-started
	var b bytes.Buffer
	pprof.Lookup("goroutine").WriteTo(&b, 1)
	close(release)
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	want := `labels: {"task.arg":"children[1]", "task.call":"Group"}`
	if !strings.Contains(b.String(), want) {
		t.Errorf("goroutine profile lacks %s:\n%s", want, b.String())
	}
}
