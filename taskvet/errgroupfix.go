package taskvet

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

// ErrgroupFix migrates errgroup fan-outs to the task package.
var ErrgroupFix = &analysis.Analyzer{
	Name:     "errgroupfix",
	Doc:      docOf("errgroupfix"),
	URL:      "https://pkg.go.dev/github.com/tasktuple/task/taskvet#hdr-Analyzer_errgroupfix",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run:      runErrgroupFix,
}

// maxArity is the largest N of task.RunN.
const maxArity = 16

// benchPrefix is the bench module of this repository, whose baselines use
// errgroup on purpose.
const benchPrefix = taskPath + "/bench"

func runErrgroupFix(pass *analysis.Pass) (any, error) {
	if !imports(pass.Pkg, errgroupPath) || pass.Pkg.Path() == benchPrefix || strings.HasPrefix(pass.Pkg.Path(), benchPrefix+"/") {
		return nil, nil
	}
	in := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	if policesImports(pass) {
		// Left as it is, each group reported with the reason.
		runInPlace(pass, in, nil, true)
		return nil, nil
	}
	done := map[*types.Var]bool{} // the groups a smaller form fixed
	for cur := range in.Root().Preorder((*ast.BlockStmt)(nil), (*ast.CaseClause)(nil), (*ast.CommClause)(nil)) {
		list, _ := stmtList(cur.Node())
		for i := range list {
			s := &site{pass: pass, cur: cur, list: list, i: i}
			if !s.match() || s.kept() || s.remade || s.remake != nil {
				continue
			}
			// The smaller forms, most specific first: each says whether
			// it reported the site. Where none fits, the group in place.
			if s.fixed() || s.forEach() || s.mapForm() {
				done[s.group] = true
			}
		}
	}
	runInPlace(pass, in, done, false)
	return nil, nil
}

// A site is an errgroup group made by a statement of a list and waited for
// by a later statement of the same list: the unit that every form of the
// fix rewrites.
type site struct {
	pass *analysis.Pass
	cur  inspector.Cursor // the node that holds list
	list []ast.Stmt
	i    int // index of create in list

	create ast.Stmt        // g, ctx := errgroup.WithContext(parent), or a zero Group
	group  *types.Var      // g
	gctx   *types.Var      // the derived context, or nil (a zero Group, or _)
	parent ast.Expr        // WithContext's argument; nil for a zero Group
	zero   bool            // a zero Group: nothing is canceled
	cond   *ast.IfStmt     // list[i+1] after a zero Group: if cond { g, ctx = errgroup.WithContext(ctx) }
	remade bool            // create is g, ctx = errgroup.WithContext(parent): the variables of an earlier group
	remake *ast.AssignStmt // after the wait, the statement of the list that makes the group again, or nil

	w        int           // index of the statement that waits
	wait     ast.Stmt      // list[w]
	waitCall *ast.CallExpr // g.Wait() in wait
	start    int           // index of the first statement after create that mentions g or gctx

	goCalls  []*ast.CallExpr // every g.Go and g.TryGo between create and wait, nested ones too
	tryGo    bool            // one of them is TryGo
	setLimit *ast.ExprStmt   // g.SetLimit(n) at the top of the list, before any Go

	ctxVar *types.Var // for a zero Group, the context the functions capture, which the fix passes on
}

func (s *site) info() *types.Info { return s.pass.TypesInfo }

