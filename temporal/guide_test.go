package wtask_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// guide is the guide to this module, at the repository's root. A copy of
// the module alone (as CI makes one per SDK version) has none.
const guide = "../docs/temporal.md"

// TestGuideSnippets: every Go snippet of the guide is code of this module
// that is compiled, and run by an Example or a test: its lines, with runs
// of spaces and tabs folded, appear one after the other in a .go file
// here. A snippet edited in the guide alone fails, and so does code that
// changed under a snippet.
func TestGuideSnippets(t *testing.T) {
	b, err := os.ReadFile(guide)
	if errors.Is(err, fs.ErrNotExist) {
		t.Skipf("no %s: a copy of the module alone", guide)
	}
	if err != nil {
		t.Fatal(err)
	}
	snippets := regexp.MustCompile("(?s)```go\n(.*?)```").FindAllStringSubmatch(string(b), -1)
	if len(snippets) == 0 {
		t.Fatalf("%s has no Go snippet", guide)
	}
	var sources []string // each file's lines, folded, joined by "\n", with "\n" around
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		src, err := os.ReadFile(path)
		sources = append(sources, "\n"+fold(string(src))+"\n")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range snippets {
		want := "\n" + fold(s[1]) + "\n"
		found := false
		for _, src := range sources {
			if strings.Contains(src, want) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("%s: this snippet is not code of the module:\n%s", guide, s[1])
		}
	}
}

// fold trims each line, folds runs of blanks into one space, and drops
// empty lines.
func fold(s string) string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		if f := strings.Fields(line); len(f) > 0 {
			out = append(out, strings.Join(f, " "))
		}
	}
	return strings.Join(out, "\n")
}
