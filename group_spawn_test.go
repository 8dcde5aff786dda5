package task

import (
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"testing"
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
