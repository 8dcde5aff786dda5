package taskvet

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// failFast decides between fail-fast and task.KeepGoing for the loop forms
// where errgroup and the task package differ after a failure:
// errgroup still calls every function passed to Go (with a canceled
// context), the task package starts none that had not started. Not
// starting a function is the same as calling it only if the function would
// have done nothing with a canceled context, so:
//
//   - a zero Group, or children that do not mention the derived context:
//     KeepGoing, which is exact (every child runs, nothing is canceled);
//   - children that all begin with a call that gets the derived context
//     and return if it fails (ctxFirst): fail-fast;
//   - anything else, such as a child that first defers close(ch), which a
//     reader of the channel waits for: not a loop form (ForEach and Map
//     take no task.StartAll); the group in place takes it, with StartAll.
//
// ok is false in the last case.
func (s *site) failFast() (failFast, ok bool) {
	if s.zero || s.gctx == nil {
		return false, true
	}
	anyUse, _ := s.usesDerived()
	if !anyUse {
		// The derived context is not the children's: the rest of the
		// code must not rely on its cancellation either.
		for _, st := range s.list[s.start:s.w] {
			if refers(s.info(), st, s.gctx) {
				return false, false
			}
		}
		return false, true
	}
	for _, call := range s.goCalls {
		if s.ctxFirst(call.Args[0]) {
			continue
		}
		if !refers(s.info(), call.Args[0], s.gctx) || s.signals(call.Args[0]) {
			return false, false
		}
	}
	return true, true
}

// signals reports whether the function fn, a closure, does something that
// code outside it may wait for: it closes, sends on or receives from a
// channel it did not make, ranges over one, calls Done, Unlock, RUnlock,
// Release (or a method whose name begins with Release), Signal or
// Broadcast on something it did not make, or calls a function value it
// did not make (a variable, parameter or field of the caller's: done(),
// a hook), except to undo what it did itself (a send and a receive on a
// channel used as a semaphore, Lock and Unlock, Acquire and Release). Not
// starting such a function after a failure could leave a reader, a
// WaitGroup, a semaphore or a caller's completion callback waiting
// forever, or skip a hook run for its effects.
func (s *site) signals(fn ast.Expr) bool {
	info := s.info()
	lit, ok := ast.Unparen(fn).(*ast.FuncLit)
	if !ok {
		return true
	}
	outside := func(e ast.Expr) *types.Var {
		for {
			switch x := ast.Unparen(e).(type) {
			case *ast.SelectorExpr:
				e = x.X
				continue
			case *ast.IndexExpr:
				e = x.X
				continue
			case *ast.StarExpr:
				e = x.X
				continue
			}
			break
		}
		v := varOf(info, e)
		if v == nil || declaredIn(v, lit) {
			return nil
		}
		return v
	}
	type use struct{ take, give bool }
	uses := map[*types.Var]*use{}
	at := func(v *types.Var) *use {
		if uses[v] == nil {
			uses[v] = &use{}
		}
		return uses[v]
	}
	signal := false
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SendStmt:
			if v := outside(n.Chan); v != nil {
				at(v).take = true
			}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				if v := outside(n.X); v != nil {
					at(v).give = true
				}
			}
		case *ast.RangeStmt:
			if _, isChan := types.Unalias(info.TypeOf(n.X)).Underlying().(*types.Chan); isChan && outside(n.X) != nil {
				signal = true
			}
		case *ast.CallExpr:
			if id, isID := ast.Unparen(n.Fun).(*ast.Ident); isID && id.Name == "close" && len(n.Args) == 1 {
				if _, isB := info.Uses[id].(*types.Builtin); isB && outside(n.Args[0]) != nil {
					signal = true
				}
			}
			if id, isID := ast.Unparen(n.Fun).(*ast.Ident); isID {
				if v, isVar := info.Uses[id].(*types.Var); isVar && !declaredIn(v, lit) {
					signal = true // a callback of the caller's: done(), fn(ctx)
				}
			}
			sel, isSel := ast.Unparen(n.Fun).(*ast.SelectorExpr)
			if !isSel {
				break
			}
			v := outside(sel.X)
			if v == nil {
				break
			}
			if f, isField := info.Uses[sel.Sel].(*types.Var); isField && f.IsField() {
				signal = true // a callback in a field: j.done(), s.hook(ctx)
				break
			}
			switch name := sel.Sel.Name; {
			case name == "Lock", name == "RLock", name == "TryAcquire", name == "TryLock", name == "TryRLock", strings.HasPrefix(name, "Acquire"):
				at(v).take = true
			case name == "Unlock", name == "RUnlock", strings.HasPrefix(name, "Release"):
				at(v).give = true
			case name == "Done", name == "Signal", name == "Broadcast":
				// ctx.Done() reads the context; wg.Done() signals.
				if _, isMethod := info.Uses[sel.Sel].(*types.Func); isMethod && !isContext(info.TypeOf(sel.X)) {
					signal = true
				}
			}
		}
		return !signal
	})
	for _, u := range uses {
		if u.give && !u.take || u.take && !u.give {
			// A receive alone consumes what another sends; a send alone
			// delivers what another receives.
			return true
		}
	}
	return signal
}

