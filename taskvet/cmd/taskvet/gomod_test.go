package main

import (
	"testing"

	"golang.org/x/mod/modfile"
)

// TestEditSync: the requirement of golang.org/x/sync is dropped, or kept
// with its version and marked // indirect; go.mod parses after either.
func TestEditSync(t *testing.T) {
	const gomod = "module example.com/m\n\ngo 1.24\n\nrequire (\n\tgolang.org/x/sync v0.24.0\n\texample.com/other v1.0.0\n)\n"
	for _, used := range []bool{false, true} {
		f, err := modfile.Parse("go.mod", []byte(gomod), nil)
		if err != nil {
			t.Fatal(err)
		}
		var req *modfile.Require
		for _, r := range f.Require {
			if r.Mod.Path == syncPath {
				req = r
			}
		}
		if what := editSync(f, req, used); what == "" {
			t.Fatalf("used=%v: editSync did nothing", used)
		}
		out, err := f.Format()
		if err != nil {
			t.Fatal(err)
		}
		g, err := modfile.Parse("go.mod", out, nil)
		if err != nil {
			t.Fatalf("used=%v: go.mod after the edit does not parse: %v\n%s", used, err, out)
		}
		var got *modfile.Require
		for _, r := range g.Require {
			if r.Mod.Path == syncPath {
				got = r
			}
		}
		switch {
		case !used && got != nil:
			t.Errorf("not used: the requirement stays:\n%s", out)
		case used && (got == nil || got.Mod.Version != "v0.24.0" || !got.Indirect):
			t.Errorf("used by a dependency: want golang.org/x/sync v0.24.0 // indirect:\n%s", out)
		}
		if len(g.Require) != 2-map[bool]int{false: 1, true: 0}[used] {
			t.Errorf("used=%v: %d requirements left:\n%s", used, len(g.Require), out)
		}
	}
}
