package task

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// maxDocWords is the most words an exported doc comment may have, as
// go/doc prints it: context's longest is 130 (AfterFunc), sync's 269
// (Pool). The rule a call shares with others is said once, in the package
// documentation or a guide, and each doc says what is particular to it.
const maxDocWords = 200

// allocWords finds a doc that speaks of allocations: a count of them is a
// measurement of a release, not behaviour (docs/performance.md has the
// figures).
var allocWords = regexp.MustCompile(`(?i)\balloc`)

// TestDocWords: no exported doc of the package (funcs, types, methods,
// vars and consts, each spec of a group too) runs over maxDocWords words
// or states an allocation count.
func TestDocWords(t *testing.T) {
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if f.Name.Name == "task" { // not gen.go, the generator's driver
			files = append(files, f)
		}
	}
	p, err := doc.NewFromFiles(fset, files, "github.com/tasktuple/task")
	if err != nil {
		t.Fatal(err)
	}
	checked, longest, longestName := 0, 0, ""
	check := func(name, text string) {
		checked++
		n := len(strings.Fields(string(p.Text(text))))
		if n > longest {
			longest, longestName = n, name
		}
		if n > maxDocWords {
			t.Errorf("%s: the doc has %d words; want at most %d", name, n, maxDocWords)
		}
		if w := allocWords.FindString(text); w != "" {
			t.Errorf("%s: the doc speaks of allocations (%q): a count is a measurement, for docs/performance.md", name, w)
		}
	}
	values := func(vs []*doc.Value) {
		for _, v := range vs {
			check(strings.Join(v.Names, ", "), v.Doc)
			for _, s := range v.Decl.Specs {
				if vs := s.(*ast.ValueSpec); vs.Doc != nil && len(v.Names) > 1 {
					check(vs.Names[0].Name, vs.Doc.Text())
				}
			}
		}
	}
	for _, f := range p.Funcs {
		check(f.Name, f.Doc)
	}
	values(p.Vars)
	values(p.Consts)
	for _, typ := range p.Types {
		check(typ.Name, typ.Doc)
		for _, f := range typ.Funcs {
			check(f.Name, f.Doc)
		}
		for _, m := range typ.Methods {
			check(typ.Name+"."+m.Name, m.Doc)
		}
		values(typ.Vars)
		values(typ.Consts)
	}
	t.Logf("%d exported docs checked; the longest is %s's, %d words", checked, longestName, longest)
	if checked < 80 {
		t.Errorf("%d exported docs checked; want every exported name (87)", checked)
	}
}
