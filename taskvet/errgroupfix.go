package taskvet

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

// ErrgroupFix migrates a fixed errgroup fan-out to task.RunN.
var ErrgroupFix = &analysis.Analyzer{
	Name:     "errgroupfix",
	Doc:      docOf("errgroupfix"),
	URL:      "https://pkg.go.dev/github.com/tasktuple/task/taskvet#hdr-Analyzer_errgroupfix",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run:      runErrgroupFix,
}

// maxArity is the largest N of task.RunN.
const maxArity = 16

func runErrgroupFix(pass *analysis.Pass) (any, error) {
	if !imports(pass.Pkg, errgroupPath) {
		return nil, nil
	}
	in := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	for cur := range in.Root().Preorder((*ast.BlockStmt)(nil), (*ast.CaseClause)(nil), (*ast.CommClause)(nil)) {
		var list []ast.Stmt
		switch n := cur.Node().(type) {
		case *ast.BlockStmt:
			list = n.List
		case *ast.CaseClause:
			list = n.Body
		case *ast.CommClause:
			list = n.Body
		}
		for i := range list {
			m := &fanout{pass: pass, cur: cur, list: list}
			if m.match(i) {
				m.report()
			}
		}
	}
	return nil, nil
}

// A fanout is a match of the errgroup shape in a statement list.
type fanout struct {
	pass *analysis.Pass
	cur  inspector.Cursor // the node that holds list
	list []ast.Stmt

	create    ast.Stmt   // g, ctx := errgroup.WithContext(parent), or var g errgroup.Group
	group     *types.Var // g
	gctx      *types.Var // the derived context, or nil
	ctx       ast.Expr   // the context to pass to RunN
	keepGoing bool       // no derived context: the functions get ctx itself
	first     int        // index of the first g.Go
	calls     []*goCall  // one per g.Go, in order
	decls     []ast.Stmt // the declarations of the result variables, removed
	wait      ast.Stmt   // the statement with g.Wait()
	check     *ast.IfStmt
	errName   string
}

// A goCall is one g.Go(func() error { ... }) of a fan-out.
type goCall struct {
	stmt  ast.Stmt
	v     *types.Var    // the captured result variable; nil for _ or none
	typ   ast.Expr      // v's declared type
	call  *ast.CallExpr // the call whose results are assigned
	value bool          // the call returns (T, error), not only error
}

func (m *fanout) info() *types.Info { return m.pass.TypesInfo }

// match reports whether the statements from list[i] are an errgroup
// fan-out that task.RunN can replace without changing what they do.
func (m *fanout) match(i int) bool {
	info := m.info()
	m.create = m.list[i]
	if !m.matchCreate() {
		return false
	}
	// Statements that do not mention the group or its context may come
	// before the first g.Go; they stay.
	j := i + 1
	for ; j < len(m.list); j++ {
		if m.isGo(m.list[j]) {
			break
		}
		if refers(info, m.list[j], m.group) || m.gctx != nil && refers(info, m.list[j], m.gctx) {
			return false
		}
	}
	m.first = j
	for ; j < len(m.list) && m.isGo(m.list[j]); j++ {
		c := m.matchClosure(m.list[j])
		if c == nil {
			return false
		}
		m.calls = append(m.calls, c)
	}
	if len(m.calls) < 2 || len(m.calls) > maxArity || j >= len(m.list) {
		return false
	}
	if !m.matchWait(j) {
		return false
	}
	return m.matchGroupUses() && m.matchContext() && m.matchResults() && m.matchError()
}

