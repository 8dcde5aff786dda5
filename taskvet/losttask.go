package taskvet

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/ctrlflow"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/cfg"
)

// LostTask reports a task that nothing waits for.
var LostTask = &analysis.Analyzer{
	Name:     "losttask",
	Doc:      docOf("losttask"),
	URL:      "https://pkg.go.dev/github.com/tasktuple/task/taskvet#hdr-Analyzer_losttask",
	Requires: []*analysis.Analyzer{inspect.Analyzer, ctrlflow.Analyzer},
	Run:      runLostTask,
}

func runLostTask(pass *analysis.Pass) (any, error) {
	if !imports(pass.Pkg, taskPath) {
		return nil, nil
	}
	in := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	info := pass.TypesInfo
	for cur := range in.Root().Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		name := funcOf(info, call, taskPath)
		what := "task." + name
		spawn := name == "Spawn" || name == "TrySpawn"
		if name != "Go" && name != "Promise" && !spawn {
			continue
		}
		if spawn {
			// Scope waits for its children and reports their errors:
			// a dropped child loses only its value.
			t := info.TypeOf(call)
			if tup, ok := t.(*types.Tuple); ok {
				t = tup.At(0).Type()
			}
			if v := taskValue(t); v == nil || isEmptyStruct(v) {
				continue
			}
		}
		lost := func(n ast.Node) {
			switch {
			case spawn:
				pass.ReportRangef(n, "the value of the task from %s is never read: wait for the task, or spawn a function that returns struct{}", what)
			case name == "Promise":
				pass.ReportRangef(n, "the task of task.Promise is never waited for, so the value and error complete gives it are lost: wait for it (Wait, AwaitN, All), return it or store it")
			default:
				pass.ReportRangef(n, "%s is never waited for, so its error is lost and a panic in it crashes the program: wait for it (Wait, AwaitN, All), return it or store it", what)
			}
		}
		parent := cur.Parent()
		switch cur.ParentEdgeKind() {
		case edge.ExprStmt_X, edge.GoStmt_Call, edge.DeferStmt_Call:
			lost(call)
		case edge.AssignStmt_Rhs:
			as := parent.Node().(*ast.AssignStmt)
			if len(as.Rhs) == 1 && len(as.Lhs) > 1 || len(as.Lhs) == len(as.Rhs) {
				i := 0
				if len(as.Lhs) == len(as.Rhs) {
					i = cur.ParentEdgeIndex()
				}
				lostVar(pass, cur, as, as.Lhs[i], lost)
			}
		case edge.ValueSpec_Values:
			vs := parent.Node().(*ast.ValueSpec)
			i := 0
			if len(vs.Names) == len(vs.Values) {
				i = cur.ParentEdgeIndex()
			}
			lostVar(pass, cur, vs, vs.Names[i], lost)
		}
	}
	return nil, nil
}

// lostVar reports a task assigned to lhs in stmt if lhs is the blank
// identifier, or a local variable that no path from stmt reads before it
// is assigned again. Any mention of the variable counts as a read: a wait,
// a return, a store, passing it on, a reference in a closure.
func lostVar(pass *analysis.Pass, cur inspector.Cursor, stmt ast.Node, lhs ast.Expr, lost func(ast.Node)) {
	if isBlank(lhs) {
		lost(lhs)
		return
	}
	v := varOf(pass.TypesInfo, lhs)
	if v == nil {
		return // a field, an element, a dereference: stored
	}
	// The enclosing function, and its CFG.
	var g *cfg.CFG
	var fn ast.Node
	cfgs := pass.ResultOf[ctrlflow.Analyzer].(*ctrlflow.CFGs)
	for c := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		fn = c.Node()
		switch fn := fn.(type) {
		case *ast.FuncDecl:
			g = cfgs.FuncDecl(fn)
		case *ast.FuncLit:
			g = cfgs.FuncLit(fn)
		}
		break
	}
	if g == nil {
		return // package level: stored
	}
	// A variable declared outside the function, a named result, or one
	// that a closure or an address may reach, is assumed to be used.
	if v.Pos() < fn.Pos() || v.Pos() >= fn.End() {
		return
	}
	escapes := false
	ast.Inspect(fn, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			if refers(pass.TypesInfo, n, v) {
				escapes = true
			}
		case *ast.UnaryExpr:
			if varOf(pass.TypesInfo, n.X) == v {
				escapes = true
			}
		case *ast.FuncType:
			for _, f := range fieldsOf(n.Results) {
				for _, name := range f.Names {
					if pass.TypesInfo.Defs[name] == v {
						escapes = true
					}
				}
			}
		}
		return !escapes
	})
	if escapes || !noPathReads(pass.TypesInfo, g, stmt, v) {
		return
	}
	lost(stmt)
}

func fieldsOf(l *ast.FieldList) []*ast.Field {
	if l == nil {
		return nil
	}
	return l.List
}

// noPathReads reports whether no path through g from stmt, which assigns
// v, mentions v before assigning it again.
func noPathReads(info *types.Info, g *cfg.CFG, stmt ast.Node, v *types.Var) bool {
	// reads reports whether n mentions v other than as a target of an
	// assignment; kills, whether n assigns v.
	reads := func(n ast.Node) (read, kill bool) {
		if as, ok := n.(*ast.AssignStmt); ok {
			for _, r := range as.Rhs {
				if refers(info, r, v) {
					return true, false
				}
			}
			for _, l := range as.Lhs {
				if varOf(info, l) == v {
					kill = true
				} else if refers(info, l, v) {
					return true, false
				}
			}
			return false, kill
		}
		return refers(info, n, v), false
	}
	var start *cfg.Block
	var rest []ast.Node
	for _, b := range g.Blocks {
		for i, n := range b.Nodes {
			if n == stmt {
				start, rest = b, b.Nodes[i+1:]
			}
		}
	}
	if start == nil {
		return false // not found: say nothing
	}
	seen := make(map[*cfg.Block]bool)
	var search func(nodes []ast.Node, succs []*cfg.Block) bool
	search = func(nodes []ast.Node, succs []*cfg.Block) bool {
		for _, n := range nodes {
			read, kill := reads(n)
			if read {
				return true
			}
			if kill {
				return false
			}
		}
		for _, b := range succs {
			if !seen[b] {
				seen[b] = true
				if search(b.Nodes, b.Succs) {
					return true
				}
			}
		}
		return false
	}
	return !search(rest, start.Succs)
}
