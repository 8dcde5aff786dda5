package taskvet

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// mapForm rewrites a range loop over a slice whose closures store the
// result of a call into a slice made for the results, at the loop's index,
// to task.Map, which returns that slice:
//
//	out := make([]T, len(xs))
//	for i, x := range xs {
//		g.Go(func() error {
//			v, err := f(ctx, x)
//			if err != nil {
//				return err
//			}
//			out[i] = v
//			return nil
//		})
//	}
//	if err := g.Wait(); err != nil {
//
// becomes out, err := task.Map(ctx, xs, -1, f, task.FirstError).
func (s *site) mapForm() bool {
	info := s.info()
	body := s.list[s.start:s.w]
	if s.setLimit != nil {
		if body[0] != s.setLimit {
			return false
		}
		body = body[1:]
	}
	if len(body) != 1 || len(s.goCalls) != 1 || s.tryGo {
		return false
	}
	loop, ok := body[0].(*ast.RangeStmt)
	if !ok || loop.Tok != token.DEFINE || loop.Key == nil || isBlank(loop.Key) {
		return false
	}
	slice, isSlice := types.Unalias(info.TypeOf(loop.X)).Underlying().(*types.Slice)
	if !isSlice {
		return false
	}
	stmts := loop.Body.List
	last, ok := stmts[len(stmts)-1].(*ast.ExprStmt)
	if !ok || last.X != s.goCalls[0] {
		return false
	}
	lit := closureOf(s.goCalls[0])
	if lit == nil || !isErrorFunc(info, lit) || len(lit.Type.Params.List) != 0 {
		return false
	}
	key, val := varOf(info, loop.Key), varOf(info, loop.Value)
	index := map[*types.Var]bool{key: true} // the key and its copies
	value := map[*types.Var]bool{}          // the value and its copies
	if val != nil {
		value[val] = true
	}
	for _, st := range stmts[:len(stmts)-1] {
		as, ok := st.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE || len(as.Lhs) != len(as.Rhs) {
			return false
		}
		for k := range as.Lhs {
			l, r := varOf(info, as.Lhs[k]), varOf(info, as.Rhs[k])
			switch {
			case l == nil || r == nil || l.Name() != r.Name():
				return false
			case index[r]:
				index[l] = true
			case value[r]:
				value[l] = true
			default:
				return false
			}
		}
	}
	out, call := s.matchStore(lit, index)
	if out == nil {
		return false
	}
	// The call: (T, error), mentioning no index, no result slice.
	res, ok := info.TypeOf(call).(*types.Tuple)
	if !ok || res.Len() != 2 || !isError(res.At(1).Type()) || !types.Identical(res.At(0).Type(), out.Type().Underlying().(*types.Slice).Elem()) {
		return false
	}
	for v := range index {
		if refers(info, call, v) {
			return false
		}
	}
	if refers(info, call, out) || refers(info, call, s.group) {
		return false
	}
	// The result slice: made for the results, of the length of the input,
	// by a statement of its own before the group, in the same block;
	// mentioned nowhere else before the wait.
	decl := s.makeDecl(out, loop.X)
	if decl == nil || s.listScope().Lookup(out.Name()) != out {
		return false
	}
	for _, id := range s.uses(out) {
		if !within(id, lit) && id.Pos() < s.waitCall.End() && !(within(id, s.wait) && !within(id, s.waitCall)) {
			return false
		}
	}
	if s.gctx != nil && (refers(info, loop.X, s.gctx) || s.setLimit != nil && refers(info, s.setLimit, s.gctx)) {
		return false
	}
	failFast, ok := s.failFast()
	if !ok {
		return false
	}
	form, as, ok := s.waitShape()
	if !ok {
		return false
	}
	var ctx ast.Expr
	if s.parent != nil {
		if !s.movable(s.parent, s.waitCall.Pos()) {
			return false
		}
		ctx = s.parent
	} else if ctx, ok = s.callCtx(s.waitCall.Pos()); !ok {
		return false
	}
	f, ok := s.newFix(s.waitCall.Pos())
	if !ok {
		return false
	}
	limit := "-1" // no limit, as errgroup without SetLimit
	if s.setLimit != nil {
		arg := s.setLimit.X.(*ast.CallExpr).Args[0]
		if limit, ok = s.limitText(arg, s.waitCall.Pos()); !ok {
			return false
		}
	}
	ctxText, ok := f.ctxText(s, ctx)
	if !ok {
		return false
	}
	// The function: f itself for f(ctx, x), else an adapter.
	var fn string
	if len(call.Args) == 2 && s.isRunCtx(call.Args[0]) && value[varOf(info, call.Args[1])] && call.Ellipsis == token.NoPos {
		if pf := pureFunc(info, call.Fun); pf != nil {
			sig := pf.Signature()
			if sig.TypeParams().Len() == 0 && !sig.Variadic() && sig.Params().Len() == 2 &&
				types.Identical(sig.Params().At(0).Type(), info.TypeOf(call.Args[0])) &&
				types.Identical(sig.Params().At(1).Type(), slice.Elem()) &&
				types.Identical(sig.Results(), res) {
				fn = s.src(call.Fun)
			}
		}
	}
	if fn == "" {
		param, ok := f.param(s, lit)
		if !ok {
			return false
		}
		name := "_"
		for v := range value {
			if refers(info, call, v) {
				if name != "_" && name != v.Name() {
					return false
				}
				name = v.Name()
			}
		}
		if name != "_" && !isNamedParam(param) {
			param = "_ " + param
		}
		elem, outElem := f.im.typeString(slice.Elem()), f.im.typeString(res.At(0).Type())
		if elem == "" || outElem == "" {
			return false
		}
		fn = fmt.Sprintf("func(%s, %s %s) (%s, error) { return %s }", param, name, elem, outElem, s.src(call))
	}
	opts, ok := s.siteOptions(f, !failFast, !s.successOnly(out))
	if !ok {
		return false
	}
	mapCall := fmt.Sprintf("%s.Map(%s, %s, %s, %s, %s)", f.task, ctxText, s.src(loop.X), limit, fn, opts)

	f.edits = append(f.edits, s.deleteCreate(f)...)
	f.edits = append(f.edits, s.deleteLines(decl))
	if s.setLimit != nil {
		f.edits = append(f.edits, s.deleteLines(s.setLimit))
	}
	f.edits = append(f.edits, s.deleteLines(loop))
	switch form {
	case waitIfInit, waitAssign:
		errVar := varOf(info, as.Lhs[0])
		if as.Tok == token.ASSIGN && s.listScope().Lookup(errVar.Name()) != errVar {
			return false
		}
		if form == waitIfInit {
			if _, ok := s.declareErr(errVar.Name(), s.w); !ok {
				return false
			}
		}
		stmt := fmt.Sprintf("%s, %s := %s", out.Name(), errVar.Name(), mapCall)
		if form == waitIfInit {
			f.edits = append(f.edits, analysis.TextEdit{Pos: s.wait.Pos(), End: s.wait.(*ast.IfStmt).Cond.Pos(), NewText: []byte(stmt + "\nif ")})
		} else {
			f.edits = append(f.edits, analysis.TextEdit{Pos: s.wait.Pos(), End: s.wait.End(), NewText: []byte(stmt)})
		}
	case waitExpr:
		if _, ok := s.declareErr("err", s.w); !ok {
			return false
		}
		f.edits = append(f.edits,
			analysis.TextEdit{Pos: s.wait.Pos(), End: s.wait.Pos(), NewText: []byte(fmt.Sprintf("%s, err := %s\n", out.Name(), mapCall))},
			analysis.TextEdit{Pos: s.waitCall.Pos(), End: s.waitCall.End(), NewText: []byte("err")})
	}
	what := "a failure cancels the calls' context and no call starts after it (errgroup called the rest with a canceled context)"
	if !failFast {
		what = "every call runs, as with errgroup (KeepGoing)"
	}
	what = s.condWhat(what, "call")
	return s.report(f,
		fmt.Sprintf("this loop of %s.Go stores each result at its index: it is task.Map, which returns the results: rewrite it to get them typed and panics passed to the caller; the error is errgroup's (FirstError); %s", s.group.Name(), what),
		"Rewrite to task.Map")
}