// match matches the group: how it is made, how it is waited for, and that
// between the two it is used only by Go, TryGo and SetLimit, and after the
// wait not at all.
func (s *site) match() bool {
	s.create = s.list[s.i]
	if !s.matchCreate() {
		return false
	}
	s.matchCond()
	info := s.info()
	// The wait: the first statement that mentions g.Wait(), outside any
	// function literal.
	s.w = -1
	for j := s.i + 1; j < len(s.list); j++ {
		if call := s.findWait(s.list[j]); call != nil {
			s.w, s.wait, s.waitCall = j, s.list[j], call
			break
		}
		if s.hasWaitInFunc(s.list[j]) {
			return false // waited for in a goroutine: a pipeline
		}
	}
	if s.w < 0 {
		return false
	}
	// g: only as a receiver of Go, TryGo, SetLimit between create and
	// the wait, only in the Wait of the wait, nowhere else.
	fn, _ := enclosingFunc(s.cur)
	if fn == nil {
		return false
	}
	region := s.list[s.i+1 : s.w]
	if s.parent != nil && s.cond == nil {
		s.findRemake()
	}
	ok := true
	ast.Inspect(fn, func(n ast.Node) bool {
		id, isID := n.(*ast.Ident)
		if !ok || !isID || info.Uses[id] != s.group {
			return ok
		}
		switch {
		case s.cond != nil && within(id, s.cond):
		case within(id, s.waitCall):
			if ast.Unparen(s.waitCall.Fun).(*ast.SelectorExpr).X != id {
				ok = false
			}
		case within(id, region...):
			call := s.receiverCall(id)
			if call == nil {
				ok = false
				break
			}
			switch methodOf(info, call, errgroupPath) {
			case "Group.Go", "Group.TryGo":
				s.goCalls = append(s.goCalls, call)
				s.tryGo = s.tryGo || methodOf(info, call, errgroupPath) == "Group.TryGo"
			case "Group.SetLimit":
				es := s.limitStmt(call)
				if es == nil || s.setLimit != nil || len(s.goCalls) > 0 {
					ok = false
				}
				s.setLimit = es
			default:
				ok = false
			}
		case within(id, s.create):
		case s.remade && id.Pos() < s.create.Pos():
			ok = s.earlierLife(id, fn) // the earlier group
		case s.remake != nil && id.Pos() >= s.remake.Pos():
			// The next group.
		default:
			ok = false // passed on, stored, reused after the wait
		}
		return ok
	})
	if !ok || len(s.goCalls) == 0 || !s.matchRemade() {
		return false
	}
	for _, call := range s.goCalls {
		if len(call.Args) != 1 {
			return false
		}
	}
	s.start = s.w
	for j := s.afterCreate(); j < s.w; j++ {
		if refers(info, s.list[j], s.group) || s.gctx != nil && refers(info, s.list[j], s.gctx) {
			s.start = j
			break
		}
	}
	return s.matchDerived()
}

// matchCreate matches the statement that makes the group.
func (s *site) matchCreate() bool {
	info := s.info()
	switch st := s.create.(type) {
	case *ast.AssignStmt:
		if len(st.Rhs) != 1 || st.Tok != token.DEFINE && st.Tok != token.ASSIGN {
			return false
		}
		if call, ok := ast.Unparen(st.Rhs[0]).(*ast.CallExpr); ok && funcOf(info, call, errgroupPath) == "WithContext" {
			if len(st.Lhs) != 2 {
				return false
			}
			id, ok := st.Lhs[0].(*ast.Ident)
			if !ok {
				return false
			}
			g, _ := info.Defs[id].(*types.Var)
			if st.Tok == token.ASSIGN {
				// g, ctx = errgroup.WithContext(parent): a group made
				// again in the variables of an earlier one.
				g, _ = info.Uses[id].(*types.Var)
				s.remade = true
			}
			if g == nil {
				return false
			}
			s.group, s.parent = g, call.Args[0]
			if !isBlank(st.Lhs[1]) {
				s.gctx = varOf(info, st.Lhs[1])
				if s.gctx == nil {
					return false
				}
			}
			return true
		}
		// g := new(errgroup.Group), g := &errgroup.Group{}, g := errgroup.Group{}
		if len(st.Lhs) != 1 || st.Tok != token.DEFINE {
			return false
		}
		g, _ := info.Defs[st.Lhs[0].(*ast.Ident)].(*types.Var)
		if g == nil || !isNamed(g.Type(), errgroupPath, "Group") || !isZeroGroup(info, st.Rhs[0]) {
			return false
		}
		s.group, s.zero = g, true
		return true
	case *ast.DeclStmt:
		// var g errgroup.Group, alone or in a var block with other
		// variables.
		gd := st.Decl.(*ast.GenDecl)
		if gd.Tok != token.VAR {
			return false
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			for k, name := range vs.Names {
				v, _ := info.Defs[name].(*types.Var)
				if v == nil || !isNamed(v.Type(), errgroupPath, "Group") {
					continue
				}
				if _, ptr := v.Type().(*types.Pointer); ptr || s.group != nil {
					return false // var g *errgroup.Group is nil
				}
				if len(vs.Values) != 0 && (len(vs.Values) != len(vs.Names) || !isZeroGroup(info, vs.Values[k])) {
					return false
				}
				s.group, s.zero = v, true
			}
		}
		return s.group != nil
	}
	return false
}

