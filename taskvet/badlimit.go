package taskvet

import (
	"go/ast"
	"go/constant"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

// BadLimit reports a constant limit below 1.
var BadLimit = &analysis.Analyzer{
	Name:     "badlimit",
	Doc:      docOf("badlimit"),
	URL:      "https://pkg.go.dev/github.com/tasktuple/task/taskvet#hdr-Analyzer_badlimit",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run:      runBadLimit,
}

func runBadLimit(pass *analysis.Pass) (any, error) {
	if !imports(pass.Pkg, taskPath) {
		return nil, nil
	}
	in := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	info := pass.TypesInfo
	for cur := range in.Root().Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		var name string
		var arg ast.Expr
		switch f := funcOf(info, call, taskPath); {
		case (f == "Map" || f == "ForEach" || f == "MapSeq" || f == "MapSeqUnordered") && len(call.Args) > 2:
			name, arg = "task."+f, call.Args[2]
		case f == "MapWithin" && len(call.Args) > 3:
			name, arg = "task."+f, call.Args[3]
		case methodOf(info, call, taskPath) == "Group.SetLimit" && len(call.Args) == 1:
			name, arg = "SetLimit", call.Args[0]
		default:
			continue
		}
		tv, ok := info.Types[arg]
		if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
			continue
		}
		n, exact := constant.Int64Val(tv.Value)
		seq := name == "task.MapSeq" || name == "task.MapSeqUnordered"
		if !exact || n >= 1 || n < 0 && !seq {
			continue
		}
		switch {
		case seq:
			pass.ReportRangef(arg, "%s with limit %d panics: a sequence needs a limit of at least 1, the number of calls to run at once", name, n)
		case name == "SetLimit":
			pass.ReportRangef(arg, "SetLimit(0) panics: the limit must be at least 1, or negative for no limit")
		default:
			pass.ReportRangef(arg, "%s with limit 0 panics: the limit must be at least 1, or negative for no limit", name)
		}
	}
	return nil, nil
}
