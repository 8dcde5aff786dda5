package taskvet

import (
	"go/ast"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

//go:generate go test -C .. -run TestTaskvetOptions -update-taskvet .

// BadOption reports a constant option that a call does not take.
var BadOption = &analysis.Analyzer{
	Name:     "badoption",
	Doc:      docOf("badoption"),
	URL:      "https://pkg.go.dev/github.com/tasktuple/task/taskvet#hdr-Analyzer_badoption",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run:      runBadOption,
}

func runBadOption(pass *analysis.Pass) (any, error) {
	// Unlike the other checks, this one reads task_test, the package's
	// examples: none of its tests gives a call a constant option it
	// does not take.
	if pass.Pkg.Path() != taskPath+"_test" && !imports(pass.Pkg, taskPath) {
		return nil, nil
	}
	in := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	info := pass.TypesInfo
	for cur := range in.Root().Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		name := funcOf(info, call, taskPath)
		panics, ok := optionPanics[name]
		if !ok {
			continue
		}
		var keepGoing, startAll ast.Expr
		for _, arg := range optionArgs(info, call) {
			opt := optionName(info, arg)
			if msg, bad := panics[opt]; bad {
				pass.ReportRangef(arg, "%s", msg)
				continue
			}
			switch opt {
			case "KeepGoing":
				keepGoing = arg
			case "StartAll":
				startAll = arg
			}
		}
		if msg, bad := startAllKeepGoingPanics[name]; bad && keepGoing != nil && startAll != nil {
			pass.ReportRangef(startAll, "%s", msg)
		}
	}
	return nil, nil
}

// optionArgs returns the expressions of the options of call, a call of a
// function whose last parameter is ...Option: its arguments from that
// position, or the elements of a slice literal passed with "...".
func optionArgs(info *types.Info, call *ast.CallExpr) []ast.Expr {
	fn := callee(info, call)
	n := fn.Signature().Params().Len()
	if !fn.Signature().Variadic() || len(call.Args) < n-1 {
		return nil
	}
	if !call.Ellipsis.IsValid() {
		return call.Args[n-1:]
	}
	lit, ok := ast.Unparen(call.Args[len(call.Args)-1]).(*ast.CompositeLit)
	if !ok {
		return nil
	}
	var out []ast.Expr
	for _, e := range lit.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			e = kv.Value
		}
		out = append(out, e)
	}
	return out
}

// optionName returns the name of the option e is, if it is a constant one:
// a variable of package task such as task.Settled, or a call of
// task.Grace; otherwise "".
func optionName(info *types.Info, e ast.Expr) string {
	var id *ast.Ident
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		id = e
	case *ast.SelectorExpr:
		id = e.Sel
	case *ast.CallExpr:
		if funcOf(info, e, taskPath) == "Grace" {
			return "Grace"
		}
		return ""
	default:
		return ""
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok || v.Pkg() == nil || v.Pkg().Path() != taskPath || v.Parent() != v.Pkg().Scope() || !slices.Contains(optionNames, v.Name()) {
		return ""
	}
	return v.Name()
}
