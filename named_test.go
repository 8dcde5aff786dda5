package task

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
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

// NamedErr names error-only functions (Group.Go, Do), NamedBy and
// NamedByErr the calls of Map and ForEach by their input: in errors and
// panics.
func TestNamedEverywhere(t *testing.T) {
	ctx := context.Background()
	down := errors.New("disk full")
	g, _ := NewGroup(ctx, KeepGoing)
	g.Go(func(context.Context) error { return nil })
	g.Go(NamedErr("index /c", func(context.Context) error { return down }))
	if err := g.Wait(); err == nil || err.Error() != "task: Group: index /c: disk full" || !errors.Is(err, down) {
		t.Errorf("Group.Go: %v", err)
	}
	err := Do(ctx, func(context.Context) error { return nil }, NamedErr("migrate", func(context.Context) error { return down }))
	if err == nil || err.Error() != "task: Do: migrate: disk full" {
		t.Errorf("Do: %v", err)
	}
	user := func(id int) string { return "user " + strconv.Itoa(id) }
	_, err = Map(ctx, []int{7, 42}, 1, NamedBy(user, func(_ context.Context, id int) (int, error) {
		if id == 42 {
			return 0, down
		}
		return id, nil
	}))
	var ce *CallError
	if !errors.As(err, &ce) || ce.Failures[0].Arg != "user 42" || ce.Failures[0].Index != 1 || ce.Failures[0].Err != down {
		t.Errorf("Map: %v", err)
	}
	r := recoverFrom(func() {
		ForEach(ctx, []int{7, 42}, 1, NamedByErr(user, func(_ context.Context, id int) error {
			if id == 7 {
				panic("torn")
			}
			return nil
		}))
	})
	if p, ok := r.(*PanicError); !ok || p.Arg != "user 7" || p.Value != "torn" {
		t.Errorf("ForEach panicked with %v", r)
	}
	// name is not called on the success path without probes.
	calls := 0
	_, err = Map(ctx, []int{1, 2, 3}, 2, NamedBy(func(int) string { calls++; return "x" }, func(_ context.Context, i int) (int, error) { return i, nil }))
	if err != nil || calls != 0 {
		t.Errorf("Map of successes: %v, name called %d times; want nil, 0", err, calls)
	}
	for _, f := range []func(){
		func() { NamedErr("x", nil) },
		func() { NamedBy[int, int](nil, func(context.Context, int) (int, error) { return 0, nil }) },
		func() { NamedByErr[int](func(int) string { return "" }, nil) },
	} {
		if msg := catch(f); !strings.HasPrefix(msg, "task: Named") || !strings.HasSuffix(msg, " is nil") {
			t.Errorf("nil argument: %q", msg)
		}
	}
}

// NamedBy's name is called for a call that returns an error, a
// cancellation by fail-fast included (CallError.Canceled names it), as its
// doc says; not for a call that succeeds.
func TestNamedByCalledForCanceled(t *testing.T) {
	var named []int
	var mu sync.Mutex
	name := func(in int) string {
		mu.Lock()
		named = append(named, in)
		mu.Unlock()
		return "in" + strconv.Itoa(in)
	}
	var begun sync.WaitGroup
	begun.Add(3)
	_, err := Map(context.Background(), []int{0, 1, 2}, -1, NamedBy(name, func(ctx context.Context, in int) (int, error) {
		begun.Done()
		begun.Wait() // every call has started
		switch in {
		case 0:
			return 0, errors.New("boom")
		case 1:
			<-ctx.Done()
			return 0, ctx.Err()
		}
		return in, nil
	}))
	var ce *CallError
	if !errors.As(err, &ce) || len(ce.Canceled) != 1 || ce.Canceled[0].Arg != "in1" {
		t.Fatalf("Map = %#v; want input 1 canceled, under its name", err)
	}
	slices.Sort(named)
	if !slices.Equal(named, []int{0, 1}) {
		t.Fatalf("name called for %v; want [0 1]: the failure and the canceled", named)
	}
}
