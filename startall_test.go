package task

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
)

// TestStartAllQueued: with StartAll a failure cancels ctx, and the children
// queued at the limit and those given to Go after it still start, with the
// canceled context, as errgroup's; none is skipped.
func TestStartAllQueued(t *testing.T) {
	boom := errors.New("boom")
	g, ctx := NewGroup(context.Background(), StartAll)
	g.SetLimit(1)
	gate := make(chan struct{})
	g.Go(func(context.Context) error { <-gate; return boom })
	var ran, sawCanceled atomic.Int32
	child := func(c context.Context) error {
		ran.Add(1)
		if c.Err() != nil {
			sawCanceled.Add(1)
		}
		return c.Err()
	}
	for range 3 {
		g.Go(child) // queued behind the failing child
	}
	close(gate)
	<-ctx.Done()
	g.Go(child) // after the failure
	err := g.Wait()
	if ran.Load() != 4 || sawCanceled.Load() != 4 {
		t.Fatalf("%d children ran, %d with a canceled ctx; want 4 and 4", ran.Load(), sawCanceled.Load())
	}
	var ce *CallError
	if !errors.As(err, &ce) || len(ce.Failures) != 1 || len(ce.Canceled) != 4 || ce.NotStarted != 0 {
		t.Fatalf("Wait = %#v; want a *CallError with the one failure, nothing skipped", err)
	}
	if !strings.Contains(err.Error(), "task: Group: children[0]: boom") {
		t.Fatalf("Wait = %q", err)
	}
	if got := context.Cause(ctx); !errors.Is(got, boom) {
		t.Fatalf("the group's ctx cause = %v; want the failure", got)
	}
}

// TestStartAllBlockAtLimit: a spawner blocked at the limit when a child
// fails is not sent away: it waits for its slot and starts its child.
func TestStartAllBlockAtLimit(t *testing.T) {
	boom := errors.New("boom")
	g, _ := NewGroup(context.Background(), StartAll, BlockAtLimit, FirstError)
	g.SetLimit(1)
	gate := make(chan struct{})
	g.Go(func(context.Context) error { <-gate; return boom })
	var started atomic.Bool
	spawned := make(chan struct{})
	go func() {
		g.Go(func(context.Context) error { started.Store(true); return nil }) // blocks at the limit
		close(spawned)
	}()
	close(gate)
	<-spawned
	if err := g.Wait(); err != boom {
		t.Fatalf("Wait = %v; want the failure itself (FirstError)", err)
	}
	if !started.Load() {
		t.Fatalf("the blocked spawner's child never started")
	}
}

// TestStartAllTryGo: TryGo after a failure starts the child.
func TestStartAllTryGo(t *testing.T) {
	g, ctx := NewGroup(context.Background(), StartAll)
	g.Go(func(context.Context) error { return errors.New("boom") })
	<-ctx.Done()
	var ran atomic.Bool
	if !g.TryGo(func(context.Context) error { ran.Store(true); return nil }) {
		t.Fatalf("TryGo after the failure = false")
	}
	g.Wait()
	if !ran.Load() {
		t.Fatalf("TryGo's child did not run")
	}
}

// TestStartAllStop: a stop still refuses new children.
func TestStartAllStop(t *testing.T) {
	g, _ := NewGroup(context.Background(), StartAll)
	g.Stop()
	if g.TryGo(func(context.Context) error { return nil }) {
		t.Fatalf("TryGo after Stop = true")
	}
	var ran atomic.Bool
	g.Go(func(context.Context) error { ran.Store(true); return nil })
	err := g.Wait()
	var ce *CallError
	if ran.Load() || !errors.As(err, &ce) || ce.NotStarted != 1 {
		t.Fatalf("after Stop: ran %v, Wait = %#v; want nothing run, Go's child not started (TryGo's refused is not counted)", ran.Load(), err)
	}
}

// TestStartAllScope: Scope takes StartAll too; its Spawn after a failure
// starts the child.
func TestStartAllScope(t *testing.T) {
	boom := errors.New("boom")
	_, err := Scope(context.Background(), func(ctx context.Context, g *Group) (int, error) {
		g.Go(func(context.Context) error { return boom })
		<-ctx.Done()
		tk := Spawn(g, func(c context.Context) (int, error) { return 1, nil })
		v, err := tk.Wait(context.Background())
		if v != 1 || err != nil {
			t.Errorf("a child spawned after the failure: %v, %v; want 1, nil", v, err)
		}
		return 0, nil
	}, StartAll)
	if !errors.Is(err, boom) {
		t.Fatalf("Scope = %v; want the failure", err)
	}
}
