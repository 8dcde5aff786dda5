package taskvet

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

// SelfWait reports a task whose function waits for the task itself.
var SelfWait = &analysis.Analyzer{
	Name:     "selfwait",
	Doc:      docOf("selfwait"),
	URL:      "https://pkg.go.dev/github.com/tasktuple/task/taskvet#hdr-Analyzer_selfwait",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run:      runSelfWait,
}

func runSelfWait(pass *analysis.Pass) (any, error) {
	if !imports(pass.Pkg, taskPath) {
		return nil, nil
	}
	in := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	info := pass.TypesInfo
	for cur := range in.Root().Preorder((*ast.AssignStmt)(nil)) {
		as := cur.Node().(*ast.AssignStmt)
		if len(as.Rhs) != 1 {
			continue
		}
		call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
		if !ok || len(call.Args) != 2 {
			continue
		}
		name := funcOf(info, call, taskPath)
		if name != "Go" && name != "Spawn" && name != "TrySpawn" {
			continue
		}
		v := varOf(info, as.Lhs[0])
		lit, ok := ast.Unparen(call.Args[1]).(*ast.FuncLit)
		if v == nil || !ok {
			continue
		}
		for _, w := range waitsFor(info, lit.Body, v) {
			pass.ReportRangef(w, "the function of task %s waits for %s itself, which completes only when the function returns: it never returns; wait for it outside its function", v.Name(), v.Name())
		}
	}
	return nil, nil
}

// waitsFor returns the calls and receives in body, outside nested function
// literals, that block until the task in v completes.
func waitsFor(info *types.Info, body ast.Node, v *types.Var) []ast.Node {
	var waits []ast.Node
	isV := func(e ast.Expr) bool { return varOf(info, e) == v }
	// inArgs reports whether e is v or a composite literal that holds v.
	var inArg func(e ast.Expr) bool
	inArg = func(e ast.Expr) bool {
		if isV(e) {
			return true
		}
		if cl, ok := ast.Unparen(e).(*ast.CompositeLit); ok {
			for _, el := range cl.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					el = kv.Value
				}
				if inArg(el) {
					return true
				}
			}
		}
		return false
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // runs when something calls it, maybe elsewhere
		case *ast.UnaryExpr:
			// <-t.Done()
			if call, ok := ast.Unparen(n.X).(*ast.CallExpr); ok && n.Op == token.ARROW &&
				methodOf(info, call, taskPath) == "Task.Done" && isV(call.Fun.(*ast.SelectorExpr).X) {
				waits = append(waits, n)
			}
		case *ast.CallExpr:
			if methodOf(info, n, taskPath) == "Task.Wait" && isV(n.Fun.(*ast.SelectorExpr).X) {
				waits = append(waits, n)
				break
			}
			switch name, _, ok := awaited(info, n); {
			case !ok, name == "Wait", name == "TryWait", name == "task.Map", name == "task.Scope",
				name == "task.RunFirstOK", name == "task.Hedge":
			default:
				for _, a := range n.Args {
					if inArg(a) {
						waits = append(waits, n)
						break
					}
				}
			}
		}
		return true
	})
	return waits
}
