package tasktrace_test

import (
	"bytes"
	"context"
	"errors"
	"runtime/trace"
	"testing"

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