// ctxFirst reports whether the function fn, given a canceled derived
// context, would do nothing but return an error: its first statement that
// does anything calls a function with the derived context before any other
// call, and returns if that fails.
//
//	return f(ctx, x)
//	if err := f(ctx, x); err != nil { return err }
//	v, err := f(ctx, x); if err != nil { return err }
//	v, err = f(ctx, x); return err
func (s *site) ctxFirst(fn ast.Expr) bool {
	info := s.info()
	lit, ok := ast.Unparen(fn).(*ast.FuncLit)
	if !ok {
		return false
	}
	derived := map[*types.Var]bool{s.gctx: true} // the derived context, and contexts made from it
	cancels := map[*types.Var]bool{}             // their cancel functions
	body := lit.Body.List
	for k, st := range body {
		if s.pureStmt(st) {
			continue // no effect: copies, literals, formatting, an early return
		}
		switch st := st.(type) {
		case *ast.DeferStmt:
			// defer cancel() of a context made from the derived one
			if call, ok := st.Call.Fun.(*ast.Ident); ok && len(st.Call.Args) == 0 && cancels[varOf(info, call)] {
				continue
			}
		case *ast.AssignStmt:
			// ctx, cancel := context.WithTimeout(ctx, d)
			if call, ok := st.Rhs[0].(*ast.CallExpr); ok && len(st.Rhs) == 1 && funcOf(info, call, "context") != "" &&
				strings.HasPrefix(funcOf(info, call, "context"), "With") && len(call.Args) > 0 && derived[varOf(info, call.Args[0])] &&
				pureExprs(info, call.Args[1:]) {
				if v := varOf(info, st.Lhs[0]); v != nil {
					derived[v] = true
				}
				if len(st.Lhs) == 2 {
					if v := varOf(info, st.Lhs[1]); v != nil {
						cancels[v] = true
					}
				}
				continue
			}
			if !s.callsCtxFirst(st, derived) {
				return false
			}
			// v, err := f(ctx); if err != nil { return ... }
			if k+1 >= len(body) || len(st.Lhs) == 0 {
				return false
			}
			err := varOf(info, st.Lhs[len(st.Lhs)-1])
			if err == nil || !isError(err.Type()) {
				return false
			}
			switch next := body[k+1].(type) {
			case *ast.IfStmt:
				return next.Init == nil && isNotNil(info, next.Cond, err) && terminates(next.Body)
			case *ast.ReturnStmt:
				// return err, or a naked return of the named err
				return len(next.Results) == 0 && namedErrResult(lit) == err.Name() ||
					len(next.Results) == 1 && varOf(info, next.Results[0]) == err
			}
			return false
		case *ast.ReturnStmt:
			return s.callsCtxFirst(st, derived)
		case *ast.IfStmt:
			as, ok := st.Init.(*ast.AssignStmt)
			if !ok || !s.callsCtxFirst(as, derived) || len(as.Lhs) == 0 {
				return false
			}
			return isNotNil(info, st.Cond, varOf(info, as.Lhs[len(as.Lhs)-1])) && terminates(st.Body)
		}
		return false
	}
	return false
}

