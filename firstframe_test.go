package task

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// A panicKind is a function that panics in one way; name is the function
// the stack of its panic must start at.
type panicKind struct {
	name string
	fn   func(context.Context) error
}

var panicKinds = []panicKind{
	{"panicValue", panicValue},
	{"panicErr", panicErr},
	{"panicNilPointer", panicNilPointer},
	{"panicIndex", panicIndex},
	{"panicDivide", panicDivide},
	{"panicInDefer", panicInDefer}, // its deferred function panics
	{"panicAgain", panicAgain},     // its deferred function recovers and panics again
	{"panicNamed", NamedErr("named", panicNamed)},
}

var (
	noInts  []int
	five    = 5
	zeroInt = 0
)

//go:noinline
func panicValue(context.Context) error { panic("boom") }

//go:noinline
func panicErr(context.Context) error { panic(errors.New("boom")) }

//go:noinline
func panicNilPointer(context.Context) error {
	var p *struct{ n int }
	return fmt.Errorf("%d", p.n)
}

//go:noinline
func panicIndex(context.Context) error { return fmt.Errorf("%d", noInts[five]) }

//go:noinline
func panicDivide(context.Context) error { return fmt.Errorf("%d", five/zeroInt) }

//go:noinline
func panicInDefer(context.Context) error {
	defer func() { panic("in defer") }()
	return nil
}

//go:noinline
func panicAgain(context.Context) error {
	defer func() { panic(fmt.Sprint("again: ", recover())) }()
	panic("first")
}

//go:noinline
func panicNamed(context.Context) error { panic("named boom") }

// An entryPoint runs fn, which panics, through one way the package runs a
// user function, and returns what the caller recovered.
type entryPoint struct {
	name string
	run  func(ctx context.Context, fn func(context.Context) error) any
}

func withValue(fn func(context.Context) error) func(context.Context) (int, error) {
	return func(ctx context.Context) (int, error) { return 1, fn(ctx) }
}

func oneInt(context.Context) (int, error) { return 1, nil }
func okErr(context.Context) error         { return nil }

