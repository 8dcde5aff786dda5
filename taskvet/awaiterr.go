package taskvet

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
)

// AwaitErr reports a discarded error of a wait or a run.
var AwaitErr = &analysis.Analyzer{
	Name:     "awaiterr",
	Doc:      docOf("awaiterr"),
	URL:      "https://pkg.go.dev/github.com/tasktuple/task/taskvet#hdr-Analyzer_awaiterr",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run:      runAwaitErr,
}

// awaited returns the name of the call, as in "task.Await2" or "Wait",
// and the index of its error result, if call waits or runs.
func awaited(info *types.Info, call *ast.CallExpr) (name string, errIndex int, ok bool) {
	switch m := methodOf(info, call, taskPath); m {
	case "Task.Wait":
		return "Wait", 1, true
	}
	name = funcOf(info, call, taskPath)
	switch {
	case name == "All", name == "Map", name == "Scope", name == "Hedge",
		strings.HasPrefix(name, "Await"), strings.HasPrefix(name, "Run"):
	default:
		return "", 0, false
	}
	res := callee(info, call).Signature().Results()
	return "task." + name, res.Len() - 1, true
}

func runAwaitErr(pass *analysis.Pass) (any, error) {
	if !imports(pass.Pkg, taskPath) {
		return nil, nil
	}
	in := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	info := pass.TypesInfo
	for cur := range in.Root().Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		if name := funcOf(info, call, taskPath); name == "MapSeq" || name == "MapSeqUnordered" {
			if cur.ParentEdgeKind() == edge.RangeStmt_X {
				rs := cur.Parent().Node().(*ast.RangeStmt)
				if rs.Value == nil || isBlank(rs.Value) {
					pass.ReportRangef(rs, "the errors of task.%s are dropped: range over v, err and check err", name)
				}
			}
			continue
		}
		name, errIndex, ok := awaited(info, call)
		if !ok {
			continue
		}
		dropped := func(n ast.Node) {
			pass.ReportRangef(n, "the error of %s is dropped: check it, it holds every failure of the work waited for", name)
		}
		switch cur.ParentEdgeKind() {
		case edge.ExprStmt_X, edge.GoStmt_Call, edge.DeferStmt_Call:
			dropped(call)
		case edge.AssignStmt_Rhs:
			as := cur.Parent().Node().(*ast.AssignStmt)
			if len(as.Rhs) == 1 && len(as.Lhs) > errIndex && isBlank(as.Lhs[errIndex]) {
				dropped(as.Lhs[errIndex])
			}
		case edge.ValueSpec_Values:
			vs := cur.Parent().Node().(*ast.ValueSpec)
			if len(vs.Values) == 1 && len(vs.Names) > errIndex && isBlank(vs.Names[errIndex]) {
				dropped(vs.Names[errIndex])
			}
		}
	}
	return nil, nil
}
