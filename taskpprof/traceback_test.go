//go:build go1.26

package taskpprof_test

import (
	"os"
	"os/exec"
	"regexp"
	"testing"
)

// TestTraceback: a crash traceback shows the labels (Go 1.27 prints them
// by default for modules on go 1.27; GODEBUG=tracebacklabels=1 here, a
// setting that Go 1.26 introduced: hence the build constraint).
func TestTraceback(t *testing.T) {
	if os.Getenv("TASKPPROF_CRASH") == "1" {
		blocked(func() { panic("crash while the fan-out runs") })
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestTraceback$")
	cmd.Env = append(os.Environ(), "TASKPPROF_CRASH=1", "GOTRACEBACK=all", "GODEBUG=tracebacklabels=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the child did not crash:\n%s", out)
	}
	// Go 1.26: [... labels:{"task.arg": "f1", ...}]; Go 1.27: {task.arg: f1, ...}.
	re := regexp.MustCompile(`task\.arg"?: "?f1"?, "?task\.call"?: "?Run2"?, "?task\.name"?: "?recs`)
	if !re.Match(out) {
		t.Errorf("the traceback shows no labels of the fan-out:\n%s", out)
	}
}