var entryPoints = []entryPoint{
	{"Run2 first", func(ctx context.Context, fn func(context.Context) error) any {
		return recoverFrom(func() { Run2(ctx, withValue(fn), oneInt) })
	}},
	{"Run2 last", func(ctx context.Context, fn func(context.Context) error) any {
		return recoverFrom(func() { Run2(ctx, oneInt, withValue(fn)) })
	}},
	{"Run5", func(ctx context.Context, fn func(context.Context) error) any {
		return recoverFrom(func() { Run5(ctx, oneInt, oneInt, withValue(fn), oneInt, oneInt) })
	}},
	{"Go", func(ctx context.Context, fn func(context.Context) error) any {
		return recoverFrom(func() { Go(ctx, withValue(fn)).Wait(ctx) })
	}},
	{"Do", func(ctx context.Context, fn func(context.Context) error) any {
		return recoverFrom(func() { Do(ctx, okErr, fn) })
	}},
	{"Do last", func(ctx context.Context, fn func(context.Context) error) any {
		return recoverFrom(func() { Do(ctx, fn) })
	}},
	{"NewGroup Go", func(ctx context.Context, fn func(context.Context) error) any {
		g, _ := NewGroup(ctx)
		g.Go(fn)
		return recoverFrom(func() { g.Wait() })
	}},
	{"NewGroup Go limit", func(ctx context.Context, fn func(context.Context) error) any {
		g, _ := NewGroup(ctx)
		g.SetLimit(2)
		g.Go(fn)
		return recoverFrom(func() { g.Wait() })
	}},
	{"NewGroup Go queued", func(ctx context.Context, fn func(context.Context) error) any {
		g, _ := NewGroup(ctx)
		g.SetLimit(1)
		gate := make(chan struct{})
		g.Go(func(context.Context) error { <-gate; return nil })
		g.Go(fn) // waits for the slot
		close(gate)
		return recoverFrom(func() { g.Wait() })
	}},
	{"zero Group Go", func(ctx context.Context, fn func(context.Context) error) any {
		var g Group
		g.Go(fn)
		return recoverFrom(func() { g.Wait() })
	}},
	{"TryGo", func(ctx context.Context, fn func(context.Context) error) any {
		g, _ := NewGroup(ctx)
		g.TryGo(fn)
		return recoverFrom(func() { g.Wait() })
	}},
	{"Spawn Wait", func(ctx context.Context, fn func(context.Context) error) any {
		g, _ := NewGroup(ctx)
		t := Spawn(g, withValue(fn))
		r := recoverFrom(func() { t.Wait(ctx) })
		recoverFrom(func() { g.Wait() })
		return r
	}},
	{"Spawn Group.Wait", func(ctx context.Context, fn func(context.Context) error) any {
		g, _ := NewGroup(ctx)
		Spawn(g, withValue(fn))
		return recoverFrom(func() { g.Wait() })
	}},
	{"Spawn queued", func(ctx context.Context, fn func(context.Context) error) any {
		g, _ := NewGroup(ctx)
		g.SetLimit(1)
		gate := make(chan struct{})
		Spawn(g, func(context.Context) (int, error) { <-gate; return 0, nil })
		Spawn(g, withValue(fn)) // waits for the slot
		close(gate)
		return recoverFrom(func() { g.Wait() })
	}},
	{"TrySpawn", func(ctx context.Context, fn func(context.Context) error) any {
		g, _ := NewGroup(ctx)
		TrySpawn(g, withValue(fn))
		return recoverFrom(func() { g.Wait() })
	}},
	{"Scope body", func(ctx context.Context, fn func(context.Context) error) any {
		return recoverFrom(func() {
			Scope(ctx, func(ctx context.Context, g *Group) (int, error) { return withValue(fn)(ctx) })
		})
	}},
	{"Scope Spawn", func(ctx context.Context, fn func(context.Context) error) any {
		return recoverFrom(func() {
			Scope(ctx, func(ctx context.Context, g *Group) (int, error) { Spawn(g, withValue(fn)); return 0, nil })
		})
	}},
	{"Scope Go", func(ctx context.Context, fn func(context.Context) error) any {
		return recoverFrom(func() {
			Scope(ctx, func(ctx context.Context, g *Group) (int, error) { g.Go(fn); return 0, nil })
		})
	}},
	{"Map", func(ctx context.Context, fn func(context.Context) error) any {
		return recoverFrom(func() {
			Map(ctx, []int{1}, -1, func(ctx context.Context, _ int) (int, error) { return withValue(fn)(ctx) })
		})
	}},
	{"Map limit", func(ctx context.Context, fn func(context.Context) error) any {
		return recoverFrom(func() {
			Map(ctx, []int{1, 2, 3}, 2, func(ctx context.Context, i int) (int, error) {
				if i == 3 {
					return withValue(fn)(ctx)
				}
				return i, nil
			})
		})
	}},
	{"ForEach", func(ctx context.Context, fn func(context.Context) error) any {
		return recoverFrom(func() { ForEach(ctx, []int{1}, -1, func(ctx context.Context, _ int) error { return fn(ctx) }) })
	}},
	{"ForEach limit", func(ctx context.Context, fn func(context.Context) error) any {
		return recoverFrom(func() { ForEach(ctx, []int{1, 2}, 1, func(ctx context.Context, _ int) error { return fn(ctx) }) })
	}},
	{"MapWithin", func(ctx context.Context, fn func(context.Context) error) any {
		return recoverFrom(func() {
			MapWithin(ctx, time.Hour, []int{1}, -1, func(ctx context.Context, _ int) (int, error) { return withValue(fn)(ctx) })
		})
	}},
	{"MapSeq", func(ctx context.Context, fn func(context.Context) error) any {
		return recoverFrom(func() {
			drain(MapSeq(ctx, slices.Values([]int{1}), 2, func(ctx context.Context, _ int) (int, error) { return withValue(fn)(ctx) }))
		})
	}},
	{"MapSeqUnordered", func(ctx context.Context, fn func(context.Context) error) any {
		return recoverFrom(func() {
			drain(MapSeqUnordered(ctx, slices.Values([]int{1}), 2, func(ctx context.Context, _ int) (int, error) { return withValue(fn)(ctx) }))
		})
	}},
}

