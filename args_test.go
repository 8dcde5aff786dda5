package task

import (
	"context"
	"fmt"
	"slices"
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
		{func() { FromResult(1).Wait(nilCtx) }, "task: Wait: ctx is nil"},
		{func() { nilTask.TryWait() }, "task: TryWait: t is nil"},
		{func() { WhenAll(nilCtx) }, "task: WhenAll: ctx is nil"},
		{func() { WhenAll(ctx, FromResult(1), nilTask) }, "task: WhenAll: tasks[1] is nil"},
		{func() { WhenAll(ctx, FromResult(1), nil) }, "task: WhenAll: tasks[1] is nil"},
		{func() { new(Task[int]).Wait(ctx) }, errZeroTask},
		{func() { Await1(ctx, new(Task[int])) }, errZeroTask},
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
	ok := FromResult(1)
	tasks := []*Task[int]{ok, ok, ok, nil}
	fn := func(context.Context, int) (int, error) { return 0, nil }
	for _, tc := range []struct {
		f    func()
		want string
	}{
		{func() { All(ctx, tasks) }, "task: All: tasks[3] is nil"},
		{func() { All(nilCtx, tasks[:1]) }, "task: All: ctx is nil"},
		{func() { AllSeq(ctx, slices.Values(tasks)) }, "task: AllSeq: task 3 of the sequence is nil"},
		{func() { AllSeq[int](ctx, nil) }, "task: AllSeq: tasks is nil"},
		{func() { WhenAny(ctx, tasks) }, "task: WhenAny: tasks[3] is nil"},
		{func() { WhenAny(ctx, []Awaiter{ok, nil}) }, "task: WhenAny: tasks[1] is nil"},
		{func() { WhenEach(ctx, tasks) }, "task: WhenEach: tasks[3] is nil"},
		{func() { WhenEach(nilCtx, tasks[:1]) }, "task: WhenEach: ctx is nil"},
		{func() { FirstOK(ctx, tasks) }, "task: FirstOK: tasks[3] is nil"},
		{func() { RunFirstOK(ctx, immediate[int], nil) }, "task: RunFirstOK: fns[1] is nil"},
		{func() { RunFirstOK(nilCtx, immediate[int]) }, "task: RunFirstOK: ctx is nil"},
		{func() { Map[int, int](ctx, []int{1}, 1, nil) }, "task: Map: fn is nil"},
		{func() { Map(nilCtx, []int{1}, 1, fn) }, "task: Map: ctx is nil"},
		{func() { Map(ctx, []int{1}, 0, fn) }, "task: Map: limit is 0; want at least 1"},
		{func() { Map(ctx, []int{1}, -1, fn) }, "task: Map: limit is -1; want at least 1"},
	} {
		if got := catch(tc.f); got != tc.want {
			t.Errorf("panic %q; want %q", got, tc.want)
		}
	}
	if _, err := WhenAny(ctx, []*Task[int]{}); err != ErrNoTasks {
		t.Errorf("WhenAny(empty) err = %v; want ErrNoTasks", err)
	}
	if _, _, err := FirstOK(ctx, []*Task[int]{}); err != ErrNoTasks {
		t.Errorf("FirstOK(empty) err = %v; want ErrNoTasks", err)
	}
	if _, _, err := RunFirstOK[int](ctx); err != ErrNoTasks {
		t.Errorf("RunFirstOK() err = %v; want ErrNoTasks", err)
	}
}