// findRemake finds, after the wait, the statement of the list that makes
// the group again in the same variables, with nothing in between that
// mentions them:
//
//	eg, ctx2 := errgroup.WithContext(ctx)
//	... eg.Go ...
//	if err := eg.Wait(); err != nil { ... }
//	...
//	eg, ctx2 = errgroup.WithContext(ctx)
//
// The variables are then written before they are read again: the fix,
// which removes their declaration, turns that statement into one (:=).
func (s *site) findRemake() {
	info := s.info()
	for _, st := range s.list[s.w+1:] {
		as, ok := st.(*ast.AssignStmt)
		if ok && as.Tok == token.ASSIGN && len(as.Lhs) == 2 && len(as.Rhs) == 1 && varOf(info, as.Lhs[0]) == s.group &&
			(s.gctx == nil && isBlank(as.Lhs[1]) || s.gctx != nil && varOf(info, as.Lhs[1]) == s.gctx) {
			call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			if ok && funcOf(info, call, errgroupPath) == "WithContext" && !refers(info, call, s.group) && (s.gctx == nil || !refers(info, call, s.gctx)) {
				s.remake = as
			}
			return
		}
		if refers(info, st, s.group) || s.gctx != nil && refers(info, st, s.gctx) {
			return
		}
	}
}

