package task

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
)

func TestNamed(t *testing.T) {
	ctx := context.Background()
	recs := errors.New("500 internal error")
	loadRecs := Named("recs", failWith[int](recs))

	_, _, err := Run2(ctx, immediate[string], loadRecs)
	var pe *PositionError
	if err == nil || err.Error() != "task: Run2: recs: 500 internal error" || !errors.As(err, &pe) || pe.Err != recs || pe.Index != 1 {
		t.Errorf("Run2 = %v (%#v); want recs named, its own error unwrapped", err, pe)
	}

	_, err = Scope(ctx, func(ctx context.Context, g *Group) (int, error) {
		Spawn(g, Named("fetch /a", failWith[int](recs)))
		return 0, nil
	})
	if err == nil || err.Error() != "task: Scope: fetch /a: 500 internal error" {
		t.Errorf("Scope = %v", err)
	}

	// A task's own error keeps its message and identity.
	_, err = Go(ctx, loadRecs).Wait(ctx)
	if err == nil || err.Error() != "500 internal error" || !errors.Is(err, recs) {
		t.Errorf("Wait = %v; want the error itself", err)
	}

	// A panic keeps its value and its stack, with the name.
	r := recoverFrom(func() {
		Run2(ctx, immediate[int], Named("stock", func(context.Context) (int, error) { panic("nil map") }))
	})
	p, ok := r.(*PanicError)
	if !ok || p.Value != "nil map" || p.Arg != "stock" || !strings.HasPrefix(p.Error(), "task: Run2: stock: panic: nil map") ||
		!strings.Contains(frame(p.Stack, 0), "TestNamed") || strings.Contains(frame(p.Stack, 0), "Named[") {
		t.Errorf("recovered %v (first frame %q); want stock's panic, from the panicking frame", r, frame(p.Stack, 0))
	}
	r = recoverFrom(func() {
		Go(ctx, Named("stock", func(context.Context) (int, error) { panic("nil map") })).Wait(ctx)
	})
	if p, ok := r.(*PanicError); !ok || !strings.HasPrefix(p.Error(), "task: stock: panic: nil map") {
		t.Errorf("Wait panicked with %v", r)
	}

	// A Goexit passes through.
	e := endingOf(func() {
		Run2(ctx, immediate[int], Named("exit", func(context.Context) (int, error) { runtime.Goexit(); return 0, nil }))
	})
	if !e.exited {
		t.Errorf("ended %+v; want Goexit", e)
	}
	if msg := catch(func() { Named[int]("x", nil) }); msg != "task: Named: fn is nil" {
		t.Errorf("Named(nil): %q", msg)
	}
}
