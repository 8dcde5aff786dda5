package taskdump

import (
	"context"
	"io"
	"net/http/httptest"
	"strings"
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

// A later round of a group made by NewGroup is a call of its own: its
// running children are listed under it, with or without a limit, and the
// call is gone once its Wait has returned.
func TestNewGroupLaterRoundListed(t *testing.T) {
	Enable()
	for _, limit := range []int{-1, 2} {
		g, _ := task.NewGroup(context.Background())
		g.SetLimit(limit)
		g.Go(func(context.Context) error { return nil })
		if err := g.Wait(); err != nil {
			t.Fatal(err)
		}
		release := make(chan struct{})
		started := make(chan struct{}, 3)
		for range 3 {
			g.Go(func(context.Context) error {
				started <- struct{}{}
				<-release
				return nil
			})
		}
		<-started // two run at limit 2; the third waits for a slot
		<-started
		var b strings.Builder
		if err := Write(&b); err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(b.String(), "children["); !strings.HasPrefix(b.String(), "task.Group") || n < 2 {
			t.Errorf("limit %d, second round: dump lists %d children:\n%s", limit, n, b.String())
		}
		close(release)
		if err := g.Wait(); err != nil {
			t.Fatal(err)
		}
		b.Reset()
		Write(&b)
		if b.Len() != 0 {
			t.Errorf("limit %d: calls left after the second Wait:\n%s", limit, b.String())
		}
	}
}