// earlierLife reports whether id, a use of the group's variables before a
// create that makes the group again (remade), belongs to the earlier group:
// in the function's own statements, or in a child of the earlier group that
// its wait, before create, waited for.
func (s *site) earlierLife(id *ast.Ident, fn ast.Node) bool {
	var outer *ast.FuncLit // the outermost function literal below fn
	for c := range s.cursorOf(id).Enclosing((*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
		if c.Node() == fn {
			break
		}
		lit, ok := c.Node().(*ast.FuncLit)
		if !ok {
			return false
		}
		outer = lit
	}
	if outer == nil {
		return true
	}
	call, ok := s.cursorOf(outer).Parent().Node().(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || call.Args[0] != outer || !s.isGroupCall(call, "Group.Go") && !s.isGroupCall(call, "Group.TryGo") {
		return false
	}
	for k := range s.i {
		if !within(call, s.list[k]) {
			continue
		}
		for _, st := range s.list[k+1 : s.i] {
			if s.findWait(st) != nil {
				return true
			}
		}
		return false
	}
	return false
}

// matchRemade checks a create that makes the group again in the variables
// of an earlier one (g, ctx = errgroup.WithContext(parent)), which the fix
// removes: the earlier code still reads the variables (else they would be
// declared and not used), and no loop below their declaration repeats
// create (the next iteration would see this group in the earlier code).
func (s *site) matchRemade() bool {
	if !s.remade {
		return true
	}
	for _, v := range []*types.Var{s.group, s.gctx} {
		if v == nil {
			continue
		}
		for c := range s.cursorOf(s.create).Enclosing((*ast.ForStmt)(nil), (*ast.RangeStmt)(nil), (*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
			if _, isFunc := c.Node().(*ast.FuncLit); !isFunc && c.Node().Pos() > v.Pos() {
				return false
			}
			break
		}
		read := false
		for _, id := range s.uses(v) {
			if id.Pos() >= s.create.Pos() {
				continue
			}
			if as, ok := s.cursorOf(id).Parent().Node().(*ast.AssignStmt); !ok || !slices.Contains(as.Lhs, ast.Expr(id)) {
				read = true
			}
		}
		if !read {
			return false
		}
	}
	return true
}

// matchCond matches, after a zero Group made by :=, an if that makes the
// group again with errgroup.WithContext when a condition holds, deriving
// the context from the same variable:
//
//	g := &errgroup.Group{}
//	if e.Failfast {
//		g, ctx = errgroup.WithContext(ctx)
//	}
//
// The group is then fail-fast when the condition held, and cancels nothing
// when it did not: the forms pass task.KeepGoing or not, as the condition
// decides at run time.
func (s *site) matchCond() {
	info := s.info()
	if _, ok := s.create.(*ast.AssignStmt); !ok || !s.zero || s.i+1 >= len(s.list) {
		return
	}
	if _, ptr := s.group.Type().(*types.Pointer); !ptr {
		return
	}
	is, ok := s.list[s.i+1].(*ast.IfStmt)
	if !ok || is.Init != nil || is.Else != nil || len(is.Body.List) != 1 {
		return
	}
	as, ok := is.Body.List[0].(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 2 || len(as.Rhs) != 1 || varOf(info, as.Lhs[0]) != s.group {
		return
	}
	call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
	if !ok || funcOf(info, call, errgroupPath) != "WithContext" {
		return
	}
	ctx := varOf(info, as.Lhs[1])
	if ctx == nil || varOf(info, call.Args[0]) != ctx || refers(info, is.Cond, s.group) || refers(info, is.Cond, ctx) {
		return
	}
	s.cond, s.gctx, s.parent, s.zero = is, ctx, call.Args[0], false
}

// afterCreate returns the index of the first statement after the group is
// made: after the if of matchCond, if there is one.
func (s *site) afterCreate() int {
	if s.cond != nil {
		return s.i + 2
	}
	return s.i + 1
}

// isZeroGroup reports whether e is new(errgroup.Group), &errgroup.Group{}
// or errgroup.Group{}.
func isZeroGroup(info *types.Info, e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		id, ok := e.Fun.(*ast.Ident)
		return ok && id.Name == "new" && info.Uses[id] == types.Universe.Lookup("new") && len(e.Args) == 1
	case *ast.UnaryExpr:
		return e.Op == token.AND && isZeroGroup(info, e.X)
	case *ast.CompositeLit:
		return len(e.Elts) == 0 && isNamed(info.TypeOf(e), errgroupPath, "Group")
	}
	return false
}

// findWait returns the call g.Wait() in st, outside function literals.
func (s *site) findWait(st ast.Stmt) *ast.CallExpr {
	var found *ast.CallExpr
	ast.Inspect(st, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if s.isGroupCall(n, "Group.Wait") {
				found = n
			}
		}
		return found == nil
	})
	return found
}

// hasWaitInFunc reports whether st holds g.Wait() in a function literal.
func (s *site) hasWaitInFunc(st ast.Stmt) bool {
	found := false
	ast.Inspect(st, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && s.isGroupCall(call, "Group.Wait") {
			found = true
		}
		return !found
	})
	return found
}

