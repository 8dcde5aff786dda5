package task_test

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/build"
	"go/doc"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "TestAPI: write docs/api.txt")

// apiFile lists the exported API of every module of the repository.
const apiFile = "docs/api.txt"

// modules are the modules of the repository, by folder. Every package of
// them is checked for doc comments and examples; docs/api.txt lists only
// those that frozen reports.
var modules = []string{".", "bench", "otel", "taskvet", "temporal", "tracetest"}

// frozen reports whether v0.1.0 freezes the API of the package pkgPath:
// the core and the modules to be tagged, not the benchmark harness, the
// test-only modules or an example's code.
func frozen(pkgPath string) bool {
	for _, p := range []string{"/bench", "/tracetest", "/browsertest"} {
		rest, ok := strings.CutPrefix(pkgPath, "github.com/tasktuple/task"+p)
		if ok && (rest == "" || strings.HasPrefix(rest, "/")) {
			return false
		}
	}
	return !slices.Contains(strings.Split(pkgPath, "/"), "example")
}

// missingDoc lists the exported names that have no doc comment yet, by
// package path and name, each to be given one by its owner (the entry
// then fails as stale, and goes).
var missingDoc = map[string]bool{
	"github.com/tasktuple/task/temporal/example/shop.Order":                   true,
	"github.com/tasktuple/task/temporal/example/shop.(Activities).LoadUser":   true,
	"github.com/tasktuple/task/temporal/example/shop.(Activities).LoadOrders": true,
}

// noExample lists the exported functions and methods that have no
// Example of their own, by package path and name, with the reason. Every
// other function and method a user calls has one (ExampleName or
// ExampleType_Method), shown next to it on pkg.go.dev.
var noExample = map[string]string{
	"github.com/tasktuple/task.(CallError).Error":                "the error interface: every example prints one",
	"github.com/tasktuple/task.(CallError).Unwrap":               "for errors.Is and errors.As: ExampleCallError",
	"github.com/tasktuple/task.(PositionError).Error":            "the error interface: every example prints one",
	"github.com/tasktuple/task.(PositionError).Unwrap":           "for errors.Is and errors.As: Example",
	"github.com/tasktuple/task.(PanicError).Error":               "the error interface: ExamplePanicError",
	"github.com/tasktuple/task.(PanicError).Unwrap":              "for errors.Is and errors.As: ExamplePanicError",
	"github.com/tasktuple/task/taskdump.Enable":                  "the package's Example enables it and writes a dump",
	"github.com/tasktuple/task/taskdump.Write":                   "the package's Example enables it and writes a dump",
	"github.com/tasktuple/task/otel.Install":                     "the package's Example installs with WithTracerProvider",
	"github.com/tasktuple/task/otel.WithTracerProvider":          "the package's Example installs with WithTracerProvider",
	"github.com/tasktuple/task/taskvet/golangci.New":             "called by golangci-lint, not by users: see .custom-gcl.yml",
	"github.com/tasktuple/task/temporal.ActivityByName":          "NewActivity's form for an activity known by name: ExampleNewActivity",
	"github.com/tasktuple/task/temporal.NewChildWorkflow":        "ChildWorkflowByName's form for a function: ExampleChildWorkflow",
	"github.com/tasktuple/task/temporal.ChildWorkflowByName":     "called in ExampleChildWorkflow",
	"github.com/tasktuple/task/temporal.(Activity).ExecuteLocal": "Execute's form for a local activity: ExampleGo and ExampleAwait2 call Execute",
	"github.com/tasktuple/task/temporal.(ChildFuture).Execution": "the SDK's ChildWorkflowFuture.GetChildWorkflowExecution, typed",
	"github.com/tasktuple/task/temporal.(ChildFuture).Untyped":   "the SDK's future, for code that predates wtask",
	"github.com/tasktuple/task/temporal.(Future).IsReady":        "the SDK's Future.IsReady",
	"github.com/tasktuple/task/temporal.(Future).Untyped":        "the SDK's future, for code that predates wtask",
	"github.com/tasktuple/task/temporal.(Settable).Set":          "SetValue and SetError in one: ExampleNewFuture calls SetValue",
	"github.com/tasktuple/task/temporal.(Settable).SetError":     "SetValue's counterpart: ExampleNewFuture calls SetValue",
}

// noExamplePackages lists the packages, by path prefix, whose functions
// need no Example, with the reason.
var noExamplePackages = map[string]string{
	"github.com/tasktuple/task/bench":                 "the benchmark harness and its test service, not for users",
	"github.com/tasktuple/task/temporal/example/shop": "the Temporal example program's own code",
}