// pureStmt reports whether st has no effect outside the function: a
// declaration or assignment of local values from pure expressions and
// calls (pureCall), or an if whose condition is pure and whose body only
// returns such values.
func (s *site) pureStmt(st ast.Stmt) bool {
	switch st := st.(type) {
	case *ast.DeclStmt:
		gd := st.Decl.(*ast.GenDecl)
		if gd.Tok != token.VAR {
			return false
		}
		for _, spec := range gd.Specs {
			if !s.pureCalls(spec.(*ast.ValueSpec).Values...) {
				return false
			}
		}
		return true
	case *ast.AssignStmt:
		if st.Tok != token.DEFINE {
			return false
		}
		return s.pureCalls(st.Rhs...)
	case *ast.ReturnStmt:
		return s.pureCalls(st.Results...)
	case *ast.IfStmt:
		if st.Init != nil && !s.pureStmt(st.Init) || !s.pureCalls(st.Cond) || st.Else != nil {
			return false
		}
		for _, b := range st.Body.List {
			if !s.pureStmt(b) {
				return false
			}
		}
		return terminates(st.Body)
	}
	return false
}

// pureCalls reports whether evaluating the expressions has no effect but
// their values: literals, names, fields, conversions, and calls of
// functions of the standard library that only compute (pureFuncs).
func (s *site) pureCalls(es ...ast.Expr) bool {
	info := s.info()
	ok := true
	for _, e := range es {
		ast.Inspect(e, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				ok = false
			case *ast.UnaryExpr:
				ok = ok && n.Op != token.ARROW
			case *ast.CallExpr:
				if tv, isT := info.Types[n.Fun]; isT && tv.IsType() {
					return true
				}
				if id, isID := ast.Unparen(n.Fun).(*ast.Ident); isID {
					if b, isB := info.Uses[id].(*types.Builtin); isB {
						switch b.Name() {
						case "len", "cap", "min", "max", "make", "new", "complex", "real", "imag":
							return true
						}
						ok = false
						return false
					}
				}
				f := callee(info, n)
				if f == nil || !pureFuncs[f.Pkg().Path()+"."+f.Name()] && !(f.Pkg().Path() == "strings" || f.Pkg().Path() == "strconv" || f.Pkg().Path() == "unicode") || f.Signature().Recv() != nil {
					ok = false
				}
			}
			return ok
		})
	}
	return ok
}

// pureFuncs are functions of the standard library that only compute a
// value (besides all of strings, strconv and unicode).
var pureFuncs = func() map[string]bool {
	m := map[string]bool{}
	for _, f := range []string{
		"fmt.Sprintf", "fmt.Sprint", "fmt.Sprintln", "fmt.Errorf",
		"errors.New", "errors.Is", "errors.As", "errors.Join", "errors.Unwrap",
		"path.Join", "path.Base", "path.Dir", "path.Ext", "path.Clean", "path.Split",
		"path/filepath.Join", "path/filepath.Base", "path/filepath.Dir", "path/filepath.Ext",
		"path/filepath.Clean", "path/filepath.Rel", "path/filepath.Split", "path/filepath.ToSlash",
		"path/filepath.FromSlash",
		"bytes.Equal", "bytes.HasPrefix", "bytes.HasSuffix", "bytes.Contains",
		"maps.Clone", "slices.Clone", "slices.Contains", "slices.Index",
	} {
		m[f] = true
	}
	return m
}()

