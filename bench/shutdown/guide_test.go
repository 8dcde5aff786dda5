package shutdown

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// guide is the guide that shows this package's code, at the repository's
// root. A copy of the module alone has none.
const guide = "../../docs/shutdown.md"

// TestGuide: every Go snippet of the guide is code of the example: its
// lines, with runs of spaces and tabs folded, appear one after the other in
// a .go file of this directory or below. A snippet marked as code of the
// core's examples ("<!-- snippet: from ... -->") is the core's to check. A snippet edited in the guide
// alone fails, and so does code that changed under a snippet. The table of
// figures has the columns that TestShutdown prints.
func TestGuide(t *testing.T) {
	b, err := os.ReadFile(guide)
	if errors.Is(err, fs.ErrNotExist) {
		t.Skipf("no %s: a copy of the module alone", guide)
	}
	if err != nil {
		t.Fatal(err)
	}
	snippets := regexp.MustCompile("(?s)(<!-- snippet: from [^\n]*-->\n)?```go\n(.*?)```").FindAllStringSubmatch(string(b), -1)
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
		if s[1] != "" {
			continue // the core's snippet test checks it
		}
		want := "\n" + fold(s[2]) + "\n"
		found := false
		for _, src := range sources {
			if strings.Contains(src, want) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("%s: this snippet is not code of the example:\n%s", guide, s[2])
		}
	}
	if !strings.Contains(string(b), figures{}.header()) {
		t.Errorf("%s: the table of figures does not have the columns TestShutdown prints:\n%s", guide, figures{}.header())
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
