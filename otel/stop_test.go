package taskotel_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tasktuple/task"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// event is an event of a span as the tests compare it: its name, its time
// since the span started, and its attributes.
type event struct {
	name  string
	at    time.Duration
	attrs string
}

func events(s sdktrace.ReadOnlySpan) []event {
	var es []event
	for _, e := range s.Events() {
		attrs := ""
		for _, kv := range e.Attributes {
			attrs += " " + string(kv.Key) + "=" + kv.Value.String()
		}
		es = append(es, event{e.Name, e.Time.Sub(s.StartTime()), attrs})
	}
	return es
}

func checkEvents(t *testing.T, s sdktrace.ReadOnlySpan, want ...event) {
	t.Helper()
	got := events(s)
	if len(got) != len(want) {
		t.Errorf("span %q: events %+v; want %+v", s.Name(), got, want)
		return
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("span %q: event %d %+v; want %+v", s.Name(), i, got[i], want[i])
		}
	}
}

// TestGraceStop: the stop of a Map with a grace period, when its caller's
// ctx is done, and the end of the grace period are events of its span, in
// fake time to the nanosecond.
func TestGraceStop(t *testing.T) {
	r, root := record(t)
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(root)
		time.AfterFunc(time.Second, cancel)
		task.Map(ctx, make([]int, 14), 2, func(ctx context.Context, i int) (int, error) {
			time.Sleep(10 * time.Second) // deaf to ctx: outlives the grace period
			return i, nil
		}, task.Grace(5*time.Second))
	})
	call := get(t, r.spans(), "task.Map")
	checkEvents(t, call,
		event{"task.stop", time.Second, " task.not_started=12 task.grace=5"},
		event{"task.grace_end", 6 * time.Second, ""})
}

// TestGraceWithin: a call whose functions return within the grace period
// has a stop and no end of the grace period.
func TestGraceWithin(t *testing.T) {
	r, root := record(t)
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(root)
		time.AfterFunc(time.Second, cancel)
		task.Map(ctx, make([]int, 3), 3, func(ctx context.Context, i int) (int, error) {
			<-task.Stopping(ctx)
			time.Sleep(time.Second)
			return i, nil
		}, task.Grace(5*time.Second))
	})
	checkEvents(t, get(t, r.spans(), "task.Map"),
		event{"task.stop", time.Second, " task.not_started=0 task.grace=5"})
}

// TestGroupStopGrace: a Scope stopped by its body has a stop with no grace
// period, then the start of its grace period when the caller's ctx is done,
// then its end.
func TestGroupStopGrace(t *testing.T) {
	r, root := record(t)
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(root)
		time.AfterFunc(3*time.Second, cancel)
		task.Scope(ctx, func(ctx context.Context, g *task.Group) (int, error) {
			g.SetLimit(1)
			first := task.Spawn(g, func(ctx context.Context) (int, error) { <-ctx.Done(); return 0, ctx.Err() })
			for range 3 {
				task.Spawn(g, value(1))
			}
			time.Sleep(time.Second)
			g.Stop()
			return first.Wait(context.WithoutCancel(ctx))
		}, task.Grace(5*time.Second))
	})
	checkEvents(t, get(t, r.spans(), "task.Scope"),
		event{"task.stop", time.Second, " task.not_started=3"},
		event{"task.grace_start", 3 * time.Second, " task.grace=5"},
		event{"task.grace_end", 8 * time.Second, ""})
}

// TestMapSeqStop: MapSeq cannot tell how much of its sequence is left: its
// stop has no task.not_started.
func TestMapSeqStop(t *testing.T) {
	r, root := record(t)
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(root)
		time.AfterFunc(time.Second, cancel)
		for range task.MapSeq(ctx, func(yield func(int) bool) {
			for i := 0; yield(i); i++ {
			}
		}, 2, func(ctx context.Context, i int) (int, error) {
			<-task.Stopping(ctx)
			return i, nil
		}, task.Grace(5*time.Second)) {
		}
	})
	checkEvents(t, get(t, r.spans(), "task.MapSeq"),
		event{"task.stop", time.Second, " task.grace=5"})
}
