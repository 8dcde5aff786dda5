package taskvet

import (
	"bytes"
	"go/ast"
	"go/format"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// The text of a fix is cut from the source, so that comments and layout
// stay; the driver formats the fixed file (and removes the errgroup import
// once unused).

// file returns the file that holds the site.
func (s *site) file() *ast.File {
	for _, f := range s.pass.Files {
		if f.FileStart <= s.create.Pos() && s.create.Pos() < f.FileEnd {
			return f
		}
	}
	return nil
}

// srcBytes returns the source of the file that holds pos.
func (s *site) srcBytes(pos token.Pos) []byte {
	tf := s.pass.Fset.File(pos)
	src, err := s.pass.ReadFile(tf.Name())
	if err != nil {
		return nil
	}
	return src
}

// text returns the source between from and to with the edits inside that
// range applied.
func (s *site) text(from, to token.Pos, edits ...analysis.TextEdit) string {
	tf := s.pass.Fset.File(from)
	src := s.srcBytes(from)
	edits = slices.Clone(edits)
	slices.SortStableFunc(edits, func(a, b analysis.TextEdit) int { return int(a.Pos - b.Pos) })
	var b strings.Builder
	at := from
	for _, e := range edits {
		if e.Pos < from || e.End > to {
			continue
		}
		if e.Pos < at {
			panic("taskvet: overlapping edits")
		}
		b.Write(src[tf.Offset(at):tf.Offset(e.Pos)])
		b.Write(e.NewText)
		at = e.End
	}
	b.Write(src[tf.Offset(at):tf.Offset(to)])
	return b.String()
}

// indent returns the blanks that begin the line of pos, up to pos.
func (s *site) indent(pos token.Pos) string {
	tf := s.pass.Fset.File(pos)
	src := s.srcBytes(pos)
	off := tf.Offset(pos)
	start := tf.Offset(tf.LineStart(lineOf(tf, pos)))
	line := src[start:off]
	return string(line[:len(line)-len(bytes.TrimLeft(line, " \t"))])
}

// lineOf is the line of pos as its file is written: the edits are made
// to the file's text, which a //line directive (generated code) does not
// move.
func lineOf(tf *token.File, pos token.Pos) int { return tf.PositionFor(pos, false).Line }

// src returns the source text of n, as formatted.
func (s *site) src(n ast.Node) string {
	var b bytes.Buffer
	if err := format.Node(&b, s.pass.Fset, n); err != nil {
		panic(err)
	}
	return b.String()
}

// deleteLines returns the edit that removes st and its line.
func (s *site) deleteLines(st ast.Node) analysis.TextEdit {
	tf := s.pass.Fset.File(st.Pos())
	start := tf.LineStart(lineOf(tf, st.Pos()))
	endLine := lineOf(tf, st.End())
	end := st.End()
	if endLine < tf.LineCount() {
		end = tf.LineStart(endLine + 1)
	}
	return analysis.TextEdit{Pos: start, End: end}
}

// An importer names the packages a fix mentions, adding the imports the
// file lacks in one edit.
type importer struct {
	s    *site
	file *ast.File
	pos  token.Pos // where the names are used
	add  []addedImport
}

// An addedImport is an import a fix adds, named if the name is not the
// package's own.
type addedImport struct{ path, name string }

// spec returns the import's spec.
func (a addedImport) spec() string {
	q := strconv.Quote(a.path)
	if a.name != "" && a.name != pathBase(a.path) {
		return a.name + " " + q
	}
	return q
}

// pathBase returns the last element of an import path.
func pathBase(path string) string {
	return path[strings.LastIndex(path, "/")+1:]
}

// name returns the name under which path can be mentioned at the
// importer's position, importing it as want if the file does not; ok is
// false if it cannot be named there.
func (im *importer) name(path, want string) (string, bool) {
	s := im.s
	for _, imp := range im.file.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p != path {
			continue
		}
		var obj types.Object
		if imp.Name != nil {
			obj = s.info().Defs[imp.Name]
		} else {
			obj = s.info().Implicits[imp]
		}
		pn, ok := obj.(*types.PkgName)
		if !ok || pn.Name() == "_" || pn.Name() == "." || s.lookup(pn.Name(), im.pos) != pn {
			return "", false
		}
		return pn.Name(), true
	}
	for _, a := range im.add {
		if a.path == path {
			return a.name, true
		}
	}
	if s.lookup(want, im.pos) != nil {
		return "", false // the name is taken
	}
	for _, d := range im.file.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == want {
			return "", false
		}
	}
	im.add = append(im.add, addedImport{path, want})
	return want, true
}

