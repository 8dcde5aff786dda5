package taskdump_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/tasktuple/task"
	"github.com/tasktuple/task/taskdump"
)

// BenchmarkHandler: one request for the JSON, or the page, while a Scope
// with a limit of 100 runs n children (the others wait for a slot).
// Run with -run '^$' -bench Handler -benchmem.
func BenchmarkHandler(b *testing.B) {
	taskdump.Enable()
	for _, n := range []int{10, 10000} {
		release := make(chan struct{})
		ready := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			_, err := task.Scope(context.Background(), func(ctx context.Context, g *task.Group) (int, error) {
				g.SetLimit(100)
				for range n {
					g.Go(func(context.Context) error { <-release; return nil })
				}
				close(ready)
				<-release
				return 0, nil
			})
			if err != nil {
				b.Error(err)
			}
		}()
		<-ready
		for _, format := range []string{"json", "page"} {
			target := "/debug/tasks/"
			if format == "json" {
				target += "?format=json"
			}
			b.Run(fmt.Sprintf("children=%d/format=%s", n, format), func(b *testing.B) {
				h := taskdump.Handler()
				req := httptest.NewRequest("GET", target, nil)
				b.ReportAllocs()
				var size int
				for b.Loop() {
					rec := httptest.NewRecorder()
					h.ServeHTTP(rec, req)
					size = rec.Body.Len()
				}
				b.ReportMetric(float64(size), "bytes/response")
			})
		}
		close(release)
		<-done
	}
}

// BenchmarkCall: a Map of 10 inputs that return at once, with the dump
// off, then on. The dump cannot be turned off once on: dump=off runs only
// while nothing has enabled it (-run '^$').
func BenchmarkCall(b *testing.B) {
	inputs := make([]int, 10)
	fn := func(_ context.Context, i int) (int, error) { return i, nil }
	for _, mode := range []string{"off", "on"} {
		b.Run("dump="+mode, func(b *testing.B) {
			if mode == "on" {
				taskdump.Enable()
			} else if enabled() {
				b.Skip("a test enabled the dump: run with -run '^$'")
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := task.Map(context.Background(), inputs, 4, fn); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// enabled reports whether the dump is enabled, as the handler says.
func enabled() bool {
	rec := httptest.NewRecorder()
	taskdump.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/?format=json", nil))
	return strings.HasPrefix(rec.Body.String(), `{"enabled":true`)
}
