package taskvet

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
)

// GroupEscape reports a Scope's group that escapes the body.
var GroupEscape = &analysis.Analyzer{
	Name:     "groupescape",
	Doc:      docOf("groupescape"),
	URL:      "https://pkg.go.dev/github.com/tasktuple/task/taskvet#hdr-Analyzer_groupescape",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run:      runGroupEscape,
}

func runGroupEscape(pass *analysis.Pass) (any, error) {
	if !imports(pass.Pkg, taskPath) {
		return nil, nil
	}
	in := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	info := pass.TypesInfo
	for cur := range in.Root().Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		if funcOf(info, call, taskPath) != "Scope" || len(call.Args) < 2 {
			continue
		}
		body, ok := ast.Unparen(call.Args[1]).(*ast.FuncLit)
		if !ok {
			continue
		}
		params := body.Type.Params.List
		if len(params) != 2 || len(params[1].Names) != 1 {
			continue
		}
		g, _ := info.Defs[params[1].Names[0]].(*types.Var)
		if g == nil {
			continue
		}
		bodyCur, _ := cur.FindNode(body)
		for _, kept := range checkEscapes(pass, bodyCur, body, g) {
			spawnAfter(pass, cur, call, kept)
		}
	}
	return nil, nil
}

// checkEscapes reports where the group g, the parameter of the Scope body
// lit, escapes it, and returns the variables outside the body that it is
// stored in.
func checkEscapes(pass *analysis.Pass, bodyCur inspector.Cursor, lit *ast.FuncLit, g *types.Var) []*types.Var {
	info := pass.TypesInfo
	// carries reports whether e evaluates to g, or to something that holds
	// or refers to it (a composite literal, a closure).
	var carries func(e ast.Expr) bool
	carries = func(e ast.Expr) bool {
		switch e := ast.Unparen(e).(type) {
		case *ast.Ident:
			return info.Uses[e] == g
		case *ast.FuncLit:
			return refers(info, e, g)
		case *ast.UnaryExpr:
			return carries(e.X)
		case *ast.CompositeLit:
			for _, el := range e.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					el = kv.Value
				}
				if carries(el) {
					return true
				}
			}
		}
		return false
	}
	inBody := func(v *types.Var) bool { return v.Pos() >= lit.Pos() && v.Pos() < lit.End() }
	var kept []*types.Var
	for cur := range bodyCur.Preorder((*ast.AssignStmt)(nil), (*ast.ReturnStmt)(nil), (*ast.SendStmt)(nil), (*ast.GoStmt)(nil)) {
		switch n := cur.Node().(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) != len(n.Rhs) {
				continue
			}
			for i, r := range n.Rhs {
				if !carries(r) {
					continue
				}
				v := varOf(info, n.Lhs[i])
				switch {
				case isBlank(n.Lhs[i]), v != nil && inBody(v):
					continue
				case v != nil:
					kept = append(kept, v)
					if v.Parent() == v.Pkg().Scope() {
						pass.ReportRangef(n, "the group of Scope is stored in the package variable %s, and a Spawn after the Scope returns panics: use it only inside the body", v.Name())
					} else {
						pass.ReportRangef(n, "the group of Scope is stored in %s, declared outside the body, and a Spawn after the Scope returns panics: use it only inside the body", v.Name())
					}
				default:
					pass.ReportRangef(n, "the group of Scope is stored in a field or element, and a Spawn after the Scope returns panics: use it only inside the body")
				}
			}
		case *ast.ReturnStmt:
			// Only the body's own return statements.
			if fn, _ := enclosingFunc(cur); fn != lit {
				continue
			}
			for _, r := range n.Results {
				if carries(r) {
					pass.ReportRangef(r, "the group of Scope is returned from the body, and a Spawn after the Scope returns panics: return results, not the group")
				}
			}
		case *ast.SendStmt:
			if carries(n.Value) {
				pass.ReportRangef(n, "the group of Scope is sent on a channel, and a Spawn after the Scope returns panics: use it only inside the body")
			}
		case *ast.GoStmt:
			if refers(info, n.Call, g) {
				pass.ReportRangef(n, "a goroutine uses the group of Scope and may spawn after the Scope returns, which panics: start the work with task.Spawn instead of a go statement")
			}
		}
	}
	return kept
}

// enclosingFunc returns the innermost function around cur.
func enclosingFunc(cur inspector.Cursor) (ast.Node, bool) {
	for c := range cur.Enclosing((*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
		return c.Node(), true
	}
	return nil, false
}

// spawnAfter reports Spawn, TrySpawn and SetLimit on kept, a variable that
// the body of the Scope call stores its group in, after the call, in the
// function that makes the call.
func spawnAfter(pass *analysis.Pass, scopeCur inspector.Cursor, scope *ast.CallExpr, kept *types.Var) {
	info := pass.TypesInfo
	fn, ok := enclosingFunc(scopeCur)
	if !ok {
		return
	}
	fnCur, _ := scopeCur.Inspector().Root().FindNode(fn)
	for cur := range fnCur.Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		if call.Pos() < scope.End() {
			continue
		}
		var g ast.Expr
		switch {
		case (funcOf(info, call, taskPath) == "Spawn" || funcOf(info, call, taskPath) == "TrySpawn") && len(call.Args) == 2:
			g = call.Args[0]
		case methodOf(info, call, taskPath) == "Group.SetLimit" && cur.ChildAt(edge.CallExpr_Fun, -1).Valid():
			g = call.Fun.(*ast.SelectorExpr).X
		default:
			continue
		}
		if varOf(info, g) == kept {
			pass.ReportRangef(call, "%s is the group of a Scope that has returned, so this call panics: spawn inside the Scope body", kept.Name())
		}
	}
}