// matchCreate matches the statement that makes the group.
func (m *fanout) matchCreate() bool {
	info := m.info()
	switch s := m.create.(type) {
	case *ast.AssignStmt:
		if len(s.Rhs) != 1 {
			return false
		}
		call, ok := s.Rhs[0].(*ast.CallExpr)
		if !ok {
			return false
		}
		if funcOf(info, call, errgroupPath) == "WithContext" && len(s.Lhs) == 2 && s.Tok == token.DEFINE {
			g, _ := info.Defs[s.Lhs[0].(*ast.Ident)].(*types.Var)
			if g == nil {
				return false
			}
			m.group = g
			if !isBlank(s.Lhs[1]) {
				m.gctx = varOf(info, s.Lhs[1])
				if m.gctx == nil {
					return false
				}
			}
			if _, ok := call.Args[0].(*ast.Ident); !ok {
				return false
			}
			if m.gctx == nil {
				m.keepGoing = true // the functions use some other context
			} else {
				m.ctx = call.Args[0]
			}
			return true
		}
		// g := new(errgroup.Group), g := &errgroup.Group{}, g := errgroup.Group{}
		if s.Tok != token.DEFINE || len(s.Lhs) != 1 {
			return false
		}
		g, _ := info.Defs[s.Lhs[0].(*ast.Ident)].(*types.Var)
		if g == nil || !isNamed(g.Type(), errgroupPath, "Group") || !isZeroGroup(info, s.Rhs[0]) {
			return false
		}
		m.group, m.keepGoing = g, true
		return true
	case *ast.DeclStmt:
		// var g errgroup.Group, alone or in a var block with the result
		// variables (matchResults checks the others).
		gd := s.Decl.(*ast.GenDecl)
		if gd.Tok != token.VAR {
			return false
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			for _, name := range vs.Names {
				v, _ := info.Defs[name].(*types.Var)
				if v == nil || !isNamed(v.Type(), errgroupPath, "Group") {
					continue
				}
				if _, ptr := v.Type().(*types.Pointer); ptr || len(vs.Names) != 1 || len(vs.Values) != 0 || m.group != nil {
					return false // var g *errgroup.Group is nil
				}
				m.group, m.keepGoing = v, true
			}
		}
		return m.group != nil
	}
	return false
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
		return len(e.Elts) == 0
	}
	return false
}

// isGo reports whether s is g.Go(...).
func (m *fanout) isGo(s ast.Stmt) bool {
	call := m.groupCall(s, "Group.Go")
	return call != nil
}

// groupCall returns the call in the statement s if it is g.method(...).
func (m *fanout) groupCall(s ast.Stmt, method string) *ast.CallExpr {
	es, ok := s.(*ast.ExprStmt)
	if !ok {
		return nil
	}
	call, ok := es.X.(*ast.CallExpr)
	if !ok || methodOf(m.info(), call, errgroupPath) != method {
		return nil
	}
	if sel, ok := call.Fun.(*ast.SelectorExpr); !ok || varOf(m.info(), sel.X) != m.group {
		return nil
	}
	return call
}

