package taskvet

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// A child is one g.Go of a fixed fan-out.
type child struct {
	stmt *ast.ExprStmt
	call *ast.CallExpr // g.Go(arg)
	lit  *ast.FuncLit  // arg, if a function literal

	// The result the function assigns to a captured variable, which the
	// fix makes its typed result; nil for an error-only function.
	v    *types.Var
	decl *ast.DeclStmt // v's declaration, before the fan-out
	typ  ast.Expr      // v's declared type

	// A closure of one of the usual shapes ("var err error; v, err =
	// f(ctx); return err") becomes f itself or a one-line adapter.
	short *ast.CallExpr // f(...), the call whose results the closure assigns
	value bool          // short returns (T, error), not only error
}

// fixed rewrites a fixed fan-out, g.Go calls in a row followed by the
// wait, to task.RunN when a function assigns a result, or else to task.Do.
func (s *site) fixed() bool {
	info := s.info()
	if s.setLimit != nil || s.tryGo || s.cond != nil || s.w-s.start != len(s.goCalls) {
		return false
	}
	var children []*child
	for k, call := range s.goCalls {
		es, ok := s.list[s.start+k].(*ast.ExprStmt)
		if !ok || es.X != call {
			return false // a Go nested in a statement
		}
		c := &child{stmt: es, call: call, lit: closureOf(call)}
		if c.lit != nil && (!isErrorFunc(info, c.lit) || len(c.lit.Type.Params.List) != 0) {
			return false
		}
		if c.lit == nil && stableFunc(info, call.Args[0]) == nil {
			return false
		}
		children = append(children, c)
	}
	form, as, ok := s.waitShape()
	if !ok {
		return false
	}
	var errVar *types.Var
	if as != nil {
		errVar = varOf(info, as.Lhs[0])
	}
	ctx, ok := s.callCtx(s.list[s.start].Pos())
	if !ok {
		return false
	}
	s.matchResults(children)
	results := 0
	for _, c := range children {
		if c.v != nil {
			results++
		}
	}
	if results == 0 || len(children) < 2 || len(children) > maxArity {
		// Do's error is a *task.CallError, and Do takes no options: only
		// where the wait's error stays in the function and is only
		// compared with nil. An error that leaves it (returned, stored,
		// passed on) can be compared anywhere: the group in place keeps
		// errgroup's (FirstError).
		if errVar == nil || !s.errorStays(errVar) {
			return false
		}
		return s.reportDo(children, ctx)
	}
	return s.reportRunN(children, ctx, form, as, errVar)
}

// stableFunc returns the function that e denotes if e is func() error and
// evaluating it later than g.Go did gives the same function: a function
// name, or a method value on a variable never assigned after its
// declaration.
func stableFunc(info *types.Info, e ast.Expr) *types.Func {
	fn := pureFunc(info, e)
	if fn == nil {
		return nil
	}
	sig := fn.Signature()
	if sig.Params().Len() != 0 || sig.Results().Len() != 1 || !isError(sig.Results().At(0).Type()) || sig.TypeParams().Len() != 0 {
		return nil
	}
	return fn
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

// callCtx returns the context for a call of the task package placed at
// pos: the parent of WithContext, which must mean there what it meant at
// create, or for a zero Group the one context the functions capture
// (context.Background() if none). It returns "" for context.Background().
func (s *site) callCtx(pos token.Pos) (ast.Expr, bool) {
	info := s.info()
	if s.parent != nil {
		if !s.movable(s.parent, pos) {
			return nil, false
		}
		return s.parent, true
	}
	var ctx *types.Var
	for _, call := range s.goCalls {
		bad := false
		ast.Inspect(call.Args[0], func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok {
				return true
			}
			v, ok := info.Uses[id].(*types.Var)
			if !ok || !isContext(v.Type()) || v.Pos() >= call.Pos() && v.Pos() < call.End() {
				return true
			}
			if ctx != nil && v != ctx {
				bad = true
			}
			ctx = v
			return true
		})
		if bad {
			return nil, true // several: context.Background()
		}
	}
	if ctx == nil || s.lookup(ctx.Name(), pos) != ctx {
		return nil, true
	}
	s.ctxVar = ctx
	return ast.NewIdent(ctx.Name()), true
}