// callsCtxFirst reports whether the first call that n makes (outside
// function literals, conversions and pure calls) gets the derived context,
// or a context made from it, as an argument.
func (s *site) callsCtxFirst(n ast.Node, derived map[*types.Var]bool) bool {
	info := s.info()
	var calls []*ast.CallExpr
	ast.Inspect(n, func(m ast.Node) bool {
		switch m := m.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if tv, ok := info.Types[m.Fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
				return true // a conversion, len, ...
			}
			calls = append(calls, m)
		}
		return true
	})
	var first *ast.CallExpr
	for _, c := range calls {
		withCtx := false
		for _, a := range c.Args {
			withCtx = withCtx || derived[varOf(info, a)]
		}
		if withCtx {
			first = c
			break
		}
	}
	if first == nil || funcValue(info, first) {
		// A function value (a variable, parameter or field: a callback,
		// a hook) is not known to return at once on a canceled context:
		// a shutdown hook run for its effects ignores it.
		return false
	}
	// Calls that enclose it run after it; any other must come after it
	// in the source, as Go evaluates calls left to right.
	for _, c := range calls {
		if c != first && !within(first, c) && c.Pos() < first.End() && !s.pureCalls(c) {
			return false
		}
	}
	return true
}

// funcValue reports whether call calls a function value (a variable, a
// parameter, a field, an element, a call's result) rather than a function
// or method declared in the code, or a function literal.
func funcValue(info *types.Info, call *ast.CallExpr) bool {
	if _, isLit := ast.Unparen(call.Fun).(*ast.FuncLit); isLit {
		return false
	}
	_, declared := typeutil.Callee(info, call).(*types.Func)
	return !declared
}

// pureExprs reports whether evaluating the expressions has no effect:
// names, literals, fields, composite literals of such.
func pureExprs(info *types.Info, es []ast.Expr) bool {
	ok := true
	for _, e := range es {
		ast.Inspect(e, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident, *ast.BasicLit, *ast.SelectorExpr, *ast.CompositeLit, *ast.KeyValueExpr, *ast.ParenExpr, nil:
			case *ast.UnaryExpr:
				ok = ok && n.Op != token.ARROW
			default:
				ok = false
			}
			return ok
		})
	}
	return ok
}

// limitText returns the limit for task.ForEach or task.Map, a call at pos,
// from the argument of SetLimit: a constant as it is (a negative one is no
// limit in both), or its value where its text cannot move to pos; a call
// known to return at least 1 as it is. ok is false for SetLimit(0), which
// blocks every Go where task panics, and for a limit not known to be other
// than 0.
func (s *site) limitText(arg ast.Expr, pos token.Pos) (string, bool) {
	info := s.info()
	if tv, ok := info.Types[arg]; ok && tv.Value != nil {
		n, exact := constant.Int64Val(constant.ToInt(tv.Value))
		switch {
		case !exact || n == 0:
			return "", false
		case !s.movable(arg, pos):
			return strconv.FormatInt(n, 10), true
		}
		return s.src(arg), true
	}
	if positive(info, arg) && s.movable(arg, pos) {
		return s.src(arg), true
	}
	return "", false
}

// isVarChain reports whether e is a variable or a chain of fields of one:
// reading it twice gives the same value.
func isVarChain(info *types.Info, e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return varOf(info, e) != nil
	case *ast.SelectorExpr:
		sel, ok := info.Selections[e]
		return ok && sel.Kind() == types.FieldVal && isVarChain(info, e.X)
	}
	return false
}

// positive reports whether e is a call known to return at least 1:
// runtime.NumCPU(), runtime.GOMAXPROCS(n), or max of a positive constant
// or such a call and anything.
func positive(info *types.Info, e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	if id, isID := ast.Unparen(call.Fun).(*ast.Ident); isID && info.Uses[id] == types.Universe.Lookup("max") {
		// max(2, n): at least its largest positive constant.
		for _, a := range call.Args {
			if tv := info.Types[a]; tv.Value != nil {
				if n, exact := constant.Int64Val(constant.ToInt(tv.Value)); exact && n >= 1 {
					return true
				}
			}
			if positive(info, a) {
				return true
			}
		}
		return false
	}
	f := funcOf(info, call, "runtime")
	return f == "NumCPU" || f == "GOMAXPROCS"
}