// matchClosure matches g.Go(func() error { ... }) whose function only
// assigns the results of one call to a captured variable.
func (m *fanout) matchClosure(s ast.Stmt) *goCall {
	info := m.info()
	call := m.groupCall(s, "Group.Go")
	lit, ok := ast.Unparen(call.Args[0]).(*ast.FuncLit)
	if !ok || len(lit.Type.Params.List) != 0 {
		return nil
	}
	var named *types.Var // a named error result
	if res := lit.Type.Results.List; len(res) == 1 && len(res[0].Names) == 1 {
		named, _ = info.Defs[res[0].Names[0]].(*types.Var)
	}
	body := lit.Body.List
	c := &goCall{stmt: s}
	local := func(e ast.Expr) *types.Var { // a variable declared in lit
		v := varOf(info, e)
		if v == nil || v.Pos() < lit.Pos() || v.Pos() >= lit.End() {
			return nil
		}
		return v
	}
	captured := func(e ast.Expr) bool {
		if isBlank(e) {
			return true
		}
		v := varOf(info, e)
		if v == nil || v.Pos() >= lit.Pos() && v.Pos() < lit.End() || v.Parent() == v.Pkg().Scope() {
			return false
		}
		c.v = v
		return true
	}
	isReturnOf := func(s ast.Stmt, v *types.Var) bool {
		r, ok := s.(*ast.ReturnStmt)
		if !ok {
			return false
		}
		if len(r.Results) == 0 {
			return v != nil && v == named
		}
		return len(r.Results) == 1 && varOf(info, r.Results[0]) == v
	}
	isReturnNil := func(s ast.Stmt) bool {
		r, ok := s.(*ast.ReturnStmt)
		if !ok || len(r.Results) != 1 {
			return false
		}
		id, ok := r.Results[0].(*ast.Ident)
		return ok && info.Uses[id] == types.Universe.Lookup("nil")
	}
	// if err != nil { return err }
	isCheck := func(s ast.Stmt, err *types.Var) bool {
		is, ok := s.(*ast.IfStmt)
		return ok && is.Init == nil && is.Else == nil && isNotNil(info, is.Cond, err) &&
			len(is.Body.List) == 1 && isReturnOf(is.Body.List[0], err)
	}
	// v, err = call, with err local or the named result
	assign := func(s ast.Stmt) (err *types.Var, ok bool) {
		as, ok := s.(*ast.AssignStmt)
		if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 2 || len(as.Rhs) != 1 {
			return nil, false
		}
		call, ok := as.Rhs[0].(*ast.CallExpr)
		if !ok || !captured(as.Lhs[0]) {
			return nil, false
		}
		err = local(as.Lhs[1])
		if err == nil && (named == nil || varOf(info, as.Lhs[1]) != named) {
			return nil, false
		}
		if err == nil {
			err = named
		}
		c.call, c.value = call, true
		return err, true
	}
	isVarErr := func(s ast.Stmt) *types.Var { // var err error
		ds, ok := s.(*ast.DeclStmt)
		if !ok {
			return nil
		}
		gd := ds.Decl.(*ast.GenDecl)
		if gd.Tok != token.VAR || len(gd.Specs) != 1 {
			return nil
		}
		vs := gd.Specs[0].(*ast.ValueSpec)
		if len(vs.Names) != 1 || len(vs.Values) != 0 {
			return nil
		}
		return local(vs.Names[0])
	}
	switch {
	case len(body) == 1:
		// return f(ctx)
		r, ok := body[0].(*ast.ReturnStmt)
		if !ok || len(r.Results) != 1 {
			return nil
		}
		call, ok := r.Results[0].(*ast.CallExpr)
		if !ok || !isErrorOnly(info, call) {
			return nil
		}
		c.call = call
	case len(body) == 2 && named != nil:
		// v, err = f(ctx); return [err]
		err, ok := assign(body[0])
		if !ok || err != named || !isReturnOf(body[1], named) {
			return nil
		}
	case len(body) == 3 || len(body) == 4:
		if err := isVarErr(body[0]); err != nil {
			// var err error; v, err = f(ctx); [if err != nil { return err }]; return err|nil
			e, ok := assign(body[1])
			if !ok || e != err {
				return nil
			}
			if len(body) == 3 && !isReturnOf(body[2], err) ||
				len(body) == 4 && !(isCheck(body[2], err) && (isReturnNil(body[3]) || isReturnOf(body[3], err))) {
				return nil
			}
			break
		}
		// r, err := f(ctx); if err != nil { return err }; v = r; return nil
		as, ok := body[0].(*ast.AssignStmt)
		if len(body) != 4 || !ok || as.Tok != token.DEFINE || len(as.Lhs) != 2 || len(as.Rhs) != 1 {
			return nil
		}
		call, ok := as.Rhs[0].(*ast.CallExpr)
		r, err := local(as.Lhs[0]), local(as.Lhs[1])
		if !ok || r == nil || err == nil || !isCheck(body[1], err) || !isReturnNil(body[3]) {
			return nil
		}
		set, ok := body[2].(*ast.AssignStmt)
		if !ok || set.Tok != token.ASSIGN || len(set.Lhs) != 1 || len(set.Rhs) != 1 ||
			varOf(info, set.Rhs[0]) != r || isBlank(set.Lhs[0]) || !captured(set.Lhs[0]) {
			return nil
		}
		c.call, c.value = call, true
	default:
		return nil
	}
	if c.value {
		res, ok := info.TypeOf(c.call).(*types.Tuple)
		if !ok || res.Len() != 2 || !isError(res.At(1).Type()) {
			return nil
		}
		if c.v != nil && !types.AssignableTo(res.At(0).Type(), c.v.Type()) {
			return nil
		}
	}
	// The call may mention neither the group nor the closure's own
	// variables (its err, its r).
	if refers(info, c.call, m.group) {
		return nil
	}
	ok = true
	ast.Inspect(c.call, func(n ast.Node) bool {
		if id, isID := n.(*ast.Ident); isID && local(id) != nil {
			ok = false
		}
		return ok
	})
	if !ok {
		return nil
	}
	return c
}

