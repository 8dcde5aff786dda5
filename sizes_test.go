package task

import (
	"context"
	"runtime"
	"testing"
	"unsafe"
)

// TestRunStateSize: the state of Run2 over two words, its one allocation,
// stays in the 128-byte size class; a child of a Scope over a word in the
// 80-byte one, and with its extra (a limited group's, or a Named
// function's) in the 144-byte one: the bytes a call costs do not grow
// unseen. (Smaller on 32-bit platforms.)
func TestRunStateSize(t *testing.T) {
	if n := unsafe.Sizeof(run2[int, int]{}); n > 128 {
		t.Errorf("run2[int, int] is %d bytes; want at most 128", n)
	}
	if n := unsafe.Sizeof(childTask[int]{}); n > 80 {
		t.Errorf("childTask[int] is %d bytes; want at most 80", n)
	}
	if n := unsafe.Sizeof(childExtra[int]{}); n > 144 {
		t.Errorf("childExtra[int] is %d bytes; want at most 144", n)
	}
}

// TestGroupLayout: a Group stays in the 384-byte size class, and the
// fields that every spawn (spawned) and every child's end (returned, done)
// write are each at least 64 bytes (a cache line) from each other and from
// the fields every spawn and child reads (up to groupWait), whatever the
// object's alignment, so that a spawn and a child's end on two cores do
// not pass lines back and forth (on 64-bit platforms). What lies in the
// gaps must be written only off the success path.
func TestGroupLayout(t *testing.T) {
	var g Group
	if n := unsafe.Sizeof(g); n > 384 {
		t.Errorf("Group is %d bytes; want at most 384", n)
	}
	if unsafe.Sizeof(uintptr(0)) < 8 {
		// On a 32-bit platform the words, and so the gaps, are half as
		// wide: the layout is made for 64-bit ones.
		return
	}
	readEnd := unsafe.Offsetof(g.groupWait)
	returned, doneEnd := unsafe.Offsetof(g.returned), unsafe.Offsetof(g.done)+unsafe.Sizeof(g.done)
	spawned := unsafe.Offsetof(g.spawned)
	if returned < readEnd+64 {
		t.Errorf("returned at %d is within 64 bytes of the fields read by every child (up to %d)", returned, readEnd)
	}
	if spawned < doneEnd+64 {
		t.Errorf("spawned at %d is within 64 bytes of returned and done (up to %d)", spawned, doneEnd)
	}
}

// bytesPerRun is testing.AllocsPerRun for bytes: the bytes f allocates a
// run, at GOMAXPROCS 1, after one run to warm up; the least average of
// five batches of runs, since the runtime now and then allocates for
// itself (a goroutine's g, when none is free to reuse).
func bytesPerRun(runs int, f func()) uint64 {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	f()
	least := ^uint64(0)
	for range 5 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range runs {
			f()
		}
		runtime.ReadMemStats(&after)
		least = min(least, (after.TotalAlloc-before.TotalAlloc)/uint64(runs))
	}
	return least
}

// TestGroupBytes: the bytes of a small fan-out, whose fixed part is the
// group or the call's state (see docs/performance.md, small fan-outs):
// Run2, NewGroup + 16 g.Go + Wait, and Scope + 16 Spawn with a body that
// waits for none; the functions are made before the count.
// Pinned at today's figures: a change may lower them, not raise them.
func TestGroupBytes(t *testing.T) {
	ctx := context.Background()
	nop := func(context.Context) error { return nil }
	ret := immediate[int]
	for _, tc := range []struct {
		name string
		max  uint64
		f    func()
	}{
		// The state, 160; the go statement of f1, 16 (the state).
		{"Run2", 160 + 16, func() { Run2(ctx, ret, ret) }},
		// The group, 384; 16 go statements of 32 (the group, fn, the index).
		{"NewGroup + 16 g.Go + Wait", 384 + 16*32, func() {
			g, _ := NewGroup(ctx)
			for range 16 {
				g.Go(nop)
			}
			g.Wait()
		}},
		// The group, 384; 16 children of 80 (the task and its function;
		// no extra without a limit or a name) and go statements of 24
		// (the child and its type's dictionary).
		{"Scope + 16 Spawn", 384 + 16*(80+24), func() {
			Scope(ctx, func(_ context.Context, g *Group) (int, error) {
				for range 16 {
					Spawn(g, ret)
				}
				return 0, nil
			})
		}},
	} {
		got := bytesPerRun(100, tc.f)
		t.Logf("%s: %d bytes a call", tc.name, got)
		if got > tc.max {
			t.Errorf("%s: %d bytes a call; want at most %d", tc.name, got, tc.max)
		}
	}
}