// movable reports whether the expression e, evaluated at create, gives
// the same value at pos: it reads only variables that the statements in
// between do not assign, through names that mean the same there, and calls
// only Context methods and context.Background or TODO.
func (s *site) movable(e ast.Expr, pos token.Pos) bool {
	info := s.info()
	ok := true
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			obj := info.Uses[n]
			if obj == nil {
				return true
			}
			at := s.lookup(n.Name, pos)
			if at != obj && !(s.gctx != nil && at == s.gctx && declaredIn(s.gctx, s.create)) {
				ok = false
			}
			if v, isVar := obj.(*types.Var); isVar {
				for _, st := range s.list[s.afterCreate():s.w] {
					if assigns(info, st, v) {
						ok = false
					}
				}
			}
		case *ast.SelectorExpr:
			// The selected name is a field or method; a package name
			// must mean the same.
			ast.Inspect(n.X, visit)
			return false
		case *ast.CallExpr:
			f := callee(info, n)
			switch {
			case f == nil:
				ok = false
			case f.Pkg().Path() == "context" && (f.Name() == "Background" || f.Name() == "TODO"):
			case f.Name() == "Context" && f.Signature().Recv() != nil && len(n.Args) == 0:
			case positive(info, n):
			default:
				ok = false
			}
		case *ast.ParenExpr, *ast.BasicLit, nil:
		default:
			ok = false
		}
		return ok
	}
	ast.Inspect(e, visit)
	return ok
}

// assigns reports whether n assigns v, or takes its address.
func assigns(info *types.Info, n ast.Node, v *types.Var) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if varOf(info, l) == v {
					found = true
				}
			}
		case *ast.IncDecStmt:
			found = found || varOf(info, n.X) == v
		case *ast.UnaryExpr:
			found = found || n.Op == token.AND && varOf(info, n.X) == v
		}
		return !found
	})
	return found
}

// matchResults finds the result of each child: a variable declared by a
// var statement (without value) before the fan-out, assigned as a whole by
// that child, mentioned by no other child nor between create and the
// wait, and read after the wait.
func (s *site) matchResults(children []*child) {
	info := s.info()
	for _, c := range children {
		if c.lit == nil {
			continue
		}
		var cands []*types.Var
		seen := map[*types.Var]bool{}
		ast.Inspect(c.lit.Body, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || as.Tok != token.ASSIGN {
				return true
			}
			for _, l := range as.Lhs {
				v := varOf(info, l)
				if v != nil && !seen[v] && v.Pos() < s.list[s.start].Pos() && !declaredIn(v, c.lit) {
					seen[v] = true
					cands = append(cands, v)
				}
			}
			return true
		})
		var chosen *types.Var
		for _, v := range cands {
			decl, typ := s.varDecl(v)
			if decl == nil || !s.resultUses(v, c) {
				continue
			}
			if chosen != nil {
				chosen = nil // two results: leave both captured
				break
			}
			chosen, c.decl, c.typ = v, decl, typ
		}
		c.v = chosen
		if c.v == nil {
			c.decl, c.typ = nil, nil
		}
	}
	for _, c := range children {
		if c.lit != nil {
			s.matchShort(c)
		}
	}
}

// varDecl returns the statement of the list before the fan-out that
// declares v with var and a type but no value, and that type.
func (s *site) varDecl(v *types.Var) (*ast.DeclStmt, ast.Expr) {
	info := s.info()
	for _, st := range s.list[:s.start] {
		if !declaredIn(v, st) {
			continue
		}
		ds, ok := st.(*ast.DeclStmt)
		if !ok {
			return nil, nil
		}
		for _, spec := range ds.Decl.(*ast.GenDecl).Specs {
			vs, ok := spec.(*ast.ValueSpec)
			if !ok {
				return nil, nil
			}
			for _, name := range vs.Names {
				if info.Defs[name] == v {
					if len(vs.Values) != 0 || vs.Type == nil {
						return nil, nil
					}
					return ds, vs.Type
				}
			}
		}
	}
	return nil, nil
}

// resultUses reports whether v is mentioned only in the child c and after
// the wait statement (or in it, outside g.Wait()), and read there.
func (s *site) resultUses(v *types.Var, c *child) bool {
	read := false
	for _, id := range s.uses(v) {
		switch {
		case within(id, c.lit):
		case id.Pos() >= s.waitCall.End() || within(id, s.wait) && !within(id, s.waitCall):
			read = true
		default:
			return false
		}
	}
	return read
}