// arityFamily returns, for a per-arity function (Await7, Run12), the name
// of an example of another arity of the same family, if there is one:
// the shape is the same at every arity.
func arityFamily(name string, examples map[string]bool) string {
	base := strings.TrimRight(name, "0123456789")
	if base == name || strings.Contains(name, "_") {
		return ""
	}
	for n := 1; n <= 16; n++ {
		if ex := fmt.Sprint(base, n); examples[ex] {
			return ex
		}
	}
	return ""
}

// TestAPI checks that docs/api.txt lists the exported API that v0.1.0
// freezes (see frozen) as the source declares it, that every exported name has a doc comment
// and every package a package doc, and that every exported function and
// method has an Example (see noExample). With -update it writes
// docs/api.txt.
func TestAPI(t *testing.T) {
	for _, m := range modules {
		if _, err := os.Stat(filepath.Join(m, "go.mod")); err != nil {
			t.Skipf("%s/go.mod: %v: not the whole repository", m, err)
		}
	}
	var b bytes.Buffer
	b.WriteString("# The exported API that v0.1.0 freezes: the core and the modules tagged with it, one declaration a line,\n" +
		"# as the source declares it. A test keeps it current (TestAPI in api_test.go);\n" +
		"# after a change to the API that is meant, run: go test -run TestAPI -update .\n")
	docSeen, exSeen := map[string]bool{}, map[string]bool{}
	for _, m := range modules {
		modPath, err := modulePath(filepath.Join(m, "go.mod"))
		if err != nil {
			t.Fatal(err)
		}
		if frozen(modPath) {
			fmt.Fprintf(&b, "\nmodule %s\n", modPath)
		}
		dirs, err := packageDirs(m)
		if err != nil {
			t.Fatal(err)
		}
		for _, dir := range dirs {
			rel, _ := filepath.Rel(m, dir)
			pkgPath := path.Join(modPath, filepath.ToSlash(rel))
			lines, err := packageAPI(t, dir, pkgPath, docSeen, exSeen)
			if err != nil {
				t.Fatal(err)
			}
			if lines == nil || !frozen(pkgPath) {
				continue // a command, or not frozen
			}
			fmt.Fprintf(&b, "\npackage %s\n", pkgPath)
			for _, l := range lines {
				b.WriteString(l + "\n")
			}
		}
	}
	for k := range missingDoc {
		if !docSeen[k] {
			t.Errorf("%s has a doc comment now (or is gone): remove it from missingDoc", k)
		}
	}
	for k := range noExample {
		if !exSeen[k] {
			t.Errorf("%s has an Example now (or is gone): remove it from noExample", k)
		}
	}
	if *update {
		if err := os.WriteFile(apiFile, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	have, err := os.ReadFile(apiFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, b.Bytes()) {
		t.Errorf("%s is not the API of the source: run go test -run TestAPI -update . and check the diff; the differences:\n%s",
			apiFile, lineDiff(string(have), b.String()))
	}
}

// modulePath returns the module path of a go.mod file.
func modulePath(gomod string) (string, error) {
	b, err := os.ReadFile(gomod)
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if p, ok := strings.CutPrefix(line, "module "); ok {
			return strings.TrimSpace(p), nil
		}
	}
	return "", fmt.Errorf("%s: no module line", gomod)
}

// packageDirs returns the folders of the packages of the module in root,
// sorted: not in another module, not internal, not testdata.
func packageDirs(root string) ([]string, error) {
	var dirs []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		name := d.Name()
		if p != root {
			if name == "testdata" || name == "internal" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
				return filepath.SkipDir // another module
			}
		}
		dirs = append(dirs, p)
		return nil
	})
	slices.Sort(dirs)
	return dirs, err
}

// buildContext selects the files of a package as a build for linux/amd64
// does, so that the list does not depend on the machine.
var buildContext = func() build.Context {
	c := build.Default
	c.GOOS, c.GOARCH, c.CgoEnabled = "linux", "amd64", true
	c.BuildTags = nil
	return c
}()

