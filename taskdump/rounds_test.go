package taskdump

import (
	"context"
	"io"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/tasktuple/task"
)

// A zero Group used in rounds, each a call of its own, while the dump and
// the JSON are read: run it with -race.
func TestZeroGroupRoundsWhileViewed(t *testing.T) {
	Enable()
	var stop atomic.Bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		for !stop.Load() {
			if err := Write(io.Discard); err != nil {
				t.Error(err)
				return
			}
			Handler().ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/?format=json", nil))
		}
	}()
	var g task.Group
	g.SetLimit(2)
	for range 200 {
		for range 4 {
			g.Go(func(context.Context) error { return nil })
		}
		if err := g.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	stop.Store(true)
	<-done
}
