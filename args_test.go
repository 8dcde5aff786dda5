package task

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// The checks of arguments: a nil ctx, function or task, a bad limit, or a
// Task declared rather than made panics at once in the caller, naming the
// call and the argument (nilArg, await.go), and starts nothing.

// TestNilArguments: a nil ctx, function or task panics at once, in the
// caller, naming the call and the argument, and nothing starts.
func TestNilArguments(t *testing.T) {
	for _, c := range append(awaits(), runs()...) {
		arg := "f"
		if strings.HasPrefix(c.name, "Await") {
			arg = "t"
		}
		for p := 0; p <= c.n; p++ {
			sl := newSlots(c.n, kValue)
			ctx := context.Background()
			want := fmt.Sprintf("task: %s: ctx is nil", c.name)
			if p > 0 {
				sl[p-1].kind = kNil
				want = fmt.Sprintf("task: %s: %s%d is nil", c.name, arg, p)
			} else {
				ctx = nil
				if arg == "t" {
					// Tasks need a ctx to start; make them first.
					for _, s := range sl {
						s.kind = kCompleted
					}
				}
			}
			got := catch(func() { c.fn(ctx, sl) })
			if got != want {
				t.Errorf("%s with nil %s: panic %q; want %q", c.name, want, got, want)
			}
			if arg == "f" {
				for _, s := range sl {
					if s.calls.Load() != 0 {
						t.Errorf("%s with %s: f%d was called", c.name, want, s.i)
					}
				}
			}
		}
	}
}

func TestBadArguments(t *testing.T) {
	ctx := context.Background()
	var nilTask *Task[int]
	var nilCtx context.Context
	for _, tc := range []struct {
		f    func()
		want string
	}{
		{func() { Go(nilCtx, immediate[int]) }, "task: Go: ctx is nil"},
		{func() { Go[int](ctx, nil) }, "task: Go: fn is nil"},
		{func() { nilTask.Wait(ctx) }, "task: Wait: t is nil"},
		{func() { fromResult(1).Wait(nilCtx) }, "task: Wait: ctx is nil"},
		{func() { nilTask.Done() }, "task: Done: t is nil"},
		{func() { new(Task[int]).Wait(ctx) }, errZeroTask},
		{func() { All(ctx, []*Task[int]{new(Task[int])}) }, errZeroTask},
	} {
		if got := catch(tc.f); got != tc.want {
			t.Errorf("panic %q; want %q", got, tc.want)
		}
	}
}

func TestManyBadInput(t *testing.T) {
	ctx := context.Background()
	var nilCtx context.Context
	ok := fromResult(1)
	tasks := []*Task[int]{ok, ok, ok, nil}
	fn := func(context.Context, int) (int, error) { return 0, nil }
	for _, tc := range []struct {
		f    func()
		want string
	}{
		{func() { All(ctx, tasks) }, "task: All: tasks[3] is nil"},
		{func() { All(nilCtx, tasks[:1]) }, "task: All: ctx is nil"},
		{func() { WhenEach(ctx, tasks) }, "task: WhenEach: tasks[3] is nil"},
		{func() { WhenEach(nilCtx, tasks[:1]) }, "task: WhenEach: ctx is nil"},
		{func() { Hedge(ctx, 0, nil, immediate[int], nil) }, "task: Hedge: fns[1] is nil"},
		{func() { Hedge(nilCtx, 0, nil, immediate[int]) }, "task: Hedge: ctx is nil"},
		{func() { Map[int, int](ctx, []int{1}, 1, nil) }, "task: Map: fn is nil"},
		{func() { Map(nilCtx, []int{1}, 1, fn) }, "task: Map: ctx is nil"},
		{func() { Map(ctx, []int{1}, 0, fn) }, "task: Map: limit is 0; want at least 1, or a negative limit for none"},
	} {
		if got := catch(tc.f); got != tc.want {
			t.Errorf("panic %q; want %q", got, tc.want)
		}
	}
}