func isNamedParam(param string) bool {
	for _, r := range param {
		if r == ' ' {
			return true
		}
	}
	return false
}

// matchStore matches the closures that store the result of one call at
// the index into a captured slice, and returns the slice and the call:
//
//	v, err := f(...); if err != nil { return err }; out[i] = v; return nil
//	var err error; out[i], err = f(...); [if err != nil { return err }]; return err|nil
//	out[i], err = f(...); return [err]    (err the named result)
func (s *site) matchStore(lit *ast.FuncLit, index map[*types.Var]bool) (*types.Var, *ast.CallExpr) {
	info := s.info()
	var named *types.Var
	if res := lit.Type.Results.List; len(res) == 1 && len(res[0].Names) == 1 {
		named, _ = info.Defs[res[0].Names[0]].(*types.Var)
	}
	local := func(e ast.Expr) *types.Var {
		v := varOf(info, e)
		if v == nil || !declaredIn(v, lit) {
			return nil
		}
		return v
	}
	// out[i], returning out
	slot := func(e ast.Expr) *types.Var {
		ix, ok := ast.Unparen(e).(*ast.IndexExpr)
		if !ok || !index[varOf(info, ix.Index)] {
			return nil
		}
		out := varOf(info, ix.X)
		if out == nil || declaredIn(out, lit) {
			return nil
		}
		if _, ok := out.Type().Underlying().(*types.Slice); !ok {
			return nil
		}
		return out
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
	isCheck := func(st ast.Stmt, err *types.Var) bool {
		is, ok := st.(*ast.IfStmt)
		return ok && is.Init == nil && is.Else == nil && isNotNil(info, is.Cond, err) &&
			len(is.Body.List) == 1 && isReturnOf(is.Body.List[0], err)
	}
	body := lit.Body.List
	// out[i], err = f(...)
	storeCall := func(st ast.Stmt) (*types.Var, *types.Var, *ast.CallExpr) {
		as, ok := st.(*ast.AssignStmt)
		if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 2 || len(as.Rhs) != 1 {
			return nil, nil, nil
		}
		call, ok := as.Rhs[0].(*ast.CallExpr)
		if !ok {
			return nil, nil, nil
		}
		err := local(as.Lhs[1])
		if err == nil && named != nil && varOf(info, as.Lhs[1]) == named {
			err = named
		}
		return slot(as.Lhs[0]), err, call
	}
	switch len(body) {
	case 2:
		out, err, call := storeCall(body[0])
		if out != nil && err != nil && err == named && isReturnOf(body[1], named) {
			return out, call
		}
	case 3, 4:
		if ds, ok := body[0].(*ast.DeclStmt); ok {
			gd := ds.Decl.(*ast.GenDecl)
			if gd.Tok != token.VAR || len(gd.Specs) != 1 || len(gd.Specs[0].(*ast.ValueSpec).Names) != 1 {
				return nil, nil
			}
			errv := local(gd.Specs[0].(*ast.ValueSpec).Names[0])
			out, err, call := storeCall(body[1])
			if out == nil || err == nil || err != errv {
				return nil, nil
			}
			if len(body) == 3 && isReturnOf(body[2], err) ||
				len(body) == 4 && isCheck(body[2], err) && (isReturnNil(body[3]) || isReturnOf(body[3], err)) {
				return out, call
			}
			return nil, nil
		}
		// v, err := f(...); if err != nil { return err }; out[i] = v; return nil
		as, ok := body[0].(*ast.AssignStmt)
		if len(body) != 4 || !ok || as.Tok != token.DEFINE || len(as.Lhs) != 2 || len(as.Rhs) != 1 {
			return nil, nil
		}
		call, ok := as.Rhs[0].(*ast.CallExpr)
		v, err := local(as.Lhs[0]), local(as.Lhs[1])
		if !ok || v == nil || err == nil || !isCheck(body[1], err) || !isReturnNil(body[3]) {
			return nil, nil
		}
		set, ok := body[2].(*ast.AssignStmt)
		if !ok || set.Tok != token.ASSIGN || len(set.Lhs) != 1 || len(set.Rhs) != 1 || varOf(info, set.Rhs[0]) != v {
			return nil, nil
		}
		if out := slot(set.Lhs[0]); out != nil {
			for _, id := range []ast.Expr{call} {
				if refers(info, id, v) || refers(info, id, err) {
					return nil, nil
				}
			}
			return out, call
		}
	}
	return nil, nil
}

// makeDecl returns the statement before the group, in the list, that
// declares out alone as make([]T, len(x)), x being the loop's range
// expression (a variable or a chain of fields).
func (s *site) makeDecl(out *types.Var, x ast.Expr) ast.Stmt {
	info := s.info()
	var rhs ast.Expr
	var decl ast.Stmt
	for _, st := range s.list[:s.i] {
		if !declaredIn(out, st) {
			continue
		}
		decl = st
		switch st := st.(type) {
		case *ast.AssignStmt:
			if st.Tok == token.DEFINE && len(st.Lhs) == 1 && len(st.Rhs) == 1 {
				rhs = st.Rhs[0]
			}
		case *ast.DeclStmt:
			gd := st.Decl.(*ast.GenDecl)
			if len(gd.Specs) == 1 {
				if vs := gd.Specs[0].(*ast.ValueSpec); len(vs.Names) == 1 && len(vs.Values) == 1 {
					rhs = vs.Values[0]
				}
			}
		}
	}
	mk, ok := ast.Unparen(rhs).(*ast.CallExpr)
	if !ok || len(mk.Args) != 2 {
		return nil
	}
	if id, ok := mk.Fun.(*ast.Ident); !ok || info.Uses[id] != types.Universe.Lookup("make") {
		return nil
	}
	ln, ok := ast.Unparen(mk.Args[1]).(*ast.CallExpr)
	if !ok || len(ln.Args) != 1 {
		return nil
	}
	if id, ok := ln.Fun.(*ast.Ident); !ok || info.Uses[id] != types.Universe.Lookup("len") {
		return nil
	}
	if !isVarChain(info, x) || s.src(ln.Args[0]) != s.src(x) {
		return nil
	}
	// x must not change between the make and the loop.
	for _, v := range varsOf(info, x) {
		for _, st := range s.list[:s.w] {
			if st.Pos() > decl.End() && assigns(info, st, v) {
				return nil
			}
		}
	}
	return decl
}

// varsOf returns the variables that e mentions.
func varsOf(info *types.Info, e ast.Expr) []*types.Var {
	var vs []*types.Var
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := info.Uses[id].(*types.Var); ok {
				vs = append(vs, v)
			}
		}
		return true
	})
	return vs
}
