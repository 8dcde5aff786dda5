package task

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/tasktuple/task/internal/tuplegen"
)

// TestGenerated regenerates the per-arity files in memory and fails with a
// diff when the checked-in ones are stale, or when a file the generator no
// longer makes (zfaults_test.go, say) is still there.
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
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if _, made := files[e.Name()]; made || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		if src, err := os.ReadFile(e.Name()); err == nil && bytes.HasPrefix(src, []byte(tuplegen.Header+"\n")) {
			t.Errorf("%s has the generator's header, but the generator no longer makes it: delete it", e.Name())
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
