package task

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/tasktuple/task/internal/tuplegen"
)

// TestGenerated regenerates the per-arity files in memory and fails with a
// diff when the checked-in ones are stale.
func TestGenerated(t *testing.T) {
	files, err := tuplegen.Files()
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("the generator made no files")
	}
	for name, want := range files {
		got, err := os.ReadFile(name)
		if err != nil {
			t.Errorf("%s: %v (run go generate)", name, err)
			continue
		}
		if !bytes.HasPrefix(want, []byte(tuplegen.Header+"\n\npackage ")) {
			t.Errorf("%s: generated code does not start with the header and a blank line", name)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale; run go generate. Diff (checked in, generated):\n%s", name, lineDiff(got, want))
		}
	}
}

// lineDiff shows the first lines that differ.
func lineDiff(a, b []byte) string {
	al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	var out strings.Builder
	shown := 0
	for i := 0; i < max(len(al), len(bl)) && shown < 10; i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			fmt.Fprintf(&out, "line %d:\n-\t%s\n+\t%s\n", i+1, x, y)
			shown++
		}
	}
	return out.String()
}

// TestFastPathInlined builds the package with -gcflags=-m=2 and checks
// that the completed-task check of every AwaitN and of Wait is inlined, so
// awaiting completed tasks makes no call beyond AwaitN itself, and that
// WhenEach can be inlined, so a range over it keeps its iterator on the
// stack (see wheneach.go).
func TestFastPathInlined(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the compiler")
	}
	// Generic code is compiled where it is instantiated: the test binary
	// instantiates every AwaitN (zarity_test.go).
	out, err := exec.Command("go", "test", "-c", "-o", os.DevNull, "-gcflags=-m=2", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go test -c: %v\n%s", err, out)
	}
	// Lines look like: ./zawait.go:57:12: inlining call to (*Task[go.shape.int]).ok
	src, err := os.ReadFile("zawait.go")
	if err != nil {
		t.Fatal(err)
	}
	funcAt := map[int]string{} // line -> function starting there
	for i, l := range strings.Split(string(src), "\n") {
		if m := regexp.MustCompile(`^func (Await\d+)\[`).FindStringSubmatch(l); m != nil {
			funcAt[i+1] = m[1]
		}
	}
	inlined := map[string]int{}
	seen := map[string]bool{} // line:col, counted once whatever the shape
	re := regexp.MustCompile(`(?m)^\./zawait\.go:((\d+):\d+): inlining call to \(\*Task\[[^\n]*\]\)\.ok$`)
	for _, m := range re.FindAllStringSubmatch(string(out), -1) {
		if seen[m[1]] {
			continue
		}
		seen[m[1]] = true
		var line int
		fmt.Sscan(m[2], &line)
		// The function containing line is the last one starting before it.
		best, name := 0, ""
		for l, f := range funcAt {
			if l <= line && l > best {
				best, name = l, f
			}
		}
		inlined[name]++
	}
	for n := 1; n <= tuplegen.MaxArity; n++ {
		name := fmt.Sprint("Await", n)
		if inlined[name] != n {
			t.Errorf("%s: %d of %d completed-task checks inlined", name, inlined[name], n)
		}
	}
	if !regexp.MustCompile(`(?m)^\./task\.go:\d+:\d+: inlining call to atomic\.\(\*Uint32\)\.Load$`).Match(out) {
		t.Error("the atomic state load is not inlined")
	}
	switch m := regexp.MustCompile(`(?m)^\./wheneach\.go:\d+:\d+: (can|cannot) inline WhenEach\[go\.shape\.int\].*$`).FindSubmatch(out); {
	case m == nil:
		t.Error("no inlining decision for WhenEach")
	case string(m[1]) == "cannot":
		t.Errorf("%s", m[0])
	}
}