// packageAPI returns the lines of the API of the package in dir, or nil for
// a command or a folder without Go files, and reports missing doc comments
// and examples. A method may be shown by an example that calls it rather
// than one of its own.
func packageAPI(t *testing.T, dir, pkgPath string, docSeen, exSeen map[string]bool) ([]string, error) {
	bp, err := buildContext.ImportDir(dir, 0)
	if _, ok := err.(*build.NoGoError); ok {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if bp.Name == "main" {
		return nil, nil
	}
	fset := token.NewFileSet()
	parse := func(names []string) ([]*ast.File, error) {
		var files []*ast.File
		for _, n := range names {
			f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil {
				return nil, err
			}
			files = append(files, f)
		}
		return files, nil
	}
	files, err := parse(bp.GoFiles)
	if err != nil {
		return nil, err
	}
	tests, err := parse(append(bp.TestGoFiles, bp.XTestGoFiles...))
	if err != nil {
		return nil, err
	}
	examples := map[string]bool{}
	used := map[string]bool{} // the names the examples call: f, pkg.F, x.M
	for _, ex := range doc.Examples(tests...) {
		ast.Inspect(ex.Code, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.SelectorExpr:
				used[x.Sel.Name] = true
			case *ast.Ident:
				used[x.Name] = true
			}
			return true
		})
		name, _, _ := strings.Cut(ex.Name, "_")
		if ex.Name != "" && strings.Contains(ex.Name, "_") {
			// ExampleType_Method or ExampleFunc_suffix (a lower-case suffix).
			if before, after, _ := strings.Cut(ex.Name, "_"); after != "" && !isLower(after) {
				name = before + "_" + strings.Split(after, "_")[0]
			}
		}
		examples[name] = true
	}

	hasPkgDoc := false
	var lines []string
	key := func(name string) string { return pkgPath + "." + name }
	needDoc := func(name string, doc ...*ast.CommentGroup) {
		for _, d := range doc {
			if d != nil && strings.TrimSpace(d.Text()) != "" {
				return
			}
		}
		if missingDoc[key(name)] {
			docSeen[key(name)] = true
			return
		}
		t.Errorf("%s: %s has no doc comment", pkgPath, name)
	}
	needExample := func(name, exName string) {
		if examples[exName] {
			return
		}
		if _, ok := noExample[key(name)]; ok {
			exSeen[key(name)] = true
			return
		}
		if ex := arityFamily(exName, examples); ex != "" {
			return
		}
		if i := strings.Index(name, ")."); i >= 0 && used[name[i+2:]] {
			return // a method an example calls
		}
		for prefix := range noExamplePackages {
			if strings.HasPrefix(pkgPath, prefix) {
				return
			}
		}
		t.Errorf("%s: %s has no Example (want Example%s, or a reason in noExample)", pkgPath, name, exName)
	}
	for _, f := range files {
		if f.Doc != nil {
			hasPkgDoc = true
			if !strings.HasPrefix(f.Doc.Text(), "Package "+f.Name.Name+" ") {
				t.Errorf("%s: the package doc in %s does not begin with \"Package %s \"", pkgPath, fset.Position(f.Package).Filename, f.Name.Name)
			}
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				if d.Recv == nil {
					lines = append(lines, "func "+d.Name.Name+typeParams(d.Type.TypeParams)+signature(d.Type))
					needDoc(d.Name.Name, d.Doc)
					needExample(d.Name.Name, d.Name.Name)
					continue
				}
				recv := d.Recv.List[0].Type
				base := recv
				if st, ok := base.(*ast.StarExpr); ok {
					base = st.X
				}
				switch x := base.(type) {
				case *ast.IndexExpr:
					base = x.X
				case *ast.IndexListExpr:
					base = x.X
				}
				typ := base.(*ast.Ident).Name
				if !ast.IsExported(typ) {
					continue
				}
				lines = append(lines, "func ("+types.ExprString(recv)+") "+d.Name.Name+signature(d.Type))
				needDoc("("+typ+")."+d.Name.Name, d.Doc)
				needExample("("+typ+")."+d.Name.Name, typ+"_"+d.Name.Name)
			case *ast.GenDecl:
				lines = append(lines, genDecl(d, needDoc)...)
			}
		}
	}
	if !hasPkgDoc {
		t.Errorf("%s has no package doc", pkgPath)
	}
	// By name: All before AllSeq.
	sortKey := strings.NewReplacer("[", "\x00", "(", "\x00")
	slices.SortFunc(lines, func(a, b string) int { return strings.Compare(sortKey.Replace(a), sortKey.Replace(b)) })
	if lines == nil {
		lines = []string{}
	}
	return lines, nil
}

func isLower(s string) bool { return s != "" && strings.ToLower(s[:1]) == s[:1] }

// signature renders a function type without "func": its parameters, on one
// line, and its results.
func signature(ft *ast.FuncType) string {
	return strings.TrimPrefix(types.ExprString(&ast.FuncType{Params: ft.Params, Results: ft.Results}), "func")
}