func isError(t types.Type) bool { return types.Identical(t, types.Universe.Lookup("error").Type()) }

// isErrorOnly reports whether call returns only an error.
func isErrorOnly(info *types.Info, call *ast.CallExpr) bool {
	t := info.TypeOf(call)
	if _, tuple := t.(*types.Tuple); tuple || t == nil {
		return false
	}
	return isError(t)
}

// isNotNil reports whether cond is v != nil.
func isNotNil(info *types.Info, cond ast.Expr, v *types.Var) bool {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || b.Op != token.NEQ || varOf(info, b.X) != v {
		return false
	}
	id, ok := b.Y.(*ast.Ident)
	return ok && info.Uses[id] == types.Universe.Lookup("nil")
}

// matchWait matches, at list[j], if err := g.Wait(); err != nil { ... }
// or err := g.Wait() followed by if err != nil { ... }.
func (m *fanout) matchWait(j int) bool {
	info := m.info()
	isWait := func(e ast.Expr) bool {
		call, ok := e.(*ast.CallExpr)
		if !ok || methodOf(info, call, errgroupPath) != "Group.Wait" {
			return false
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		return ok && varOf(info, sel.X) == m.group
	}
	var as *ast.AssignStmt
	switch s := m.list[j].(type) {
	case *ast.IfStmt:
		as, _ = s.Init.(*ast.AssignStmt)
		m.check = s
	case *ast.AssignStmt:
		as = s
		if j+1 < len(m.list) {
			m.check, _ = m.list[j+1].(*ast.IfStmt)
		}
		if m.check == nil || m.check.Init != nil {
			return false
		}
	default:
		return false
	}
	if as == nil || len(as.Lhs) != 1 || len(as.Rhs) != 1 || !isWait(as.Rhs[0]) {
		return false
	}
	err := varOf(info, as.Lhs[0])
	if err == nil || !isNotNil(info, m.check.Cond, err) {
		return false
	}
	if as.Tok == token.ASSIGN {
		// err = g.Wait(): err must be of this block, for := to assign it.
		if !m.declaredInList(err) {
			return false
		}
	}
	m.wait = m.list[j]
	m.errName = err.Name()
	return true
}

// declaredInList reports whether v is declared by a statement of the list.
func (m *fanout) declaredInList(v *types.Var) bool {
	for _, s := range m.list {
		if v.Pos() >= s.Pos() && v.Pos() < s.End() {
			if _, isFunc := s.(*ast.ExprStmt); !isFunc {
				return true
			}
		}
	}
	return false
}

// uses returns the identifiers that denote v in the function that holds
// the fan-out.
func (m *fanout) uses(v types.Object) []*ast.Ident {
	var ids []*ast.Ident
	fn, _ := enclosingFunc(m.cur)
	if fn == nil {
		return nil
	}
	ast.Inspect(fn, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && m.info().Uses[id] == v {
			ids = append(ids, id)
		}
		return true
	})
	return ids
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

// matchGroupUses checks that g is used only by the g.Go calls and g.Wait:
// no SetLimit, no TryGo, not passed on, stored or waited for twice.
func (m *fanout) matchGroupUses() bool {
	return len(m.uses(m.group)) == len(m.calls)+1
}

// matchContext checks the contexts: the derived one, if any, is used only
// in the calls; without one, the calls share one context, which RunN gets
// with KeepGoing.
func (m *fanout) matchContext() bool {
	info := m.info()
	if m.gctx != nil {
		for _, id := range m.uses(m.gctx) {
			if id.Pos() < m.create.Pos() {
				// The same variable as the parent (g, ctx :=
				// errgroup.WithContext(ctx) at the top of a function):
				// straight-line uses before the fan-out are fine, a
				// closure could run after it.
				for range m.cursorOf(id).Enclosing((*ast.FuncLit)(nil)) {
					return false
				}
				continue
			}
			if within(id, m.create) {
				continue // the parent argument
			}
			in := false
			for _, c := range m.calls {
				in = in || within(id, c.call)
			}
			if !in {
				return false // used after Wait, or between
			}
		}
		if m.gctx.Pos() < m.create.Pos() {
			// Reassigned, not declared: in a loop, the next iteration
			// would see the derived context.
			for c := range m.cursorOf(m.create).Enclosing((*ast.ForStmt)(nil), (*ast.RangeStmt)(nil), (*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
				if c.Node().Pos() > m.gctx.Pos() {
					if _, isLoop := c.Node().(*ast.FuncLit); !isLoop {
						return false
					}
				}
				break
			}
		}
		// The parent must still denote the same thing where RunN goes.
		parent := m.ctx.(*ast.Ident)
		return m.lookup(parent.Name, m.calls[0].stmt.Pos()) == info.Uses[parent]
	}
	// No derived context: the calls' context arguments must be one
	// variable, the one RunN gets.
	var ctx *types.Var
	for _, c := range m.calls {
		if len(c.call.Args) == 0 {
			continue
		}
		v := varOf(info, c.call.Args[0])
		if v == nil || !isContext(v.Type()) {
			continue
		}
		if ctx != nil && v != ctx {
			return false
		}
		ctx = v
		m.ctx = c.call.Args[0]
	}
	return ctx != nil
}

func isContext(t types.Type) bool { return isNamed(t, "context", "Context") }

// cursorOf returns the cursor of n.
func (m *fanout) cursorOf(n ast.Node) inspector.Cursor {
	c, _ := m.cur.FindNode(n)
	return c
}

// lookup returns what name denotes at pos.
func (m *fanout) lookup(name string, pos token.Pos) types.Object {
	s := m.pass.Pkg.Scope().Innermost(pos)
	if s == nil {
		return nil
	}
	_, obj := s.LookupParent(name, pos)
	return obj
}

// matchResults checks the result variables: each declared by a var
// statement of its own in the list before the first g.Go (which the fix
// removes, as RunN declares them), assigned by one closure, mentioned
// nowhere else before the wait nor on its error path.
func (m *fanout) matchResults() bool {
	info := m.info()
	seen := map[*types.Var]bool{}
	decls := map[ast.Stmt]int{} // result variables each declaration holds
	for _, c := range m.calls {
		if c.v == nil {
			continue
		}
		if seen[c.v] {
			return false
		}
		seen[c.v] = true
		var decl ast.Stmt
		for _, s := range m.list[:m.first] {
			if c.v.Pos() >= s.Pos() && c.v.Pos() < s.End() {
				decl = s
			}
		}
		ds, ok := decl.(*ast.DeclStmt)
		if !ok {
			return false
		}
		gd := ds.Decl.(*ast.GenDecl)
		if gd.Tok != token.VAR {
			return false
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			if len(vs.Values) != 0 || vs.Type == nil {
				return false
			}
			for _, name := range vs.Names {
				if info.Defs[name] == c.v {
					c.typ = vs.Type
				}
			}
		}
		decls[ds]++
		for _, id := range m.uses(c.v) {
			switch {
			case within(id, c.stmt):
				// its assignment
			case id.Pos() > m.wait.End() && !within(id, m.check.Body):
				// after the wait, on the success path (or after
				// an error path that does not fall through)
				if !terminates(m.check.Body) {
					return false
				}
			default:
				return false
			}
		}
		// A closure that assigns v and also mentions it: more than an assign.
		if n := countIn(m.uses(c.v), c.stmt); n != 1 {
			return false
		}
		// The calls must not read any result variable.
		for _, o := range m.calls {
			if refers(info, o.call, c.v) {
				return false
			}
		}
	}
	for d, n := range decls {
		total := 0
		for _, spec := range d.(*ast.DeclStmt).Decl.(*ast.GenDecl).Specs {
			total += len(spec.(*ast.ValueSpec).Names)
		}
		if d == m.create {
			total-- // the group, in the same var block
		}
		if n != total {
			return false // declares other variables too
		}
		if d != m.create {
			m.decls = append(m.decls, d)
		}
	}
	return true
}

func countIn(ids []*ast.Ident, n ast.Node) int {
	k := 0
	for _, id := range ids {
		if within(id, n) {
			k++
		}
	}
	return k
}

// terminates reports whether the block ends in a statement that does not
// fall through: a return, a branch, a panic, a fatal log or exit.
func terminates(b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	switch s := b.List[len(b.List)-1].(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		return true
	case *ast.ExprStmt:
		call, ok := s.X.(*ast.CallExpr)
		if !ok {
			return false
		}
		switch f := call.Fun.(type) {
		case *ast.Ident:
			return f.Name == "panic"
		case *ast.SelectorExpr:
			name := f.Sel.Name
			return strings.HasPrefix(name, "Fatal") || name == "Exit" || name == "FailNow" || strings.HasPrefix(name, "Skip") && name != "Skipped"
		}
	}
	return false
}

// matchError checks the error: err is new where RunN declares it, not
// compared with anything but nil nor asserted (RunN wraps every failure in
// a *task.CallError), and declaring it does not hide another err that
// later code reads.
func (m *fanout) matchError() bool {
	info := m.info()
	var errVar *types.Var
	switch s := m.wait.(type) {
	case *ast.IfStmt:
		errVar = varOf(info, s.Init.(*ast.AssignStmt).Lhs[0])
		// The if's err moves out to the list: nothing of that name may
		// already be declared there, and nothing after may read another.
		for _, st := range m.list {
			if st == m.wait {
				continue
			}
			found := false
			ast.Inspect(st, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncLit:
					return true
				case *ast.Ident:
					if n.Name != m.errName {
						break
					}
					if obj := info.Defs[n]; obj != nil && st.Pos() < m.wait.Pos() && obj.Parent() == m.lookupScope(st) {
						found = true // declared in the list before
					}
					if obj := info.Uses[n]; obj != nil && st.Pos() > m.wait.Pos() && obj.Pos() < m.wait.Pos() {
						found = true // reads an err declared before
					}
				case *ast.ReturnStmt:
					if len(n.Results) == 0 && st.Pos() > m.wait.Pos() && m.namedResult(m.errName) {
						found = true
					}
				}
				return !found
			})
			if found {
				return false
			}
		}
		if m.namedResult(m.errName) && m.lookupScope(m.wait) == m.funcScope() {
			return false // := would assign the named result
		}
	case *ast.AssignStmt:
		errVar = varOf(info, s.Lhs[0])
	}
	for _, id := range m.uses(errVar) {
		cur := m.cursorOf(id)
		switch p := cur.Parent().Node().(type) {
		case *ast.BinaryExpr:
			other := p.X
			if other == id {
				other = p.Y
			}
			if o, ok := other.(*ast.Ident); !ok || info.Uses[o] != types.Universe.Lookup("nil") {
				return false
			}
		case *ast.TypeAssertExpr, *ast.SwitchStmt:
			return false
		}
	}
	return true
}

