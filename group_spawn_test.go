package task

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"testing"
	"unsafe"
)

// TestGroupFastPathInlined builds the package with -gcflags=-m and checks
// that the tests every spawn and every child's end make are inlined: the
// round's (readyToSpawn, ready), the count (enter, leave) and the open
// group's (openQuiet); and that Group.Go inlines enter and readyToSpawn,
// so that the rounds cost the success path one load and one test.
func TestGroupFastPathInlined(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the compiler")
	}
	if runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
		// Elsewhere (386) the 64-bit atomics are calls, not intrinsics,
		// and none of these fits the inliner's budget.
		t.Skip("the atomics are not intrinsics on " + runtime.GOARCH)
	}
	out, err := exec.Command("go", "build", "-o", os.DevNull, "-gcflags=-m", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, f := range []string{"readyToSpawn", "ready", "enter", "leave", "openQuiet"} {
		if !regexp.MustCompile(`(?m)^\./group\w*\.go:\d+:\d+: can inline \(\*Group\)\.` + f + `$`).Match(out) {
			t.Errorf("(*Group).%s is not inlined", f)
		}
	}
	for _, f := range []string{"readyToSpawn", "enter", "openQuiet"} {
		if !regexp.MustCompile(`(?m)^\./group_spawn\.go:\d+:\d+: inlining call to \(\*Group\)\.` + f + `$`).Match(out) {
			t.Errorf("the spawns do not inline (*Group).%s", f)
		}
	}
}

// TestChildExtraOnNeed: a child's extra (core.x) exists from its spawn
// only where a wait may read it while the child is pending (a limited
// group, a Named function), and is then in the child's own allocation;
// otherwise a child that succeeds never has one, and one that fails gets
// it, with how it stopped, before its task completes.
func TestChildExtraOnNeed(t *testing.T) {
	ctx := context.Background()
	boom := errors.New("boom")
	var ok, failed, limited, named *Task[int]
	gate := make(chan struct{})
	_, err := Scope(ctx, func(ctx context.Context, g *Group) (int, error) {
		ok = Spawn(g, func(context.Context) (int, error) { return 1, nil })
		failed = Spawn(g, func(context.Context) (int, error) { <-gate; return 0, boom })
		named = Spawn(g, Named("n", func(context.Context) (int, error) { <-gate; return 3, nil }))
		if x := named.x.Load(); x == nil || x.name != "n" || x.child == nil || x.child.task() != &named.core {
			t.Errorf("a Named child: extra %+v; want one from the spawn, with the name", x)
		}
		if _, err := ok.Wait(ctx); err != nil {
			return 0, err
		}
		if x := ok.x.Load(); x != nil {
			t.Errorf("a child that succeeded has an extra: %+v", x)
		}
		close(gate)
		failed.Wait(ctx)
		x := failed.x.Load()
		if x == nil || x.stop != own || x.child == nil || x.child.task() != &failed.core {
			t.Errorf("a child that failed: extra %+v; want one with stop own and the child", x)
		}
		return 0, nil
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Scope: %v; want boom", err)
	}
	_, err = Scope(ctx, func(ctx context.Context, g *Group) (int, error) {
		g.SetLimit(1)
		limited = Spawn(g, func(context.Context) (int, error) { return 2, nil })
		queued := Spawn(g, func(context.Context) (int, error) { return 4, nil })
		for _, tk := range []*Task[int]{limited, queued, named} {
			x := tk.x.Load()
			if x == nil || x.child == nil || x.child.task() != &tk.core {
				t.Fatalf("a child of a limited group, or Named: extra %+v; want one from the spawn", x)
			}
			c := x.child.(*childTask[int])
			if x != &(*childExtra[int])(unsafe.Pointer(c)).ex {
				t.Errorf("the extra of a limited group's child, or a Named one, is not in its allocation")
			}
		}
		return 0, nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
