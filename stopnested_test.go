//go:build go1.25

package task

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// A call nested in a child that was running when Group.Stop came (with
// Grace: Stopping closes) takes no
// new input, and returns ErrStopped: the group's error keeps the child in
// Unfinished, with Ctx ErrStopped (the ctx is not done), and says so.
func TestNestedStopWithCtxNotDone(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g, _ := NewGroup(context.Background(), Grace(time.Hour))
		release := make(chan struct{})
		g.Go(func(ctx context.Context) error {
			return ForEach(ctx, []int{0, 1, 2}, 1, func(ctx context.Context, i int) error {
				if i == 0 {
					<-release
				}
				return nil
			})
		})
		synctest.Wait() // the ForEach runs input 0
		g.Stop()
		close(release)
		err := g.Wait()
		var ce *CallError
		if !errors.As(err, &ce) || ce.Ctx != ErrStopped || len(ce.Unfinished) != 1 || len(ce.Failures) != 0 {
			t.Fatalf("Wait = %#v; want children[0] unfinished, Ctx ErrStopped", err)
		}
		if !strings.HasPrefix(err.Error(), "task: Group: the call stopped taking new work\n") {
			t.Errorf("message %q", err.Error())
		}
		if !errors.Is(err, ErrStopped) || errors.Is(err, context.Canceled) {
			t.Errorf("errors.Is: ErrStopped %v, Canceled %v; want true, false", errors.Is(err, ErrStopped), errors.Is(err, context.Canceled))
		}
	})
}

// Calls started after the stop run all their work, RunN as Map, ForEach
// and a Scope.
func TestCallAfterStopRunsAll(t *testing.T) {
	var ran [4]atomic.Int32
	// The context of a function of a call that has stopped: its Stopping
	// is closed.
	ctx := context.WithValue(context.Background(), stoppingKey{}, closedStopping())
	_, _, _ = Run2(ctx, func(context.Context) (int, error) { ran[0].Add(1); return 0, nil }, func(context.Context) (int, error) { ran[0].Add(1); return 0, nil })
	_ = ForEach(ctx, []int{1, 2, 3}, 1, func(context.Context, int) error { ran[1].Add(1); return nil })
	_, _ = Map(ctx, []int{1, 2, 3}, 1, func(_ context.Context, i int) (int, error) { ran[2].Add(1); return i, nil })
	_, _ = Scope(ctx, func(ctx context.Context, g *Group) (int, error) {
		g.SetLimit(1)
		for range 3 {
			g.Go(func(context.Context) error { ran[3].Add(1); return nil })
		}
		return 0, nil
	})
	got := [4]int32{ran[0].Load(), ran[1].Load(), ran[2].Load(), ran[3].Load()}
	if got != [4]int32{2, 3, 3, 3} {
		t.Fatalf("calls started after the stop ran %v; want [2 3 3 3]", got)
	}
}

func closedStopping() chan struct{} {
	ch := make(chan struct{})
	close(ch)
	return ch
}

// Hedge with a release names itself in its error, with every function
// started at once or one after another.
func TestReleaseNames(t *testing.T) {
	fail := func(context.Context) (int, error) { return 0, errors.New("down") }
	for _, delay := range []time.Duration{0, time.Nanosecond} {
		_, i, err := Hedge(context.Background(), delay, func(int) {}, fail, fail)
		if i != -1 || err == nil || !strings.HasPrefix(err.Error(), "task: Hedge: fns[0]: down") {
			t.Errorf("Hedge(delay %v) with release: %d, %v", delay, i, err)
		}
	}
}

// The children a stop or a failure left are counted, by reason, and their
// positions listed.
func TestGroupNotStartedAt(t *testing.T) {
	for _, end := range []string{"Stop", "failure"} {
		synctest.Test(t, func(t *testing.T) {
			g, _ := NewGroup(context.Background())
			g.SetLimit(1)
			release := make(chan struct{})
			g.Go(func(context.Context) error {
				<-release
				if end == "failure" {
					return errors.New("boom")
				}
				return nil
			})
			for range 3 {
				g.Go(func(context.Context) error { return nil }) // queued
			}
			synctest.Wait()
			if end == "Stop" {
				g.Stop()
			}
			close(release)
			err := g.Wait()
			var ce *CallError
			if !errors.As(err, &ce) {
				t.Fatalf("%s: Wait = %v", end, err)
			}
			at := ce.NotStartedAt()
			switch {
			case end == "Stop" && (ce.NotStarted != 3 || !errors.Is(err, ErrStopped)):
				t.Errorf("Stop: NotStarted %d, ErrStopped %v; want 3, true", ce.NotStarted, errors.Is(err, ErrStopped))
			case end == "failure" && (ce.NotStarted != 3 || errors.Is(err, ErrStopped) || !strings.Contains(err.Error(), "task: Group: 3 not started: a failure canceled the call")):
				t.Errorf("failure: NotStarted %d, ErrStopped %v, %q; want 3, false", ce.NotStarted, errors.Is(err, ErrStopped), err)
			}
			if len(at) != 3 || at[0] != 1 || at[1] != 2 || at[2] != 3 {
				t.Errorf("%s: NotStartedAt = %v; want [1 2 3]", end, at)
			}
		})
	}
}