// lookupScope returns the scope of the block that holds the statement s.
func (m *fanout) lookupScope(s ast.Stmt) *types.Scope {
	sc := m.pass.Pkg.Scope().Innermost(s.Pos())
	return sc
}

func (m *fanout) funcScope() *types.Scope {
	fn, _ := enclosingFunc(m.cur)
	switch fn := fn.(type) {
	case *ast.FuncDecl:
		return m.info().Scopes[fn.Type]
	case *ast.FuncLit:
		return m.info().Scopes[fn.Type]
	}
	return nil
}

// namedResult reports whether the function that holds the fan-out has a
// named result called name.
func (m *fanout) namedResult(name string) bool {
	fn, _ := enclosingFunc(m.cur)
	var ft *ast.FuncType
	switch fn := fn.(type) {
	case *ast.FuncDecl:
		ft = fn.Type
	case *ast.FuncLit:
		ft = fn.Type
	}
	if ft == nil || ft.Results == nil {
		return false
	}
	for _, f := range ft.Results.List {
		for _, n := range f.Names {
			if n.Name == name {
				return true
			}
		}
	}
	return false
}

// report reports the fan-out with the fix that rewrites it.
func (m *fanout) report() {
	pass := m.pass
	file := m.file()
	if file == nil {
		return
	}
	pos := m.calls[0].stmt.Pos()
	taskName, importEdit, ok := m.importName(file, taskPath, "task", pos)
	if !ok {
		return
	}
	ctxName := ""
	ctxPkg := func() string {
		if ctxName == "" {
			ctxName = m.importedAs(file, "context", pos)
		}
		return ctxName
	}
	var args, lhs []string
	for _, c := range m.calls {
		arg, ok := m.function(c, ctxPkg)
		if !ok {
			return
		}
		args = append(args, arg)
		if c.v != nil {
			lhs = append(lhs, c.v.Name())
		} else {
			lhs = append(lhs, "_")
		}
	}
	n := len(m.calls)
	if m.keepGoing {
		args = append(args, taskName+".KeepGoing")
	}
	indent := m.indent(m.calls[0].stmt)
	stmt := strings.Join(append(lhs, m.errName), ", ") + " := " +
		fmt.Sprintf("%s.Run%d(%s, %s)", taskName, n, m.src(m.ctx), strings.Join(args, ", "))
	if len(indent)*4+len(stmt) > 100 {
		// One function a line.
		stmt = strings.Join(append(lhs, m.errName), ", ") + " := " +
			fmt.Sprintf("%s.Run%d(%s,\n%s\t%s,\n%s)", taskName, n, m.src(m.ctx), indent, strings.Join(args, ",\n"+indent+"\t"), indent)
	}

	var edits []analysis.TextEdit
	for _, s := range append([]ast.Stmt{m.create}, m.decls...) {
		edits = append(edits, m.deleteLines(s))
	}
	end := m.wait.End()
	repl := stmt
	if is, ok := m.wait.(*ast.IfStmt); ok {
		end = is.Cond.Pos()
		repl += "\n" + indent + "if "
	}
	edits = append(edits, analysis.TextEdit{Pos: pos, End: end, NewText: []byte(repl)})
	if importEdit != nil {
		edits = append(edits, *importEdit)
	}
	what := "g.Go"
	if m.group != nil {
		what = m.group.Name() + ".Go"
	}
	pass.Report(analysis.Diagnostic{
		Pos:     m.create.Pos(),
		End:     m.wait.End(),
		Message: fmt.Sprintf("this errgroup fan-out of %d %s calls is task.Run%d: rewrite it to get typed results, every error and panics passed to the caller", n, what, n),
		SuggestedFixes: []analysis.SuggestedFix{{
			Message:   fmt.Sprintf("Rewrite to task.Run%d", n),
			TextEdits: edits,
		}},
	})
}