// successOnly reports whether every use of v after the wait is on its
// success path: after an if err != nil { ... } that does not fall through,
// or a require.NoError of the wait.
func (s *site) successOnly(v *types.Var) bool {
	info := s.info()
	var after token.Pos // uses from here on are on the success path
	switch st := s.wait.(type) {
	case *ast.IfStmt:
		if st.Init != nil && st.Else == nil && terminates(st.Body) {
			if as, ok := st.Init.(*ast.AssignStmt); ok && isNotNil(info, st.Cond, varOf(info, as.Lhs[0])) {
				after = st.End()
			}
		}
	case *ast.AssignStmt:
		if s.w+1 < len(s.list) {
			if is, ok := s.list[s.w+1].(*ast.IfStmt); ok && is.Init == nil && is.Else == nil && terminates(is.Body) &&
				isNotNil(info, is.Cond, varOf(info, st.Lhs[0])) {
				after = is.End()
			}
		}
	case *ast.ExprStmt:
		call := st.X.(*ast.CallExpr)
		if fn := callee(info, call); fn != nil && strings.HasSuffix(fn.Pkg().Path(), "testify/require") &&
			(fn.Name() == "NoError" || fn.Name() == "Nil") && len(call.Args) >= 2 && ast.Unparen(call.Args[1]) == s.waitCall {
			after = st.End()
		}
	}
	if !after.IsValid() {
		return false
	}
	for _, id := range s.uses(v) {
		if id.Pos() >= s.waitCall.End() && id.Pos() < after {
			return false
		}
	}
	return true
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

// matchShort matches the closures of the usual shapes, which become the
// function they call or a one-line adapter:
//
//	return f(ctx)
//	var err error; v, err = f(ctx); [if err != nil { return err }]; return err|nil
//	v, err = f(ctx); return [err]             (err the named result)
//	r, err := f(ctx); if err != nil { return err }; v = r; return nil
//	_, err := f(ctx); return err
func (s *site) matchShort(c *child) {
	info := s.info()
	lit := c.lit
	var named *types.Var // a named error result
	if res := lit.Type.Results.List; len(res) == 1 && len(res[0].Names) == 1 {
		named, _ = info.Defs[res[0].Names[0]].(*types.Var)
	}
	body := lit.Body.List
	local := func(e ast.Expr) *types.Var { // a variable declared in lit
		v := varOf(info, e)
		if v == nil || !declaredIn(v, lit) {
			return nil
		}
		return v
	}
	target := func(e ast.Expr) bool { // the result, or _ for none
		if isBlank(e) {
			return c.v == nil
		}
		return c.v != nil && varOf(info, e) == c.v
	}
	isReturnOf := func(st ast.Stmt, v *types.Var) bool {
		r, ok := st.(*ast.ReturnStmt)
		if !ok {
			return false
		}
		if len(r.Results) == 0 {
			return v != nil && v == named
		}
		return len(r.Results) == 1 && varOf(info, r.Results[0]) == v
	}
	isReturnNil := func(st ast.Stmt) bool {
		r, ok := st.(*ast.ReturnStmt)
		if !ok || len(r.Results) != 1 {
			return false
		}
		id, ok := r.Results[0].(*ast.Ident)
		return ok && info.Uses[id] == types.Universe.Lookup("nil")
	}
	isCheck := func(st ast.Stmt, err *types.Var) bool { // if err != nil { return err }
		is, ok := st.(*ast.IfStmt)
		return ok && is.Init == nil && is.Else == nil && isNotNil(info, is.Cond, err) &&
			len(is.Body.List) == 1 && isReturnOf(is.Body.List[0], err)
	}
	// v, err = call (or :=, for _, err := call)
	assign := func(st ast.Stmt, tok token.Token) (*types.Var, *ast.CallExpr) {
		as, ok := st.(*ast.AssignStmt)
		if !ok || as.Tok != tok || len(as.Lhs) != 2 || len(as.Rhs) != 1 || !target(as.Lhs[0]) {
			return nil, nil
		}
		call, ok := as.Rhs[0].(*ast.CallExpr)
		if !ok {
			return nil, nil
		}
		err := local(as.Lhs[1])
		if err == nil && named != nil && varOf(info, as.Lhs[1]) == named {
			err = named
		}
		return err, call
	}
	isVarErr := func(st ast.Stmt) *types.Var { // var err error
		ds, ok := st.(*ast.DeclStmt)
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
	var call *ast.CallExpr
	value := true
	switch {
	case len(body) == 1 && c.v == nil:
		// return f(ctx)
		r, ok := body[0].(*ast.ReturnStmt)
		if !ok || len(r.Results) != 1 {
			return
		}
		call, _ = r.Results[0].(*ast.CallExpr)
		if call == nil || !isErrorOnly(info, call) {
			return
		}
		value = false
	case len(body) == 2 && c.v == nil:
		// _, err := f(ctx); return err
		err, cl := assign(body[0], token.DEFINE)
		if err == nil || err == named || !isReturnOf(body[1], err) {
			return
		}
		call = cl
	case len(body) == 2 && named != nil:
		// v, err = f(ctx); return [err]
		err, cl := assign(body[0], token.ASSIGN)
		if err != named || !isReturnOf(body[1], named) {
			return
		}
		call = cl
	case len(body) == 3 || len(body) == 4:
		if err := isVarErr(body[0]); err != nil {
			// var err error; v, err = f(ctx); [if err != nil { return err }]; return err|nil
			e, cl := assign(body[1], token.ASSIGN)
			if e != err {
				return
			}
			if len(body) == 3 && !isReturnOf(body[2], err) ||
				len(body) == 4 && !(isCheck(body[2], err) && (isReturnNil(body[3]) || isReturnOf(body[3], err))) {
				return
			}
			call = cl
			break
		}
		// r, err := f(ctx); if err != nil { return err }; v = r; return nil
		as, ok := body[0].(*ast.AssignStmt)
		if len(body) != 4 || !ok || as.Tok != token.DEFINE || len(as.Lhs) != 2 || len(as.Rhs) != 1 || c.v == nil {
			return
		}
		cl, ok := as.Rhs[0].(*ast.CallExpr)
		r, err := local(as.Lhs[0]), local(as.Lhs[1])
		if !ok || r == nil || err == nil || !isCheck(body[1], err) || !isReturnNil(body[3]) {
			return
		}
		set, ok := body[2].(*ast.AssignStmt)
		if !ok || set.Tok != token.ASSIGN || len(set.Lhs) != 1 || len(set.Rhs) != 1 ||
			varOf(info, set.Rhs[0]) != r || !target(set.Lhs[0]) {
			return
		}
		call = cl
	default:
		return
	}
	if value {
		res, ok := info.TypeOf(call).(*types.Tuple)
		if !ok || res.Len() != 2 || !isError(res.At(1).Type()) {
			return
		}
		if c.v != nil && !types.Identical(res.At(0).Type(), c.v.Type()) {
			return
		}
	}
	// The call may mention neither the group nor the closure's own
	// variables, nor any result.
	if refers(info, call, s.group) {
		return
	}
	ok := true
	ast.Inspect(call, func(n ast.Node) bool {
		if id, isID := n.(*ast.Ident); isID {
			if local(id) != nil {
				ok = false
			}
			if v, isVar := info.Uses[id].(*types.Var); isVar && v == c.v {
				ok = false
			}
		}
		return ok
	})
	if ok {
		c.short, c.value = call, value
	}
}

// isErrorOnly reports whether call returns only an error.
func isErrorOnly(info *types.Info, call *ast.CallExpr) bool {
	t := info.TypeOf(call)
	if _, tuple := t.(*types.Tuple); tuple || t == nil {
		return false
	}
	return isError(t)
}

// A fix is the text a form puts in place of the site.
type fix struct {
	im    *importer
	task  string // the name of the task package
	ctx   string // the name of the context package, once needed
	keep  string // with the if of matchCond, the variable that holds task.KeepGoing or the zero Option
	edits []analysis.TextEdit
}

func (s *site) newFix(pos token.Pos) (*fix, bool) {
	file := s.file()
	if file == nil {
		return nil, false
	}
	f := &fix{im: &importer{s: s, file: file, pos: pos}}
	var ok bool
	// A package with a variable named task imports it as tasktuple.
	for _, name := range []string{"task", "tasktuple"} {
		if f.task, ok = f.im.name(taskPath, name); ok {
			break
		}
	}
	return f, ok
}

// context returns the name of the context package, importing it if needed.
func (f *fix) context() (string, bool) {
	if f.ctx == "" {
		n, ok := f.im.name("context", "context")
		if !ok {
			return "", false
		}
		f.ctx = n
	}
	return f.ctx, true
}

// options returns the options of a fix into RunN, Map or ForEach:
// task.FirstError, so that the call returns errgroup's error (the first
// failure as its function returned it, not a *task.CallError), with
// task.KeepGoing and task.Settled when asked, as in
// task.KeepGoing, task.FirstError. Do takes no options.
func (f *fix) options(keepGoing, settled bool) string {
	var opts []string
	if keepGoing {
		opts = append(opts, f.task+".KeepGoing")
	}
	if settled {
		opts = append(opts, f.task+".Settled")
	}
	return strings.Join(append(opts, f.task+".FirstError"), ", ")
}

// siteOptions returns the options of a fix of the site into Map, ForEach
// (see options). A group made fail-fast only under a condition
// (matchCond) gets a variable that holds task.KeepGoing, or the zero
// Option, which changes nothing, when the condition holds: the rewrite is
// exact only if the fail-fast branch is (keepGoing false), else ok is
// false.
func (s *site) siteOptions(f *fix, keepGoing, settled bool) (string, bool) {
	if s.cond == nil {
		return f.options(keepGoing, settled), true
	}
	if keepGoing || !s.freeName("keepGoing") {
		return "", false
	}
	f.keep = "keepGoing"
	return f.keep + ", " + f.options(false, settled), true
}

// condWhat returns what, which says what a fail-fast fix changes, for a
// group made fail-fast only under a condition (matchCond).
func (s *site) condWhat(what, unit string) string {
	if s.cond == nil {
		return what
	}
	return "where the condition made the group with errgroup.WithContext, " + what + "; where it did not, every " + unit + " runs, as with errgroup (KeepGoing)"
}

// freeName reports whether no identifier of the function that holds the
// site is called name: a variable of that name declared at the site hides
// nothing and clashes with nothing.
func (s *site) freeName(name string) bool {
	fn, _ := enclosingFunc(s.cur)
	if fn == nil {
		return false
	}
	free := true
	ast.Inspect(fn, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == name {
			free = false
		}
		return free
	})
	return free
}

// ctxText returns the context argument of a call of the task package.
func (f *fix) ctxText(s *site, ctx ast.Expr) (string, bool) {
	if ctx != nil {
		return s.src(ctx), true
	}
	pkg, ok := f.context()
	return pkg + ".Background()", ok
}

// param returns the context parameter of the function that replaces the
// closure lit: named after the derived context if the closure uses it.
func (f *fix) param(s *site, lit ast.Node) (string, bool) {
	pkg, ok := f.context()
	if !ok {
		return "", false
	}
	if s.gctx != nil && lit != nil && refers(s.info(), lit, s.gctx) {
		return s.gctx.Name() + " " + pkg + ".Context", true
	}
	return pkg + ".Context", true
}

// report reports the site with the fix.
func (s *site) report(f *fix, msg, fixMsg string) bool {
	f.edits = append(f.edits, f.im.edits()...)
	if !s.keepsComments(f.edits) {
		return false // the group in place keeps them
	}
	if as, ok := s.create.(*ast.AssignStmt); ok && as.Tok == token.DEFINE && s.remake != nil {
		// The group made again now declares the variables.
		f.edits = append(f.edits, analysis.TextEdit{Pos: s.remake.TokPos, End: s.remake.TokPos + 1, NewText: []byte(":=")})
		msg += "; the group made again after the wait now declares " + s.group.Name()
	}
	s.pass.Report(analysis.Diagnostic{
		Pos:     s.create.Pos(),
		End:     s.wait.End(),
		Message: msg,
		SuggestedFixes: []analysis.SuggestedFix{{
			Message:   fixMsg,
			TextEdits: f.edits,
		}},
	})
	return true
}

// keepsComments reports whether the file, with the edits applied, still
// holds every comment written between the first Go and the end of the
// wait, as often as before: a fix that drops a comment of the module's is
// one a maintainer would not merge.
func (s *site) keepsComments(edits []analysis.TextEdit) (ok bool) {
	file := s.file()
	if file == nil {
		return false
	}
	defer func() {
		if recover() != nil {
			ok = false // overlapping edits: not a fix to offer
		}
	}()
	before := s.text(file.FileStart, file.FileEnd)
	after := s.text(file.FileStart, file.FileEnd, edits...)
	for _, cg := range file.Comments {
		for _, c := range cg.List {
			if c.Pos() >= s.list[s.start].Pos() && c.End() <= s.wait.End() && strings.Count(after, c.Text) < strings.Count(before, c.Text) {
				return false
			}
		}
	}
	return true
}

// deleteCreate returns the edits that remove the group's declaration
// (and no other variable of its var block). With the if of matchCond, they
// turn the zero Group into the variable of siteOptions, task.KeepGoing,
// and the WithContext under the condition into the zero Option, fail-fast.
func (s *site) deleteCreate(f *fix) []analysis.TextEdit {
	if s.cond != nil {
		as := s.cond.Body.List[0]
		return []analysis.TextEdit{
			{Pos: s.create.Pos(), End: s.create.End(), NewText: []byte(f.keep + " := " + f.task + ".KeepGoing")},
			{Pos: as.Pos(), End: as.End(), NewText: []byte(f.keep + " = " + f.task + ".Option{} // fail-fast, as errgroup.WithContext")},
		}
	}
	if ds, ok := s.create.(*ast.DeclStmt); ok {
		return s.removeVars(ds, func(v *types.Var) bool { return v == s.group })
	}
	return []analysis.TextEdit{s.deleteLines(s.create)}
}

// removeVars returns the edits that remove the variables drop picks from
// the var declaration ds, and ds itself if none is left.
func (s *site) removeVars(ds *ast.DeclStmt, drop func(*types.Var) bool) []analysis.TextEdit {
	info := s.info()
	gd := ds.Decl.(*ast.GenDecl)
	var edits []analysis.TextEdit
	left := 0
	for _, spec := range gd.Specs {
		vs := spec.(*ast.ValueSpec)
		var keep []string
		for _, name := range vs.Names {
			if v, _ := info.Defs[name].(*types.Var); v == nil || !drop(v) {
				keep = append(keep, name.Name)
			}
		}
		switch {
		case len(keep) == len(vs.Names):
			left++
		case len(keep) == 0:
			if gd.Lparen.IsValid() {
				edits = append(edits, s.deleteLines(vs))
			}
		default:
			left++
			if len(vs.Values) != 0 {
				return nil // not reached: results have no values
			}
			edits = append(edits, analysis.TextEdit{Pos: vs.Names[0].Pos(), End: vs.Names[len(vs.Names)-1].End(), NewText: []byte(strings.Join(keep, ", "))})
		}
	}
	if left == 0 {
		return []analysis.TextEdit{s.deleteLines(ds)}
	}
	return edits
}

// reportDo rewrites a fixed fan-out of error-only functions to task.Do, in
// place of g.Wait().
func (s *site) reportDo(children []*child, ctx ast.Expr) bool {
	f, ok := s.newFix(s.waitCall.Pos())
	if !ok {
		return false
	}
	var args []string
	for _, c := range children {
		param, ok := f.param(s, c.lit)
		if !ok {
			return false
		}
		switch {
		case c.lit == nil:
			args = append(args, fmt.Sprintf("func(%s) error { return %s() }", param, s.src(c.call.Args[0])))
		case c.short != nil && !c.value:
			args = append(args, fmt.Sprintf("func(%s) error { return %s }", param, s.src(c.short)))
		default:
			res := "error"
			if c.lit.Type.Results != nil {
				res = s.text(c.lit.Type.Results.Pos(), c.lit.Type.Results.End())
			}
			args = append(args, fmt.Sprintf("func(%s) %s ", param, res)+s.text(c.lit.Body.Pos(), c.lit.Body.End()))
		}
	}
	ctxText, ok := f.ctxText(s, ctx)
	if !ok {
		return false
	}
	f.edits = append(f.edits, s.deleteCreate(f)...)
	for _, c := range children {
		f.edits = append(f.edits, s.deleteLines(c.stmt))
	}
	call := fmt.Sprintf("%s.Do(%s, %s)", f.task, ctxText, strings.Join(args, ", "))
	if len(args) > 1 && (strings.Contains(call, "\n") || len(call)+4*s.depth() > 100) {
		call = fmt.Sprintf("%s.Do(%s,\n%s,\n)", f.task, ctxText, strings.Join(args, ",\n"))
	}
	f.edits = append(f.edits, analysis.TextEdit{Pos: s.waitCall.Pos(), End: s.waitCall.End(), NewText: []byte(call)})
	n := len(children)
	return s.report(f,
		fmt.Sprintf("this errgroup fan-out of %d %s.Go calls is task.Do: rewrite it to get every error and panics passed to the caller; the error is a *task.CallError, whose message names the function that failed", n, s.group.Name()),
		"Rewrite to task.Do")
}

// reportRunN rewrites a fixed fan-out whose functions assign results to
// v1, ..., err := task.RunN(ctx, f1, ...).
func (s *site) reportRunN(children []*child, ctx ast.Expr, form waitForm, as *ast.AssignStmt, errVar *types.Var) bool {
	at := s.list[s.start]
	f, ok := s.newFix(at.Pos())
	if !ok {
		return false
	}
	// The error variable, and whether the results are declared by RunN's
	// := (their declarations removed) or assigned.
	errName := "err"
	tok := token.DEFINE
	switch form {
	case waitIfInit, waitAssign:
		errName = errVar.Name()
		if as.Tok == token.ASSIGN {
			if s.listScope().Lookup(errName) != errVar {
				tok = token.ASSIGN // an outer variable: keep the declarations
			}
		} else if form == waitIfInit {
			if _, ok := s.declareErr(errName, s.start); !ok {
				return false
			}
		}
	case waitExpr:
		if _, ok := s.declareErr(errName, s.start); !ok {
			return false
		}
	}
	settled := false
	for _, c := range children {
		if c.v == nil {
			// An error-only function would need a struct{} result: the
			// group in place changes three lines where RunN would
			// rewrite the fan-out.
			return false
		}
		if !s.successOnly(c.v) {
			settled = true
			c.short = nil // the general adapter returns what the closure left in v
		}
	}
	if settled && s.zero {
		return false // three options: the group in place is the smaller diff
	}
	var args, lhs []string
	for _, c := range children {
		arg, ok := s.runArg(f, c)
		if !ok {
			return false
		}
		args = append(args, arg)
		if c.v != nil {
			lhs = append(lhs, c.v.Name())
		} else {
			lhs = append(lhs, "_")
		}
	}
	n := len(children)
	ctxText, ok := f.ctxText(s, ctx)
	if !ok {
		return false
	}
	opts := f.options(s.zero, settled)
	stmt := strings.Join(append(lhs, errName), ", ") + " " + tok.String() + " " +
		fmt.Sprintf("%s.Run%d(%s, %s)", f.task, n, ctxText, strings.Join(append(args, opts), ", "))
	if strings.Contains(stmt, "\n") || len(stmt)+4*s.depth() > 100 {
		// One function a line.
		stmt = strings.Join(append(lhs, errName), ", ") + " " + tok.String() + " " +
			fmt.Sprintf("%s.Run%d(%s,\n%s,\n)", f.task, n, ctxText, strings.Join(append(args, opts), ",\n"))
	}

	// The group's declaration goes, and with :=, the results'.
	drop := map[*types.Var]bool{s.group: true}
	decls := map[*ast.DeclStmt]bool{}
	if ds, ok := s.create.(*ast.DeclStmt); ok {
		decls[ds] = true
	} else {
		f.edits = append(f.edits, s.deleteLines(s.create))
	}
	if tok == token.DEFINE {
		for _, c := range children {
			if c.v != nil {
				drop[c.v] = true
				decls[c.decl] = true
			}
		}
	}
	for ds := range decls {
		f.edits = append(f.edits, s.removeVars(ds, func(v *types.Var) bool { return drop[v] })...)
	}
	// RunN goes where the first g.Go was; the wait keeps its check.
	end := s.wait.End()
	repl := stmt
	switch form {
	case waitIfInit:
		end = s.wait.(*ast.IfStmt).Cond.Pos()
		repl += "\nif "
	case waitAssign:
	case waitExpr:
		end = s.list[s.w-1].End()
		f.edits = append(f.edits, analysis.TextEdit{Pos: s.waitCall.Pos(), End: s.waitCall.End(), NewText: []byte(errName)})
	}
	f.edits = append(f.edits, analysis.TextEdit{Pos: at.Pos(), End: end, NewText: []byte(repl)})
	return s.report(f,
		fmt.Sprintf("this errgroup fan-out of %d %s.Go calls is task.Run%d: rewrite it to get typed results and panics passed to the caller; the error is errgroup's (FirstError)", n, s.group.Name(), n),
		fmt.Sprintf("Rewrite to task.Run%d", n))
}

// runArg returns the argument of RunN for the child c: the function
// itself when the closure only assigns f(ctx), a one-line adapter for the
// other usual shapes, or the closure turned into a function that returns
// its result.
func (s *site) runArg(f *fix, c *child) (string, bool) {
	info := s.info()
	param, ok := f.param(s, c.call.Args[0])
	if !ok {
		return "", false
	}
	if c.lit == nil {
		return fmt.Sprintf("func(%s) (struct{}, error) { return struct{}{}, %s() }", param, s.src(c.call.Args[0])), true
	}
	if call := c.short; call != nil {
		if c.value && len(call.Args) == 1 && s.isRunCtx(call.Args[0]) && call.Ellipsis == token.NoPos {
			if fn := pureFunc(info, call.Fun); fn != nil {
				sig := fn.Signature()
				res := sig.Results()
				if sig.TypeParams().Len() == 0 && sig.Params().Len() == 1 && !sig.Variadic() &&
					isContext(sig.Params().At(0).Type()) && types.Identical(sig.Params().At(0).Type(), info.TypeOf(call.Args[0])) &&
					res.Len() == 2 && isError(res.At(1).Type()) &&
					(c.v == nil || types.Identical(res.At(0).Type(), c.v.Type())) {
					return s.src(call.Fun), true
				}
			}
		}
		switch {
		case !c.value:
			return fmt.Sprintf("func(%s) (struct{}, error) { return struct{}{}, %s }", param, s.src(call)), true
		case c.v == nil:
			return fmt.Sprintf("func(%s) (struct{}, error) { _, err := %s; return struct{}{}, err }", param, s.src(call)), true
		default:
			return fmt.Sprintf("func(%s) (%s, error) { return %s }", param, s.src(c.typ), s.src(call)), true
		}
	}
	// A closure that only stores a value: it returns the value.
	lit := c.lit
	named := namedErrResult(lit)
	if c.v != nil && named == "" && len(lit.Body.List) == 2 {
		as, isAssign := lit.Body.List[0].(*ast.AssignStmt)
		ret, isReturn := lit.Body.List[1].(*ast.ReturnStmt)
		if isAssign && isReturn && as.Tok == token.ASSIGN && len(as.Lhs) == 1 && len(as.Rhs) == 1 &&
			varOf(info, as.Lhs[0]) == c.v && len(ret.Results) == 1 && isNilIdent(info, ret.Results[0]) &&
			types.Identical(types.Default(info.TypeOf(as.Rhs[0])), c.v.Type()) && !s.hasComment(lit.Body) {
			return s.text(lit.Pos(), lit.End(),
				analysis.TextEdit{Pos: lit.Type.Pos(), End: lit.Type.End(), NewText: []byte(fmt.Sprintf("func(%s) (%s, error)", param, s.src(c.typ)))},
				analysis.TextEdit{Pos: as.Pos(), End: ret.Results[0].Pos(), NewText: []byte("return " + s.text(as.Rhs[0].Pos(), as.Rhs[0].End()) + ", ")}), true
		}
	}
	// The general adapter: the closure's body, with its result now a
	// local variable of the same name, returned with the error.
	var edits []analysis.TextEdit
	var results, val string
	switch {
	case c.v != nil && named != "":
		results = fmt.Sprintf("(%s %s, %s error)", c.v.Name(), s.src(c.typ), named)
		val = c.v.Name()
	case c.v != nil:
		results = fmt.Sprintf("(%s, error)", s.src(c.typ))
		val = c.v.Name()
		// On a line of its own, or first on the closure's line if its
		// body begins there: a closure on one line stays on one line.
		decl := fmt.Sprintf("\nvar %s %s", c.v.Name(), s.src(c.typ))
		if len(lit.Body.List) > 0 && s.pass.Fset.PositionFor(lit.Body.List[0].Pos(), false).Line == s.pass.Fset.PositionFor(lit.Body.Lbrace, false).Line {
			decl = fmt.Sprintf(" var %s %s;", c.v.Name(), s.src(c.typ))
		}
		edits = append(edits, analysis.TextEdit{Pos: lit.Body.Lbrace + 1, End: lit.Body.Lbrace + 1, NewText: []byte(decl)})
	case named != "":
		results = fmt.Sprintf("(_ struct{}, %s error)", named)
		val = "struct{}{}"
	default:
		results = "(struct{}, error)"
		val = "struct{}{}"
	}
	for _, r := range funcReturns(lit) {
		if len(r.Results) == 1 {
			edits = append(edits, analysis.TextEdit{Pos: r.Results[0].Pos(), End: r.Results[0].Pos(), NewText: []byte(val + ", ")})
		}
	}
	edits = append(edits, analysis.TextEdit{Pos: lit.Type.Pos(), End: lit.Type.End(), NewText: []byte(fmt.Sprintf("func(%s) %s", param, results))})
	return s.text(lit.Pos(), lit.End(), edits...), true
}

// isRunCtx reports whether e is the context RunN passes to its functions:
// the derived context, or for a zero Group (KeepGoing) the context RunN
// gets.
func (s *site) isRunCtx(e ast.Expr) bool {
	v := varOf(s.info(), e)
	if s.gctx != nil {
		return v == s.gctx
	}
	return v != nil && v == s.ctxVar
}

// depth returns the indentation of the site, in tabs.
func (s *site) depth() int {
	return s.pass.Fset.PositionFor(s.create.Pos(), false).Column - 1
}

// isNilIdent reports whether e is the predeclared nil.
func isNilIdent(info *types.Info, e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && info.Uses[id] == types.Universe.Lookup("nil")
}

// hasComment reports whether a comment lies within n.
func (s *site) hasComment(n ast.Node) bool {
	f := s.file()
	if f == nil {
		return true
	}
	for _, cg := range f.Comments {
		if cg.Pos() >= n.Pos() && cg.End() <= n.End() {
			return true
		}
	}
	return false
}
