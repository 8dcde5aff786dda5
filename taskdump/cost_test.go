package taskdump_test

import (
	"context"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/tasktuple/task"
	"github.com/tasktuple/task/taskdump"
)

// BenchmarkCost is the registry's cost on children that return at once, in
// the mode that TASKDUMP_COST names: "off" (or unset: the registry is not
// enabled), "on" (enabled, nobody viewing), "viewed" (enabled, and the
// JSON that the page fetches asked for once a second). Each mode runs in a
// process of its own, as the registry cannot be turned off once on:
//
//	go test -c -o taskdump.test ./taskdump
//	for r in 1 2 3 4 5 6 7 8 9 10; do
//	  for m in off on viewed; do
//	    TASKDUMP_COST=$m ./taskdump.test -test.run '^$' -test.bench Cost -test.benchmem >>$m.txt
//	  done
//	done
//	benchstat off.txt on.txt viewed.txt
func BenchmarkCost(b *testing.B) {
	switch mode := os.Getenv("TASKDUMP_COST"); mode {
	case "", "off":
		if enabled() {
			b.Skip("a test enabled the dump: run with -run '^$'")
		}
	case "on", "viewed":
		taskdump.Enable()
		if mode == "viewed" {
			stop := view(time.Second)
			defer stop()
		}
	default:
		b.Fatalf("TASKDUMP_COST=%q: want off, on or viewed", mode)
	}
	ctx := context.Background()
	b.Run("Group/n=1000/limit=64", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			g, _ := task.NewGroup(ctx)
			g.SetLimit(64)
			for range 1000 {
				g.Go(func(context.Context) error { return nil })
			}
			if err := g.Wait(); err != nil {
				b.Fatal(err)
			}
		}
	})
	inputs := make([]int, 1000)
	b.Run("Map/n=1000/limit=64", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if _, err := task.Map(ctx, inputs, 64, func(_ context.Context, i int) (int, error) { return i, nil }); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// view asks the handler for its JSON every d, as the page does, until
// the function it returns is called.
func view(d time.Duration) (stop func()) {
	done := make(chan struct{})
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		h := taskdump.Handler()
		t := time.NewTicker(d)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/debug/tasks/?format=json", nil))
			}
		}
	}()
	return func() { close(done); <-ended }
}
