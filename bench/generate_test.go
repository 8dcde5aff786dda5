package bench

import (
	"bytes"
	"os"
	"testing"

	"github.com/tasktuple/task/bench/internal/peergen"
)

// TestGenerated fails when the generated files differ from what the
// generator makes now; run go generate ./... in the bench directory.
func TestGenerated(t *testing.T) {
	files, err := peergen.Files()
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("the generator made no files")
	}
	for name, want := range files {
		got, err := os.ReadFile(name)
		if err != nil {
			t.Errorf("%s: %v (run go generate ./...)", name, err)
			continue
		}
		if !bytes.HasPrefix(want, []byte(peergen.Header+"\n\n")) {
			t.Errorf("%s: no generated-code header followed by a blank line", name)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go generate ./... in bench", name)
		}
	}
}

// TestCasesCover checks that every implementation is measured at every N.
func TestCasesCover(t *testing.T) {
	count := map[string]int{}
	for _, c := range fanoutCases {
		count[c.impl]++
	}
	for impl, n := range count {
		if n != len(peergen.Ns) {
			t.Errorf("%s is measured at %d arities; want %d", impl, n, len(peergen.Ns))
		}
	}
	if len(count) < 14 {
		t.Errorf("%d implementations; want at least 14", len(count))
	}
}
