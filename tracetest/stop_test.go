package tracetest

import (
	"bytes"
	"context"
	"io"
	"runtime/trace"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tasktuple/task"
	"github.com/tasktuple/task/tasktrace"
	xtrace "golang.org/x/exp/trace"
)

// A taskLog is a log message with the type of the trace task it is in.
type taskLog struct {
	task, category, message string
}

// record runs f while a trace is recorded, and returns the trace's logs in
// the order they were logged.
func record(t *testing.T, f func()) []taskLog {
	t.Helper()
	tasktrace.Enable()
	var b bytes.Buffer
	if err := trace.Start(&b); err != nil {
		t.Fatal(err)
	}
	f()
	trace.Stop()
	r, err := xtrace.NewReader(&b)
	if err != nil {
		t.Fatal(err)
	}
	types := map[xtrace.TaskID]string{}
	var logs []taskLog
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
			types[e.Task().ID] = e.Task().Type
		case xtrace.EventLog:
			l := e.Log()
			logs = append(logs, taskLog{types[l.Task], l.Category, l.Message})
		}
	}
	return logs
}

// stopLogs are the logs of the graceful stop among logs.
func stopLogs(logs []taskLog) []taskLog {
	return slices.DeleteFunc(logs, func(l taskLog) bool {
		return l.category != "task.stop" && l.category != "task.grace_start" && l.category != "task.grace_end"
	})
}

// TestStopInTheCallsTask: the stop of a Map with a grace period and the
// end of its grace period are logged in the Map's task, in that order.
func TestStopInTheCallsTask(t *testing.T) {
	logs := record(t, func() {
		synctest.Test(t, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(time.Second, cancel)
			task.Map(ctx, make([]int, 14), 2, func(ctx context.Context, i int) (int, error) {
				time.Sleep(10 * time.Second) // deaf to ctx: outlives the grace period
				return i, nil
			}, task.Grace(5*time.Second))
		})
	})
	want := []taskLog{
		{"task.Map", "task.stop", "12 not started, 5s of grace"},
		{"task.Map", "task.grace_end", "the functions still running are canceled"},
	}
	if got := stopLogs(logs); !slices.Equal(got, want) {
		t.Errorf("stop logs %q; want %q", got, want)
	}
}

// TestGroupStopInTheCallsTask: a Scope stopped by its body logs the stop
// with no grace period, then its start when the caller's ctx is done.
func TestGroupStopInTheCallsTask(t *testing.T) {
	logs := record(t, func() {
		synctest.Test(t, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(3*time.Second, cancel)
			task.Scope(ctx, func(ctx context.Context, g *task.Group) (int, error) {
				g.SetLimit(1)
				first := task.Spawn(g, func(ctx context.Context) (int, error) { <-ctx.Done(); return 0, ctx.Err() })
				for range 3 {
					task.Spawn(g, func(context.Context) (int, error) { return 0, nil })
				}
				time.Sleep(time.Second)
				g.Stop()
				return first.Wait(context.WithoutCancel(ctx))
			}, task.Grace(5*time.Second))
		})
	})
	want := []taskLog{
		{"task.Scope", "task.stop", "3 not started, the grace period starts when ctx is done"},
		{"task.Scope", "task.grace_start", "5s of grace"},
		{"task.Scope", "task.grace_end", "the functions still running are canceled"},
	}
	if got := stopLogs(logs); !slices.Equal(got, want) {
		t.Errorf("stop logs %q; want %q", got, want)
	}
}