// typeParams renders a list of type parameters: [T1, T2 any].
func typeParams(fl *ast.FieldList) string {
	if fl == nil || len(fl.List) == 0 {
		return ""
	}
	var parts []string
	for _, f := range fl.List {
		var names []string
		for _, n := range f.Names {
			names = append(names, n.Name)
		}
		parts = append(parts, strings.Join(names, ", ")+" "+types.ExprString(f.Type))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// genDecl renders the exported names of a const, var or type declaration.
func genDecl(d *ast.GenDecl, needDoc func(string, ...*ast.CommentGroup)) []string {
	var lines []string
	var typ, val ast.Expr // of the last const spec, which a spec without them repeats
	for i, spec := range d.Specs {
		switch s := spec.(type) {
		case *ast.TypeSpec:
			if !s.Name.IsExported() {
				continue
			}
			needDoc(s.Name.Name, s.Doc, d.Doc)
			head := "type " + s.Name.Name + typeParams(s.TypeParams)
			if s.Assign.IsValid() {
				lines = append(lines, head+" = "+types.ExprString(s.Type))
				continue
			}
			switch x := s.Type.(type) {
			case *ast.StructType:
				head += " struct"
				lines = append(lines, head)
				for _, f := range x.Fields.List {
					if len(f.Names) == 0 {
						if name := embeddedName(f.Type); ast.IsExported(name) {
							lines = append(lines, head+", embedded "+types.ExprString(f.Type))
						}
						continue
					}
					for _, n := range f.Names {
						if n.IsExported() {
							lines = append(lines, head+", "+n.Name+" "+types.ExprString(f.Type))
						}
					}
				}
			case *ast.InterfaceType:
				head += " interface"
				lines = append(lines, head)
				for _, m := range x.Methods.List {
					switch {
					case len(m.Names) == 0:
						lines = append(lines, head+", embedded "+types.ExprString(m.Type))
					case m.Names[0].IsExported():
						lines = append(lines, head+", "+m.Names[0].Name+signature(m.Type.(*ast.FuncType)))
					default:
						lines = append(lines, head+", unexported methods")
					}
				}
			default:
				lines = append(lines, head+" "+types.ExprString(s.Type))
			}
		case *ast.ValueSpec:
			if d.Tok == token.CONST {
				if s.Type != nil || len(s.Values) > 0 {
					typ, val = s.Type, nil
					if len(s.Values) > 0 {
						val = s.Values[0]
					}
				}
			}
			for _, n := range s.Names {
				if !n.IsExported() {
					continue
				}
				needDoc(n.Name, s.Doc, s.Comment, d.Doc)
				line := d.Tok.String() + " " + n.Name
				if d.Tok == token.CONST {
					if typ != nil {
						line += " " + types.ExprString(typ)
					}
					if val != nil {
						line += " = " + types.ExprString(val)
						if usesIota(val) {
							line += fmt.Sprintf(", iota = %d", i)
						}
					}
				} else {
					if s.Type != nil {
						line += " " + types.ExprString(s.Type)
					}
					if len(s.Values) > 0 {
						line += " = " + shape(s.Values[0])
					}
				}
				lines = append(lines, line)
			}
		}
	}
	return lines
}

// embeddedName returns the name of an embedded field's type.
func embeddedName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return embeddedName(x.X)
	case *ast.SelectorExpr:
		return x.Sel.Name
	case *ast.Ident:
		return x.Name
	case *ast.IndexExpr:
		return embeddedName(x.X)
	case *ast.IndexListExpr:
		return embeddedName(x.X)
	}
	return ""
}

func usesIota(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == "iota" {
			found = true
		}
		return !found
	})
	return found
}

// shape renders the value of a var by its kind, not its contents: a call's
// arguments and a composite literal's elements (an error's message, an
// analyzer's doc) are not API.
func shape(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.CallExpr:
		return types.ExprString(x.Fun) + "(…)"
	case *ast.UnaryExpr:
		return x.Op.String() + shape(x.X)
	default:
		return types.ExprString(e) // a composite literal is T{…}
	}
}

// lineDiff returns the lines only in a (-) and only in b (+).
func lineDiff(a, b string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	ina, inb := in(a), in(b)
	var out []string
	for _, l := range strings.Split(a, "\n") {
		if !inb[l] {
			out = append(out, "- "+l)
		}
	}
	for _, l := range strings.Split(b, "\n") {
		if !ina[l] {
			out = append(out, "+ "+l)
		}
	}
	return strings.Join(out, "\n")
}