// edits returns the edits that add the imports, in the sections where
// goimports and gci put them (importSections): a standard package in the
// section of standard packages, another in the section of third-party
// packages, never in the module's own (its path, and the prefixes that
// its golangci-lint configuration makes local). A section that does not
// exist yet is made: the standard one first, the third-party one before
// the first section of the module's own, or last.
func (im *importer) edits() []analysis.TextEdit {
	if len(im.add) == 0 {
		return nil
	}
	kind := im.importKinds()
	var gd *ast.GenDecl
	for _, d := range im.file.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			gd = g
			break
		}
	}
	if gd == nil || !gd.Lparen.IsValid() {
		// A new import declaration, or one spec made a list: one section
		// of each kind, in order.
		var specs []string
		var kinds []int
		if gd != nil {
			p, _ := strconv.Unquote(gd.Specs[0].(*ast.ImportSpec).Path.Value)
			specs, kinds = append(specs, im.s.src(gd.Specs[0])), append(kinds, kind(p))
		}
		for _, a := range im.add {
			specs, kinds = append(specs, a.spec()), append(kinds, kind(a.path))
		}
		var b strings.Builder
		b.WriteString("import (")
		for k := kindStd; k <= kindLocal; k++ {
			first := true
			for i, spec := range specs {
				if kinds[i] != k {
					continue
				}
				if first && b.Len() > len("import (") {
					b.WriteString("\n")
				}
				first = false
				b.WriteString("\n\t" + spec)
			}
		}
		b.WriteString("\n)")
		if gd == nil {
			return []analysis.TextEdit{{Pos: im.file.Name.End(), End: im.file.Name.End(), NewText: []byte("\n\n" + b.String())}}
		}
		return []analysis.TextEdit{{Pos: gd.Pos(), End: gd.End(), NewText: []byte(b.String())}}
	}
	sections := importSections(im.s.pass.Fset, gd)
	// The kinds of each section: a bit per kind.
	has := make([]int, len(sections))
	holdsErrgroup := -1
	for i, sec := range sections {
		for _, spec := range sec {
			p, _ := strconv.Unquote(spec.Path.Value)
			has[i] |= 1 << kind(p)
			if p == errgroupPath {
				holdsErrgroup = i
			}
		}
	}
	// target returns the section for a new import of kind k, or -1.
	target := func(k int) int {
		if holdsErrgroup >= 0 && has[holdsErrgroup] == 1<<k {
			return holdsErrgroup
		}
		for i := len(sections) - 1; i >= 0; i-- {
			if has[i] == 1<<k {
				return i
			}
		}
		if k == kindThird {
			if holdsErrgroup >= 0 && has[holdsErrgroup]&(1<<kindThird) != 0 {
				return holdsErrgroup
			}
			for i := len(sections) - 1; i >= 0; i-- {
				if has[i]&(1<<kindThird) != 0 {
					return i
				}
			}
		}
		return -1
	}
	type place struct {
		pos        token.Pos
		before     bool // a new section before the one at pos
		newSection bool
	}
	at := map[place][]string{}
	var order []place
	for _, a := range im.add {
		k := kind(a.path)
		var pl place
		switch i := target(k); {
		case i >= 0:
			sec := sections[i]
			pl = place{pos: sec[len(sec)-1].End()}
		case k == kindStd:
			pl = place{pos: gd.Lparen + 1, newSection: true}
		default:
			pl = place{pos: sections[len(sections)-1][len(sections[len(sections)-1])-1].End(), newSection: true}
			for _, sec := range sections {
				p, _ := strconv.Unquote(sec[0].Path.Value)
				if kind(p) == kindLocal {
					pl = place{pos: sec[0].Pos(), before: true, newSection: true}
					break
				}
			}
		}
		if _, seen := at[pl]; !seen {
			order = append(order, pl)
		}
		at[pl] = append(at[pl], a.spec())
	}
	var edits []analysis.TextEdit
	for _, pl := range order {
		specs := at[pl]
		var text string
		switch {
		case pl.before:
			text = strings.Join(specs, "\n\t") + "\n\n\t"
		case pl.pos == gd.Lparen+1:
			text = "\n\t" + strings.Join(specs, "\n\t") + "\n"
		case pl.newSection:
			text = "\n\n\t" + strings.Join(specs, "\n\t")
		default:
			text = "\n\t" + strings.Join(specs, "\n\t")
		}
		edits = append(edits, analysis.TextEdit{Pos: pl.pos, End: pl.pos, NewText: []byte(text)})
	}
	return edits
}

// typeString returns t as the file can write it at the importer's
// position, or "" when a package it mentions has no name there.
func (im *importer) typeString(t types.Type) string {
	ok := true
	str := types.TypeString(t, func(p *types.Package) string {
		if p == im.s.pass.Pkg {
			return ""
		}
		for _, imp := range im.file.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); path == p.Path() {
				if n, found := im.name(p.Path(), p.Name()); found {
					return n
				}
			}
		}
		ok = false
		return p.Name()
	})
	if !ok {
		return ""
	}
	return str
}

// funcReturns returns the return statements of lit itself, not those of
// function literals inside it.
func funcReturns(lit *ast.FuncLit) []*ast.ReturnStmt {
	var rs []*ast.ReturnStmt
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			rs = append(rs, n)
		}
		return true
	})
	return rs
}

// namedErrResult returns the name of lit's error result if it is named:
// func() (err error).
func namedErrResult(lit *ast.FuncLit) string {
	res := lit.Type.Results
	if res != nil && len(res.List) == 1 && len(res.List[0].Names) == 1 {
		return res.List[0].Names[0].Name
	}
	return ""
}

// isErrorFunc reports whether lit is func() error (its result named or
// not).
func isErrorFunc(info *types.Info, lit *ast.FuncLit) bool {
	sig, ok := info.TypeOf(lit).(*types.Signature)
	return ok && sig.Params().Len() == 0 && sig.Results().Len() == 1 && isError(sig.Results().At(0).Type())
}