// forEach rewrites a range loop over a slice whose body only passes a
// closure to g.Go (after copies of the loop variables) to task.ForEach.
func (s *site) forEach() bool {
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
	if !ok || loop.Tok != token.DEFINE && (loop.Key != nil || loop.Value != nil) {
		return false
	}
	if _, isSlice := types.Unalias(info.TypeOf(loop.X)).Underlying().(*types.Slice); !isSlice {
		return false
	}
	stmts := loop.Body.List
	if len(stmts) == 0 {
		return false
	}
	last, ok := stmts[len(stmts)-1].(*ast.ExprStmt)
	if !ok || last.X != s.goCalls[0] {
		return false
	}
	lit := closureOf(s.goCalls[0])
	if lit == nil || !isErrorFunc(info, lit) {
		return false
	}
	key, val := varOf(info, loop.Key), varOf(info, loop.Value)
	// x := x copies, of the value only.
	copies := map[*types.Var]bool{}
	for _, st := range stmts[:len(stmts)-1] {
		as, ok := st.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
			return false
		}
		l, r := varOf(info, as.Lhs[0]), varOf(info, as.Rhs[0])
		if l == nil || r == nil || l.Name() != r.Name() || r != val && r != key {
			return false
		}
		if r == key {
			copies[l] = false // a copy of the index: must be unused
		} else {
			copies[l] = true
		}
	}
	for c, isVal := range copies {
		if !isVal && refers(info, lit, c) {
			return false
		}
	}
	if key != nil && refers(info, lit, key) {
		return false // the index: not ForEach's
	}
	if s.gctx != nil && (refers(info, loop.X, s.gctx) || s.setLimit != nil && refers(info, s.setLimit, s.gctx)) {
		return false
	}
	failFast, ok := s.failFast()
	if !ok {
		return false
	}
	if _, _, ok := s.waitShape(); !ok {
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
	param, ok := f.param(s, lit)
	if !ok {
		return false
	}
	if !strings.Contains(param, " ") {
		param = "_ " + param
	}
	name := "_"
	if val != nil {
		name = val.Name()
		if !refers(info, lit, val) {
			used := false
			for c, isVal := range copies {
				used = used || isVal && refers(info, lit, c)
			}
			if !used {
				name = "_"
			}
		}
	}
	elem := f.im.typeString(types.Unalias(info.TypeOf(loop.X)).Underlying().(*types.Slice).Elem())
	if elem == "" {
		return false
	}
	results := "error"
	if lit.Type.Results != nil {
		results = s.text(lit.Type.Results.Pos(), lit.Type.Results.End())
	}
	fn := fmt.Sprintf("func(%s, %s %s) %s ", param, name, elem, results) + s.text(lit.Body.Pos(), lit.Body.End())
	opts, ok := s.siteOptions(f, !failFast, false)
	if !ok {
		return false
	}
	call := fmt.Sprintf("%s.ForEach(%s, %s, %s, %s, %s)", f.task, ctxText, s.src(loop.X), limit, fn, opts)
	f.edits = append(f.edits, s.deleteCreate(f)...)
	if s.setLimit != nil {
		f.edits = append(f.edits, s.deleteLines(s.setLimit))
	}
	f.edits = append(f.edits, s.deleteLines(loop),
		analysis.TextEdit{Pos: s.waitCall.Pos(), End: s.waitCall.End(), NewText: []byte(call)})
	what := "a failure cancels the calls' context and no call starts after it (errgroup called the rest with a canceled context)"
	if !failFast {
		what = "every call runs, as with errgroup (KeepGoing)"
	}
	what = s.condWhat(what, "call")
	return s.report(f,
		fmt.Sprintf("this loop of %s.Go is task.ForEach: rewrite it to get panics passed to the caller; the error is errgroup's (FirstError); %s", s.group.Name(), what),
		"Rewrite to task.ForEach")
}
