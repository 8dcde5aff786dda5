package tracetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/trace"
	"slices"
	"strings"
	"testing"

	"github.com/tasktuple/task"
	"github.com/tasktuple/task/tasktrace"
	xtrace "golang.org/x/exp/trace"
)

// TestTraceShowsTheFanOut records a Run3 inside an Await2 of two tasks,
// then parses the trace: the calls are tasks, nested as the calls are, the
// functions are regions of their call's task, each in the goroutine that
// ran it, and a failure is logged in its region.
func TestTraceShowsTheFanOut(t *testing.T) {
	tasktrace.Enable()
	var b bytes.Buffer
	if err := trace.Start(&b); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	task.Run3(ctx,
		func(ctx context.Context) (int, error) {
			// A nested call: its task is a child of Run3's.
			_, _, err := task.Run2(ctx, func(context.Context) (int, error) { return 1, nil }, func(context.Context) (int, error) { return 2, nil })
			return 0, err
		},
		task.Named("recs", func(context.Context) (string, error) { return "", errors.New("recs down") }),
		func(context.Context) (bool, error) { return true, nil },
		task.KeepGoing)
	trace.Stop()

	r, err := xtrace.NewReader(&b)
	if err != nil {
		t.Fatal(err)
	}
	tasks := map[xtrace.TaskID]xtrace.Task{}
	byType := map[string]xtrace.TaskID{}
	regions := map[string]xtrace.Region{}
	regionG := map[string]xtrace.GoID{}
	var logs []xtrace.Log
	var text []string // what happened, in trace order: for the README
	for {
		e, err := r.ReadEvent()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		switch e.Kind() {
		case xtrace.EventTaskBegin:
			tk := e.Task()
			tasks[tk.ID] = tk
			byType[tk.Type] = tk.ID
			text = append(text, fmt.Sprintf("g%d task %s (parent %d) begins", e.Goroutine(), tk.Type, tk.Parent))
		case xtrace.EventRegionBegin:
			rg := e.Region()
			regions[rg.Type] = rg
			regionG[rg.Type] = e.Goroutine()
			text = append(text, fmt.Sprintf("g%d   region %q in task %d", e.Goroutine(), rg.Type, rg.Task))
		case xtrace.EventLog:
			logs = append(logs, e.Log())
			text = append(text, fmt.Sprintf("g%d   log %s: %s", e.Goroutine(), e.Log().Category, e.Log().Message))
		case xtrace.EventTaskEnd:
			text = append(text, fmt.Sprintf("g%d task %s ends", e.Goroutine(), e.Task().Type))
		}
	}
	t.Logf("the trace, in order:\n%s", strings.Join(text, "\n"))
	run3, ok3 := byType["task.Run3"]
	run2, ok2 := byType["task.Run2"]
	if !ok3 || !ok2 || tasks[run2].Parent != run3 {
		t.Fatalf("tasks %v; want task.Run2 a child of task.Run3", tasks)
	}
	for _, want := range []struct {
		region string
		task   xtrace.TaskID
	}{{"Run3 f1", run3}, {"Run3 f2", run3}, {"recs", run3}, {"Run3 f3", run3}, {"Run2 f1", run2}, {"Run2 f2", run2}} {
		if rg, ok := regions[want.region]; !ok || rg.Task != want.task {
			t.Errorf("region %q: %+v (found %v); want it in task %d", want.region, rg, ok, want.task)
		}
	}
	if regionG["Run3 f1"] == regionG["Run3 f2"] {
		t.Errorf("f1 and f2 ran in the same goroutine %d", regionG["Run3 f1"])
	}
	if !slices.ContainsFunc(logs, func(l xtrace.Log) bool {
		return l.Task == run3 && l.Category == "task.error" && l.Message == "recs down"
	}) {
		t.Errorf("logs %+v; want recs's failure logged in Run3's task", logs)
	}
}
