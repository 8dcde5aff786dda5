package task

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// TestForEachLimit: ForEach's limit is Map's: a negative limit is no limit
// (every call runs at once: each waits for all of them), and a limit of 0
// panics at once, before any call.
func TestForEachLimit(t *testing.T) {
	const n = 5
	in := make([]int, n)
	for _, limit := range []int{-1, -7} {
		var wg sync.WaitGroup
		wg.Add(n)
		if err := ForEach(t.Context(), in, limit, func(context.Context, int) error { wg.Done(); wg.Wait(); return nil }); err != nil {
			t.Errorf("ForEach, limit %d: %v", limit, err)
		}
	}
	called := false
	msg := catch(func() { ForEach(t.Context(), in, 0, func(context.Context, int) error { called = true; return nil }) })
	if want := "task: ForEach: limit is 0; want at least 1, or a negative limit for none"; msg != want || called {
		t.Errorf("ForEach, limit 0: panic %q, called %v; want %q and no call", msg, called, want)
	}
}

// TestForEachMapWithinOptions: ForEach and MapWithin take KeepGoing,
// FirstError and Grace, and panic at once for Settled, which would change
// nothing (MapWithin returns every result whatever its error).
func TestForEachMapWithinOptions(t *testing.T) {
	boom := errors.New("boom")
	in := []int{0, 1}
	fail := func(_ context.Context, x int) error {
		if x == 0 {
			return boom
		}
		return nil
	}
	failV := func(ctx context.Context, x int) (int, error) { return x, fail(ctx, x) }
	for _, o := range []Option{KeepGoing, FirstError, Grace(time.Second)} {
		if err := ForEach(t.Context(), in, 1, fail, o); !errors.Is(err, boom) {
			t.Errorf("ForEach(%v) = %v; want boom", o, err)
		}
		if _, _, err := MapWithin(t.Context(), time.Hour, in, 1, failV, o); !errors.Is(err, boom) {
			t.Errorf("MapWithin(%v) = %v; want boom", o, err)
		}
	}
	called := false
	never := func(context.Context, int) error { called = true; return nil }
	for call, f := range map[string]func(){
		"ForEach":   func() { ForEach(t.Context(), in, 1, never, Settled) },
		"MapWithin": func() { MapWithin(t.Context(), time.Hour, in, 1, dropValue(never), Settled) },
	} {
		want := "task: " + call + ": Settled does not apply to " + call
		if msg := catch(f); msg != want {
			t.Errorf("%s(Settled) panics %q; want %q", call, msg, want)
		}
	}
	if called {
		t.Error("a call that panicked on its options called fn")
	}
}
