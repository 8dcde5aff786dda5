package task

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

// The racing calls over a list built at run time (replicas from
// configuration): no functions, or fewer than Quorum's k, is data, not a
// programming error. The call returns at once an error that names it and
// wraps ErrNotEnough, with the position -1 or nil slices, and calls
// nothing; a nil function, a nil ctx and the other bad arguments still
// panic.
func TestRacingTooFewFunctions(t *testing.T) {
	ctx := context.Background()
	var called atomic.Int32
	f := func(context.Context) (int, error) { called.Add(1); return 1, nil }
	var none []func(context.Context) (int, error) // an empty list of replicas
	released := func(int) { t.Error("release called with no success") }

	for _, delay := range []time.Duration{0, time.Hour} {
		v, i, err := Hedge(ctx, delay, released, none...)
		if v != 0 || i != -1 || !errors.Is(err, ErrNotEnough) {
			t.Errorf("Hedge(delay %v) of no functions = %v, %d, %v; want 0, -1 and ErrNotEnough", delay, v, i, err)
		}
		if want := "task: Hedge: no functions: not enough succeeded"; err == nil || err.Error() != want {
			t.Errorf("Hedge of no functions: error %q; want %q", err, want)
		}
	}

	for _, tc := range []struct {
		k    int
		fns  []func(context.Context) (int, error)
		want string
	}{
		{1, none, "task: Quorum: no functions: not enough succeeded"},
		{2, none, "task: Quorum: no functions: not enough succeeded"},
		{3, []func(context.Context) (int, error){f, f}, "task: Quorum: k is 3, with 2 functions: not enough succeeded"},
	} {
		vals, at, err := Quorum(ctx, tc.k, released, tc.fns...)
		if vals != nil || at != nil || !errors.Is(err, ErrNotEnough) {
			t.Errorf("Quorum(%d of %d) = %v, %v, %v; want nil, nil and ErrNotEnough", tc.k, len(tc.fns), vals, at, err)
		}
		if err == nil || err.Error() != tc.want {
			t.Errorf("Quorum(%d of %d): error %q; want %q", tc.k, len(tc.fns), err, tc.want)
		}
	}
	if n := called.Load(); n != 0 {
		t.Errorf("Quorum with fewer functions than k called %d; want none", n)
	}

	enough := func([]int, []int) bool { t.Error("enough called with no functions"); return true }
	vals, at, left, err := Until(ctx, enough, released, none...)
	if vals != nil || at != nil || left != nil || !errors.Is(err, ErrNotEnough) {
		t.Errorf("Until of no functions = %v, %v, %v, %v; want nil, nil, nil and ErrNotEnough", vals, at, left, err)
	}
	if want := "task: Until: no functions: not enough succeeded"; err == nil || err.Error() != want {
		t.Errorf("Until of no functions: error %q; want %q", err, want)
	}
	var ce *CallError
	if errors.As(err, &ce) {
		t.Errorf("Until of no functions: a *CallError (%v); want none: no function failed", ce)
	}

	var nilCtx context.Context
	for _, tc := range []struct {
		f    func()
		want string
	}{
		{func() { Hedge(ctx, 0, nil, f, nil) }, "task: Hedge: fns[1] is nil"},
		{func() { Hedge(nilCtx, 0, nil, none...) }, "task: Hedge: ctx is nil"},
		{func() { Hedge(ctx, -time.Second, nil, none...) }, "task: Hedge: delay is -1s; want 0 or more"},
		{func() { Quorum(ctx, 0, nil, none...) }, "task: Quorum: k is 0; want at least 1"},
		{func() { Quorum[int](ctx, 1, nil, nil) }, "task: Quorum: fns[0] is nil"},
		{func() { Until[int](ctx, nil, nil, none...) }, "task: Until: enough is nil"},
		{func() { Until(ctx, enough, nil, f, nil) }, "task: Until: fns[1] is nil"},
	} {
		if msg := catch(tc.f); msg != tc.want {
			t.Errorf("panic %q; want %q", msg, tc.want)
		}
	}
	if n := called.Load(); n != 0 {
		t.Errorf("a call that panicked on its arguments called %d functions; want none", n)
	}
}
