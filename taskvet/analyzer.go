package taskvet

import (
	_ "embed"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// Analyzers are taskvet's checks, in the order cmd/taskvet lists them.
var Analyzers = []*analysis.Analyzer{
	LostTask,
	AwaitErr,
	SelfWait,
	GroupEscape,
	BadLimit,
	BadOption,
	ErrgroupFix,
}

const (
	taskPath     = "github.com/tasktuple/task"
	errgroupPath = "golang.org/x/sync/errgroup"
)

// imports reports whether pkg imports path directly, so that a check can
// skip packages that cannot call what it looks for. The task package itself
// is skipped: its implementation and its own tests, in the package and in
// task_test, misuse it on purpose.
func imports(pkg *types.Package, path string) bool {
	if pkg.Path() == taskPath || pkg.Path() == taskPath+"_test" {
		return false
	}
	for _, imp := range pkg.Imports() {
		if imp.Path() == path {
			return true
		}
	}
	return false
}

// callee returns the generic origin of the function or method that call
// calls statically, or nil.
func callee(info *types.Info, call *ast.CallExpr) *types.Func {
	fn := typeutil.StaticCallee(info, call)
	if fn == nil || fn.Pkg() == nil {
		return nil
	}
	return fn.Origin()
}

// funcOf returns the name of the package-level function of the package at
// path that call calls, or "".
func funcOf(info *types.Info, call *ast.CallExpr, path string) string {
	fn := callee(info, call)
	if fn == nil || fn.Pkg().Path() != path || fn.Signature().Recv() != nil {
		return ""
	}
	return fn.Name()
}

// methodOf returns "Type.Method" for a call of a method of a type of the
// package at path, as in "Task.Wait" or "Group.Go", or "".
func methodOf(info *types.Info, call *ast.CallExpr, path string) string {
	fn := callee(info, call)
	if fn == nil || fn.Pkg().Path() != path {
		return ""
	}
	recv := fn.Signature().Recv()
	if recv == nil {
		return ""
	}
	t := types.Unalias(recv.Type())
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	named, ok := t.(*types.Named)
	if !ok {
		return ""
	}
	return named.Obj().Name() + "." + fn.Name()
}

// isNamed reports whether t, or what it points to, is the named type
// path.name.
func isNamed(t types.Type, path, name string) bool {
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	named, ok := t.(*types.Named)
	return ok && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == path && named.Obj().Name() == name
}

// taskValue returns T for a *task.Task[T], or nil.
func taskValue(t types.Type) types.Type {
	if !isNamed(t, taskPath, "Task") {
		return nil
	}
	p, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return nil
	}
	named := types.Unalias(p.Elem()).(*types.Named)
	if named.TypeArgs().Len() != 1 {
		return nil
	}
	return named.TypeArgs().At(0)
}

// isEmptyStruct reports whether t is struct{}.
func isEmptyStruct(t types.Type) bool {
	s, ok := t.Underlying().(*types.Struct)
	return ok && s.NumFields() == 0
}

// isBlank reports whether e is the blank identifier.
func isBlank(e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && id.Name == "_"
}

// varOf returns the variable that the identifier e denotes, or nil.
func varOf(info *types.Info, e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := info.ObjectOf(id).(*types.Var)
	return v
}

// refers reports whether n mentions v, in nested function literals too.
func refers(info *types.Info, n ast.Node, v types.Object) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && info.Uses[id] == v {
			found = true
		}
		return !found
	})
	return found
}

//go:embed doc.go
var docSource string

// packageDoc is the text of the package documentation in doc.go.
var packageDoc = func() string {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", docSource, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		panic(err)
	}
	return f.Doc.Text()
}()

// docOf returns the doc of the analyzer name: the section "# Analyzer
// name" of the package documentation, without its heading.
func docOf(name string) string {
	s := packageDoc
	head := "# Analyzer " + name + "\n"
	i := strings.Index(s, head)
	if i < 0 {
		panic("taskvet: no doc for " + name)
	}
	s = s[i+len(head):]
	if j := strings.Index(s, "\n# "); j >= 0 {
		s = s[:j]
	}
	return strings.TrimSpace(s)
}
