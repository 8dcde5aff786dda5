package task

import (
	"context"
	"errors"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// childRoom is the stack, in bytes, that a function run by the package
// has for itself before its goroutine outgrows its first stack (2 kB;
// the runtime grows a stack, by copying it whole, once a frame would come
// within its guard of the end). The package's frames between the start of
// the goroutine and the function take the rest, and must leave this much.
//
// At f869a6c a report (over 400 bytes) in the frame of Group.childEnded,
// on the success path too, left no room at all: every child of Spawn
// copied its stack once, and Spawn + All took three times as long.
const childRoom = 384

// TestChildFrames runs every form that starts goroutines, with functions
// that use childRoom bytes of stack, in a subprocess whose goroutines may
// not grow their stacks (debug.SetMaxStack at the first stack's size): a
// goroutine that would grow crashes it, with its frames in the output.
// Not Hedge: its winner cancels the losers, and the context package's
// cancellation alone outgrows a first stack.
func TestChildFrames(t *testing.T) {
	if s := os.Getenv("TASK_TEST_FRAMES"); s != "" {
		room, _ := strconv.Atoi(s)
		childFramesFit(room)
		os.Exit(0)
	}
	if testing.Short() {
		t.Skip("runs a subprocess")
	}
	if raceEnabled {
		t.Skip("the race detector doubles the stack guard: a first stack has almost no room")
	}
	// One P and no asynchronous preemption: no goroutine is stopped while
	// it holds a group's lock, so no lock is contended. A contended Lock
	// parks in the runtime (semacquire, which allocates its record) and
	// takes a stack of its own that is not the package's frames (CI saw
	// it once, from releaseSlot, at two Ps).
	out, err := subprocess(t, "TestChildFrames", "TASK_TEST_FRAMES="+strconv.Itoa(childRoom),
		"GOMAXPROCS=1", "GODEBUG=asyncpreemptoff=1")
	if err != nil {
		// The crash names the goroutine that grew, and its frames.
		t.Fatalf("a function run with %d bytes of stack made its goroutine outgrow its first stack: %v\n%s", childRoom, err, out)
	}
}

// childFramesFit runs each form once with functions that use room bytes of
// stack, while no goroutine may grow its stack.
func childFramesFit(room int) {
	ctx := context.Background()
	levels := room / burnFrame
	val := func(context.Context) (int, error) { return burn(levels), nil }
	each := func(_ context.Context, in int) error { burn(levels); return nil }
	mapped := func(_ context.Context, in int) (int, error) { return in + burn(levels), nil }
	errOnly := func(context.Context) error { burn(levels); return nil }
	inputs := make([]int, 16)
	cases := []struct {
		name string
		run  func() error
	}{
		{"Go", func() error { _, err := Go(ctx, val).Wait(ctx); return err }},
		{"Run2", func() error { _, _, err := Run2(ctx, val, val); return err }},
		{"Run16", func() error {
			_, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, err := Run16(ctx, val, val, val, val, val, val, val, val, val, val, val, val, val, val, val, val)
			return err
		}},
		{"Do", func() error { return Do(ctx, errOnly, errOnly, errOnly) }},
		{"Map", func() error { _, err := Map(ctx, inputs, -1, mapped); return err }},
		{"Map limit 4", func() error { _, err := Map(ctx, inputs, 4, mapped); return err }},
		{"ForEach", func() error { return ForEach(ctx, inputs, -1, each) }},
		{"ForEach limit 4", func() error { return ForEach(ctx, inputs, 4, each) }},
		{"MapSeq", func() error { return drain(MapSeq(ctx, slices.Values(inputs), 4, mapped)) }},
		{"MapSeqUnordered", func() error { return drain(MapSeqUnordered(ctx, slices.Values(inputs), 4, mapped)) }},
		{"Scope Spawn All", func() error { return scopeSpawn(ctx, -1, val) }},
		{"Scope Spawn All limit 4", func() error { return scopeSpawn(ctx, 4, val) }},
		{"Scope Go", func() error { return scopeGo(ctx, -1, errOnly) }},
		{"Scope Go limit 4", func() error { return scopeGo(ctx, 4, errOnly) }},
	}
	// This goroutine grows now, and no collection shrinks it later.
	burn(64 << 10 / burnFrame)
	runtime.GC()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	defer debug.SetMaxStack(debug.SetMaxStack(2048))
	var errs []error
	for _, c := range cases {
		for range 3 {
			if err := c.run(); err != nil {
				errs = append(errs, errors.New(c.name+": "+err.Error()))
			}
		}
	}
	if errs != nil {
		// Not a stack: a bug of the test.
		println(strings.TrimSpace(errors.Join(errs...).Error()))
		os.Exit(2)
	}
}

// burnFrame is about the stack each level of burn takes.
const burnFrame = 128

// burn uses about levels*burnFrame bytes of stack.
//
//go:noinline
func burn(levels int) int {
	var b [burnFrame - 32]byte
	b[levels%len(b)] = byte(levels)
	if levels <= 1 {
		return int(b[0])
	}
	return burn(levels-1) + int(b[1])
}

func drain[V any](seq func(func(V, error) bool)) error {
	for _, err := range seq {
		if err != nil {
			return err
		}
	}
	return nil
}

func scopeSpawn(ctx context.Context, limit int, fn func(context.Context) (int, error)) error {
	_, err := Scope(ctx, func(ctx context.Context, g *Group) ([]int, error) {
		g.SetLimit(limit)
		ts := make([]*Task[int], 16)
		for i := range ts {
			ts[i] = Spawn(g, fn)
		}
		return All(ctx, ts)
	})
	return err
}

func scopeGo(ctx context.Context, limit int, fn func(context.Context) error) error {
	_, err := Scope(ctx, func(ctx context.Context, g *Group) (struct{}, error) {
		g.SetLimit(limit)
		for range 16 {
			g.Go(fn)
		}
		return struct{}{}, nil
	})
	return err
}