// function returns the argument of RunN for c: the function itself when
// the call is f(ctx), or an adapter.
func (m *fanout) function(c *goCall, ctxPkg func() string) (string, bool) {
	info := m.info()
	call := c.call
	if c.value && len(call.Args) == 1 && m.isRunCtx(call.Args[0]) && call.Ellipsis == token.NoPos {
		if fn := pureFunc(info, call.Fun); fn != nil {
			sig := fn.Signature()
			res := sig.Results()
			if sig.TypeParams().Len() == 0 && sig.Params().Len() == 1 && !sig.Variadic() &&
				isContext(sig.Params().At(0).Type()) && types.Identical(sig.Params().At(0).Type(), info.TypeOf(call.Args[0])) &&
				res.Len() == 2 && isError(res.At(1).Type()) &&
				(c.v == nil || types.Identical(res.At(0).Type(), c.v.Type())) {
				return m.src(call.Fun), true
			}
		}
	}
	pkg := ctxPkg()
	if pkg == "" {
		return "", false
	}
	param := pkg + ".Context"
	if m.gctx != nil && refers(info, call, m.gctx) {
		param = m.gctx.Name() + " " + param
	}
	switch {
	case !c.value:
		return fmt.Sprintf("func(%s) (struct{}, error) { return struct{}{}, %s }", param, m.src(call)), true
	case c.v == nil:
		return fmt.Sprintf("func(%s) (struct{}, error) { _, err := %s; return struct{}{}, err }", param, m.src(call)), true
	default:
		return fmt.Sprintf("func(%s) (%s, error) { return %s }", param, m.src(c.typ), m.src(call)), true
	}
}

