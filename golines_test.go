package task_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestGoLines: README.md and docs/versioning.md say which Go each module
// needs as the go lines of the go.mod files say it: the core's, and the one
// that every other module has.
func TestGoLines(t *testing.T) {
	goLine := func(name string) string {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			if v, ok := strings.CutPrefix(strings.TrimSpace(line), "go "); ok {
				return v
			}
		}
		t.Fatalf("%s has no go line", name)
		return ""
	}
	// 1.26.0 is Go 1.26.
	release := func(v string) string {
		if parts := strings.Split(v, "."); len(parts) > 2 {
			return strings.Join(parts[:2], ".")
		}
		return v
	}
	core := goLine("go.mod")
	mods, err := filepath.Glob("*/go.mod")
	if err != nil || len(mods) == 0 {
		t.Fatalf("no module beside the core: %v", err)
	}
	byLine := map[string][]string{}
	for _, m := range mods {
		v := goLine(m)
		byLine[v] = append(byLine[v], filepath.Dir(m))
	}
	if len(byLine) != 1 {
		t.Fatalf("the modules beside the core have the go lines %v; README.md and docs/versioning.md say they share one", byLine)
	}
	var other string
	for v := range byLine {
		other = v
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	versioning, err := os.ReadFile("docs/versioning.md")
	if err != nil {
		t.Fatal(err)
	}
	// Sentences are wrapped: compare with the line breaks as spaces.
	flat := func(b []byte) string { return strings.Join(strings.Fields(string(b)), " ") }
	for _, c := range []struct {
		file, text string
		wants      []string
	}{
		{"README.md", flat(readme), []string{
			"The core requires Go " + release(core) + " or later",
			"require Go " + release(other) + " or later",
		}},
		{"docs/versioning.md", flat(versioning), []string{
			"The core needs **Go " + release(core) + "** or later (`go " + core + "` in its `go.mod`)",
			"Every other module has the line `go " + other + "`",
			"need **Go " + release(other) + "** or later",
		}},
	} {
		for _, want := range c.wants {
			if !strings.Contains(c.text, want) {
				t.Errorf("%s does not say %q (go.mod: go %s; %s: go %s)", c.file, want, core, strings.Join(slices.Sorted(slices.Values(byLine[other])), ", "), other)
			}
		}
	}
}