// TestStackStartsAtPanickingFrame: through every way the package runs a
// function, the PanicError raised for its panic has a stack that starts at
// the frame that panicked, for every kind of panic: none of the package's
// or the runtime's frames come first.
func TestStackStartsAtPanickingFrame(t *testing.T) {
	checkFirstFrames(t, entryPoints)
}

func checkFirstFrames(t *testing.T, eps []entryPoint) {
	ctx := context.Background()
	for _, ep := range eps {
		for _, k := range panicKinds {
			r := ep.run(ctx, k.fn)
			pe, ok := r.(*PanicError)
			if !ok {
				t.Errorf("%s, %s: recovered %T %v; want a *PanicError", ep.name, k.name, r, r)
				continue
			}
			if err := startsAt(pe.Stack, k.name); err != nil {
				t.Errorf("%s, %s: %v", ep.name, k.name, err)
			}
		}
	}
}

// startsAt checks that the first frame of stack is the function name of
// this package, or a closure in it, under the goroutine's header line.
func startsAt(stack []byte, name string) error {
	if !strings.HasPrefix(string(stack), "goroutine ") {
		return fmt.Errorf("stack has no goroutine header:\n%s", stack)
	}
	first := frame(stack, 0)
	want := "github.com/tasktuple/task." + name
	if !strings.HasPrefix(first, want+"(") && !strings.HasPrefix(first, want+".func") {
		return fmt.Errorf("stack starts at %q; want %s:\n%s", first, want, stack)
	}
	return nil
}

// TestTrimPanicFrames: the cut is found from the runtime's panic frame,
// whatever frames recovered, and the runtime's frames that raise a runtime
// error go with it; a stack without a panic frame is kept whole.
func TestTrimPanicFrames(t *testing.T) {
	const header = "goroutine 7 [running]:\n"
	frame := func(fn string) string { return fn + "\n\t/src/x.go:1 +0x1\n" }
	user := frame("main.handler(...)") + frame("main.main()")
	for _, c := range []struct{ name, in, want string }{
		{"explicit", header + frame("anything.recovers()") + frame("panic({0x1, 0x2})") + user, header + user},
		{"runtime error", header + frame("a.b()") + frame("panic({0x1, 0x2})") + frame("runtime.panicmem(...)") + frame("runtime.sigpanic()") + user, header + user},
		{"re-panic", header + frame("a.b()") + frame("panic({0x1, 0x2})") + frame("main.handler.func1()") + frame("panic({0x3, 0x4})") + user,
			header + frame("main.handler.func1()") + frame("panic({0x3, 0x4})") + user},
		{"no panic frame", header + user, header + user},
	} {
		if got := string(trimPanicFrames([]byte(c.in))); got != c.want {
			t.Errorf("%s:\n%s\nwant:\n%s", c.name, got, c.want)
		}
	}
}

// TestGroupWaitRaisesSamePanic: every Wait of a group whose child panicked
// raises the same *PanicError value.
func TestGroupWaitRaisesSamePanic(t *testing.T) {
	g, _ := NewGroup(context.Background())
	g.Go(panicValue)
	first, second := recoverFrom(func() { g.Wait() }), recoverFrom(func() { g.Wait() })
	if _, ok := first.(*PanicError); !ok || first != second {
		t.Errorf("Wait raised %p then %p; want the same *PanicError", first, second)
	}
	// So does a Task's Wait.
	task := Go(context.Background(), withValue(panicValue))
	first, second = recoverFrom(func() { task.Wait(context.Background()) }), recoverFrom(func() { task.Wait(context.Background()) })
	if _, ok := first.(*PanicError); !ok || first != second {
		t.Errorf("Task.Wait raised %p then %p; want the same *PanicError", first, second)
	}
}