// isRunCtx reports whether e is the context RunN passes to its functions:
// the derived context, or with KeepGoing the context RunN gets.
func (m *fanout) isRunCtx(e ast.Expr) bool {
	v := varOf(m.info(), e)
	if m.gctx != nil {
		return v == m.gctx
	}
	return v != nil && v == varOf(m.info(), m.ctx)
}

// pureFunc returns the function or method that e denotes, if evaluating e
// has no effect: a function name, or a method value on a variable or a
// chain of fields.
func pureFunc(info *types.Info, e ast.Expr) *types.Func {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		fn, _ := info.Uses[e].(*types.Func)
		return fn
	case *ast.SelectorExpr:
		fn, _ := info.Uses[e.Sel].(*types.Func)
		if fn == nil {
			return nil
		}
		if sel, ok := info.Selections[e]; ok && sel.Kind() != types.MethodVal {
			return nil
		}
		for x := e.X; ; {
			switch y := ast.Unparen(x).(type) {
			case *ast.Ident:
				return fn
			case *ast.SelectorExpr:
				x = y.X
				continue
			}
			return nil
		}
	}
	return nil
}

func (m *fanout) file() *ast.File {
	for _, f := range m.pass.Files {
		if f.FileStart <= m.create.Pos() && m.create.Pos() < f.FileEnd {
			return f
		}
	}
	return nil
}

