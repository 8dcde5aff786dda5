//go:build go1.25

package tasktrace_test

import (
	"bytes"
	"context"
	"errors"
	"runtime/trace"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tasktuple/task"
	"github.com/tasktuple/task/tasktrace"
)

// TestRecords checks that a trace records while the probe is installed;
// the module tracetest/ parses such a trace and checks its tasks and
// regions (golang.org/x/exp/trace is not a dependency of this module).
func TestRecords(t *testing.T) {
	tasktrace.Enable()
	var b bytes.Buffer
	if err := trace.Start(&b); err != nil {
		t.Fatal(err)
	}
	if _, _, err := task.Run2(context.Background(),
		func(context.Context) (int, error) { return 1, nil },
		task.Named("recs", func(context.Context) (int, error) { return 0, errors.New("down") })); err == nil {
		t.Fatal("Run2 succeeded; want recs's failure")
	}
	trace.Stop()
	for _, want := range []string{"task.Run2", "Run2 f1", "recs", "task.error"} {
		if !bytes.Contains(b.Bytes(), []byte(want)) {
			t.Errorf("the trace does not mention %q", want)
		}
	}
}

// TestRecordsStop checks that the stop of a call with a grace period and
// the end of its grace period are in the trace; tracetest/ checks that they
// are logged in the call's task.
func TestRecordsStop(t *testing.T) {
	tasktrace.Enable()
	var b bytes.Buffer
	if err := trace.Start(&b); err != nil {
		t.Fatal(err)
	}
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(time.Second, cancel)
		if _, err := task.Map(ctx, []int{0, 1, 2}, 1, func(ctx context.Context, i int) (int, error) {
			time.Sleep(10 * time.Second) // deaf to ctx: outlives the grace period
			return i, nil
		}, task.Grace(5*time.Second)); !errors.Is(err, context.Canceled) {
			t.Errorf("Map = %v; want context.Canceled", err)
		}
	})
	trace.Stop()
	for _, want := range []string{"task.Map", "task.stop", "2 not started, 5s of grace", "task.grace_end"} {
		if !bytes.Contains(b.Bytes(), []byte(want)) {
			t.Errorf("the trace does not mention %q", want)
		}
	}
}

// TestRecordsNewGroup: a Group of NewGroup is a task of the trace, with
// its children's regions, from NewGroup to its Wait.
func TestRecordsNewGroup(t *testing.T) {
	tasktrace.Enable()
	var b bytes.Buffer
	if err := trace.Start(&b); err != nil {
		t.Fatal(err)
	}
	g, _ := task.NewGroup(context.Background())
	g.Go(func(context.Context) error { return nil })
	g.Go(func(context.Context) error { return errors.New("down") })
	if err := g.Wait(); err == nil {
		t.Fatal("Wait: nil; want the failure")
	}
	trace.Stop()
	for _, want := range []string{"task.Group", "Group children[0]", "Group children[1]", "task.error"} {
		if !bytes.Contains(b.Bytes(), []byte(want)) {
			t.Errorf("the trace does not mention %q", want)
		}
	}
}
