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
	// doneOfV reports whether e is <-v.Done().
	doneOfV := func(e ast.Expr) bool {
		u, ok := ast.Unparen(e).(*ast.UnaryExpr)
		if !ok || u.Op != token.ARROW {
			return false
		}
		call, ok := ast.Unparen(u.X).(*ast.CallExpr)
		return ok && methodOf(info, call, taskPath) == "Task.Done" && isV(call.Fun.(*ast.SelectorExpr).X)
	}
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // runs when something calls it, maybe elsewhere
		case *ast.SelectStmt:
			// select { case <-t.Done(): ... default: } probes without
			// blocking, and its case runs only once t is complete.
			probe := false
			for _, c := range n.Body.List {
				probe = probe || c.(*ast.CommClause).Comm == nil
			}
			if !probe {
				break
			}
			for _, c := range n.Body.List {
				cc := c.(*ast.CommClause)
				var recv ast.Expr
				switch comm := cc.Comm.(type) {
				case *ast.ExprStmt:
					recv = comm.X
				case *ast.AssignStmt:
					recv = comm.Rhs[0]
				}
				if recv == nil || !doneOfV(recv) {
					ast.Inspect(cc, visit)
				}
			}
			return false
		case *ast.UnaryExpr:
			if doneOfV(n) {
				waits = append(waits, n)
			}
		case *ast.CallExpr:
			if methodOf(info, n, taskPath) == "Task.Wait" && isV(n.Fun.(*ast.SelectorExpr).X) {
				waits = append(waits, n)
				break
			}
			switch name, _, ok := awaited(info, n); {
			case !ok, name == "Wait", name == "task.Map", name == "task.Scope", name == "task.Hedge":
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
	}
	ast.Inspect(body, visit)
	return waits
}