// isGroupCall reports whether call is g.method(...).
func (s *site) isGroupCall(call *ast.CallExpr, method string) bool {
	if methodOf(s.info(), call, errgroupPath) != method {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	return ok && varOf(s.info(), sel.X) == s.group
}

// receiverCall returns the call of which id is the receiver, as in
// id.Go(...), or nil.
func (s *site) receiverCall(id *ast.Ident) *ast.CallExpr {
	cur, ok := s.cur.FindNode(id)
	if !ok {
		return nil
	}
	sel, ok := cur.Parent().Node().(*ast.SelectorExpr)
	if !ok || sel.X != id {
		return nil
	}
	call, ok := cur.Parent().Parent().Node().(*ast.CallExpr)
	if !ok || call.Fun != sel {
		return nil
	}
	return call
}

// limitStmt returns the statement that is call, g.SetLimit(n), if it runs
// at most once, before any Go: at the top of the statements between create
// and the wait, or in an if among them, not in a loop or a function
// literal.
func (s *site) limitStmt(call *ast.CallExpr) *ast.ExprStmt {
	cur := s.cursorOf(call)
	es, ok := cur.Parent().Node().(*ast.ExprStmt)
	if !ok {
		return nil
	}
	for c := range cur.Parent().Enclosing() {
		switch c.Node().(type) {
		case *ast.ForStmt, *ast.RangeStmt, *ast.FuncLit, *ast.SelectStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt:
			return nil
		}
		if c.Node() == s.cur.Node() {
			return es
		}
	}
	return nil
}

// matchDerived checks the derived context: not used after the wait (where
// errgroup has canceled it), and, when create assigns it to the parent's
// variable, not in a loop that would derive again from it.
func (s *site) matchDerived() bool {
	if s.gctx == nil {
		return true
	}
	fn, _ := enclosingFunc(s.cur)
	for _, id := range s.uses(s.gctx) {
		if s.remake != nil && id.Pos() >= s.remake.Pos() {
			continue // the next group's
		}
		if s.remade && id.Pos() < s.create.Pos() {
			if !s.earlierLife(id, fn) {
				return false
			}
			continue
		}
		if id.Pos() < s.create.Pos() {
			// The same variable as the parent (g, ctx :=
			// errgroup.WithContext(ctx) at the top of a function):
			// straight-line uses before are fine, a closure could run
			// after.
			for c := range s.cursorOf(id).Enclosing((*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
				if c.Node() != fn {
					return false
				}
				break
			}
			continue
		}
		if id.Pos() >= s.waitCall.End() {
			return false // used after the wait
		}
	}
	if s.gctx.Pos() < s.create.Pos() {
		// Reassigned, not declared: in a loop, the next iteration would
		// see the derived context.
		for c := range s.cursorOf(s.create).Enclosing((*ast.ForStmt)(nil), (*ast.RangeStmt)(nil), (*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
			if c.Node().Pos() > s.gctx.Pos() {
				if _, isFunc := c.Node().(*ast.FuncLit); !isFunc {
					return false
				}
			}
			break
		}
	}
	return true
}

// uses returns the identifiers that denote v in the function that holds
// the site.
func (s *site) uses(v types.Object) []*ast.Ident {
	var ids []*ast.Ident
	fn, _ := enclosingFunc(s.cur)
	if fn == nil {
		return nil
	}
	ast.Inspect(fn, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && s.info().Uses[id] == v {
			ids = append(ids, id)
		}
		return true
	})
	return ids
}

// cursorOf returns the cursor of n, which may lie anywhere in the file
// (a use of a variable outside the block of the site).
func (s *site) cursorOf(n ast.Node) inspector.Cursor {
	if c, ok := s.cur.FindNode(n); ok {
		return c
	}
	c, _ := s.cur.Inspector().Root().FindNode(n)
	return c
}

// lookup returns what name denotes at pos.
func (s *site) lookup(name string, pos token.Pos) types.Object {
	sc := s.pass.Pkg.Scope().Innermost(pos)
	if sc == nil {
		return nil
	}
	_, obj := sc.LookupParent(name, pos)
	return obj
}

// closure returns the function literal that call passes to Go or TryGo,
// or nil.
func closureOf(call *ast.CallExpr) *ast.FuncLit {
	lit, _ := ast.Unparen(call.Args[0]).(*ast.FuncLit)
	return lit
}

// usesDerived reports how the children use the derived context: whether
// any mentions it, and whether every one does. A child that does not look
// at it is one that errgroup still calls after a failure; a child that
// passes it on is one whose call, started after a failure, would stop.
func (s *site) usesDerived() (any, all bool) {
	all = true
	for _, call := range s.goCalls {
		if s.gctx != nil && refers(s.info(), call.Args[0], s.gctx) {
			any = true
		} else {
			all = false
		}
	}
	return any, all
}

// within reports whether n lies inside one of the nodes.
func within[N ast.Node](n ast.Node, nodes ...N) bool {
	for _, o := range nodes {
		if ast.Node(o) != nil && n.Pos() >= o.Pos() && n.End() <= o.End() {
			return true
		}
	}
	return false
}

func isError(t types.Type) bool { return types.Identical(t, types.Universe.Lookup("error").Type()) }

func isContext(t types.Type) bool { return isNamed(t, "context", "Context") }

// isNotNil reports whether cond is v != nil.
func isNotNil(info *types.Info, cond ast.Expr, v *types.Var) bool {
	return comparesNil(info, cond, v, token.NEQ)
}

// comparesNil reports whether cond is v op nil.
func comparesNil(info *types.Info, cond ast.Expr, v *types.Var, op token.Token) bool {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || b.Op != op || varOf(info, b.X) != v {
		return false
	}
	id, ok := b.Y.(*ast.Ident)
	return ok && info.Uses[id] == types.Universe.Lookup("nil")
}

// declaredIn reports whether the object o is declared inside n.
func declaredIn(o types.Object, n ast.Node) bool {
	return o.Pos() >= n.Pos() && o.Pos() < n.End()
}

// keepDirective, in a comment on the line of the group's creation or the
// line above, keeps the errgroup code as it is.
const keepDirective = "//taskvet:keep-errgroup"

// kept reports whether the site carries the keep directive.
func (s *site) kept() bool {
	file := s.file()
	if file == nil {
		return false
	}
	line := s.pass.Fset.PositionFor(s.create.Pos(), false).Line
	for _, cg := range file.Comments {
		for _, c := range cg.List {
			if l := s.pass.Fset.PositionFor(c.Pos(), false).Line; (l == line || l == line-1) && strings.HasPrefix(c.Text, keepDirective) {
				return true
			}
		}
	}
	return false
}

// policesImports reports whether a test file of the package names
// errgroup's import path in a string: a test that lists the imports the
// package may have (pkgsite's pkgsite-cli allows the standard library and
// errgroup only), which a fix that imports the task package would fail.
// Such a package is left as it is. The test files are read from the
// package's directory, as they may not be part of the pass (-test=false).
func policesImports(pass *analysis.Pass) bool {
	if len(pass.Files) == 0 {
		return false
	}
	dir := filepath.Dir(pass.Fset.File(pass.Files[0].Pos()).Name())
	tests, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	for _, name := range tests {
		if src, err := os.ReadFile(name); err == nil && bytes.Contains(src, []byte(errgroupPath)) && !importsOnlyMention(src) {
			return true
		}
	}
	return false
}

// importsOnlyMention reports whether the only mentions of errgroup's
// import path in src are import specs.
func importsOnlyMention(src []byte) bool {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	if err != nil {
		return true
	}
	n := 0
	ast.Inspect(f, func(node ast.Node) bool {
		if lit, ok := node.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if p, err := strconv.Unquote(lit.Value); err == nil && p == errgroupPath {
				n++
			}
		}
		return true
	})
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == errgroupPath {
			n--
		}
	}
	return n <= 0
}

// stmtList returns the statements of a block, a case or a select's case,
// and whether n is one of those.
func stmtList(n ast.Node) ([]ast.Stmt, bool) {
	switch n := n.(type) {
	case *ast.BlockStmt:
		return n.List, true
	case *ast.CaseClause:
		return n.Body, true
	case *ast.CommClause:
		return n.Body, true
	}
	return nil, false
}