// src returns the source text of n, as formatted.
func (m *fanout) src(n ast.Node) string {
	var b bytes.Buffer
	if err := format.Node(&b, m.pass.Fset, n); err != nil {
		panic(err)
	}
	return b.String()
}

// indent returns the indentation of the line of s.
func (m *fanout) indent(s ast.Stmt) string {
	tf := m.pass.Fset.File(s.Pos())
	col := m.pass.Fset.Position(s.Pos()).Column
	src, err := m.pass.ReadFile(tf.Name())
	if err != nil {
		return "\t"
	}
	line := tf.LineStart(tf.Line(s.Pos()))
	return string(src[tf.Offset(line) : tf.Offset(line)+col-1])
}

// deleteLines returns the edit that removes s and its line.
func (m *fanout) deleteLines(s ast.Stmt) analysis.TextEdit {
	tf := m.pass.Fset.File(s.Pos())
	start := tf.LineStart(tf.Line(s.Pos()))
	endLine := tf.Line(s.End())
	end := s.End()
	if endLine < tf.LineCount() {
		end = tf.LineStart(endLine + 1)
	}
	return analysis.TextEdit{Pos: start, End: end}
}

// importedAs returns the name under which file imports path, if that name
// denotes the package at pos, or "".
func (m *fanout) importedAs(file *ast.File, path string, pos token.Pos) string {
	for _, imp := range file.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p != path {
			continue
		}
		var obj types.Object
		if imp.Name != nil {
			obj = m.info().Defs[imp.Name]
		} else {
			obj = m.info().Implicits[imp]
		}
		pn, ok := obj.(*types.PkgName)
		if !ok || pn.Name() == "_" || pn.Name() == "." {
			return ""
		}
		if m.lookup(pn.Name(), pos) != pn {
			return ""
		}
		return pn.Name()
	}
	return ""
}

// importName returns the name to use for path at pos, and the edit that
// adds the import if the file lacks it.
func (m *fanout) importName(file *ast.File, path, name string, pos token.Pos) (string, *analysis.TextEdit, bool) {
	if n := m.importedAs(file, path, pos); n != "" {
		return n, nil, true
	}
	for _, imp := range file.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == path {
			return "", nil, false // imported as _ or ., or hidden
		}
	}
	if m.lookup(name, pos) != nil {
		return "", nil, false // the name is taken
	}
	for _, d := range file.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			if gd.Lparen.IsValid() {
				last := gd.Specs[len(gd.Specs)-1]
				return name, &analysis.TextEdit{Pos: last.End(), End: last.End(), NewText: []byte("\n\t" + strconv.Quote(path))}, true
			}
			return name, &analysis.TextEdit{Pos: gd.Pos(), End: gd.End(),
				NewText: []byte("import (\n\t" + m.src(gd.Specs[0]) + "\n\t" + strconv.Quote(path) + "\n)")}, true
		}
	}
	return name, &analysis.TextEdit{Pos: file.Name.End(), End: file.Name.End(),
		NewText: []byte("\n\nimport " + strconv.Quote(path))}, true
}
