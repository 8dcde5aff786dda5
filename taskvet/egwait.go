package taskvet

import (
	"go/ast"
	"go/token"
	"go/types"
)

// How the statement that waits uses g.Wait().
type waitForm int

const (
	waitIfInit waitForm = iota // if err := g.Wait(); cond {, or err =
	waitAssign                 // err := g.Wait(), or err =
	waitExpr                   // g.Wait() in another expression: return g.Wait(), require.NoError(t, g.Wait())
)

// waitShape returns how the wait statement uses g.Wait(), and for the
// first two forms the assignment; ok is false for a shape no form takes.
func (s *site) waitShape() (form waitForm, as *ast.AssignStmt, ok bool) {
	single := func(a *ast.AssignStmt) bool {
		return a != nil && len(a.Lhs) == 1 && len(a.Rhs) == 1 && ast.Unparen(a.Rhs[0]) == s.waitCall &&
			(a.Tok == token.DEFINE || a.Tok == token.ASSIGN) && !isBlank(a.Lhs[0]) && varOf(s.info(), a.Lhs[0]) != nil
	}
	switch st := s.wait.(type) {
	case *ast.IfStmt:
		a, _ := st.Init.(*ast.AssignStmt)
		if single(a) {
			return waitIfInit, a, true
		}
		if st.Init != nil || !within(s.waitCall, st.Cond) {
			return 0, nil, false
		}
	case *ast.AssignStmt:
		if single(st) {
			return waitAssign, st, true
		}
		return 0, nil, false
	case *ast.ReturnStmt:
	case *ast.ExprStmt:
		call, ok := st.X.(*ast.CallExpr)
		if !ok || !within(s.waitCall, call.Args...) {
			return 0, nil, false
		}
	default:
		return 0, nil, false
	}
	// The error is moved ahead of the statement: no call of it may be
	// evaluated before the wait.
	ok = true
	ast.Inspect(s.wait, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BlockStmt, *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if n.End() <= s.waitCall.Pos() {
				ok = false
			}
		}
		return ok
	})
	return waitExpr, nil, ok
}

// listScope returns the scope of the block that holds the list.
func (s *site) listScope() *types.Scope {
	info := s.info()
	if sc := info.Scopes[s.cur.Node()]; sc != nil {
		return sc
	}
	// A function's body shares the function's scope.
	switch fn := s.cur.Parent().Node().(type) {
	case *ast.FuncDecl:
		return info.Scopes[fn.Type]
	case *ast.FuncLit:
		return info.Scopes[fn.Type]
	}
	return nil
}

// declareErr tells how a statement put in place of the statements from
// list[at] can declare the error variable name for the wait statement and
// the statements after it: with := (a new variable of the block, hiding
// nothing that later statements read) or, when the block already declares
// it before, by assigning it, if nothing reads its old value again. ok is
// false when neither is exact.
func (s *site) declareErr(name string, at int) (tok token.Token, ok bool) {
	info := s.info()
	obj := s.listScope().Lookup(name)
	switch {
	case obj == nil:
		// A new variable: it hides any outer one from the statements
		// after the wait, which must not read it, nor return it with a
		// naked return.
		for _, st := range s.list[s.w+1:] {
			bad := false
			ast.Inspect(st, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.Ident:
					if n.Name == name {
						if o := info.Uses[n]; o != nil && o.Pos().IsValid() && o.Pos() < s.list[at].Pos() {
							bad = true
						}
					}
				case *ast.ReturnStmt:
					if len(n.Results) == 0 && s.namedResult(name) {
						bad = true
					}
				}
				return !bad
			})
			if bad {
				return 0, false
			}
		}
		return token.DEFINE, true
	case obj.Pos() < s.list[at].Pos():
		v, isVar := obj.(*types.Var)
		if !isVar || !isError(v.Type()) || s.namedResult(name) && s.nakedReturnAfter() || !s.deadAfterWait(v) {
			return 0, false
		}
		return token.ASSIGN, true
	}
	return 0, false // declared later in the block
}

// deadAfterWait reports whether no statement after the wait reads v before
// writing it, and no function literal of the function mentions it.
func (s *site) deadAfterWait(v *types.Var) bool {
	info := s.info()
	fn, _ := enclosingFunc(s.cur)
	for _, id := range s.uses(v) {
		for c := range s.cursorOf(id).Enclosing((*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
			if c.Node() != fn {
				return false // in a function literal inside the site's function
			}
			break
		}
	}
	for _, st := range s.list[s.w+1:] {
		if !refers(info, st, v) {
			continue
		}
		as, ok := st.(*ast.AssignStmt)
		if !ok {
			return false
		}
		for _, r := range as.Rhs {
			if refers(info, r, v) {
				return false
			}
		}
		for _, l := range as.Lhs {
			if varOf(info, l) == v {
				return true // written first
			}
		}
		return false
	}
	return true
}

// nakedReturnAfter reports whether a return without results follows the
// wait in the function: it would return what the fix assigned to a named
// result.
func (s *site) nakedReturnAfter() bool {
	fn, _ := enclosingFunc(s.cur)
	found := false
	ast.Inspect(fn, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return n == fn
		case *ast.ReturnStmt:
			if len(n.Results) == 0 && n.Pos() > s.wait.Pos() {
				found = true
			}
		}
		return !found
	})
	return found
}

// namedResult reports whether the function that holds the site has a
// named result called name.
func (s *site) namedResult(name string) bool {
	fn, _ := enclosingFunc(s.cur)
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

// errorStays reports whether every use of v, the wait's error, compares it
// with nil: the error does not leave the function (returned, stored,
// passed to a call), so no code can see that Do's error is a
// *task.CallError rather than errgroup's.
func (s *site) errorStays(v *types.Var) bool {
	info := s.info()
	for _, id := range s.uses(v) {
		b, ok := s.cursorOf(id).Parent().Node().(*ast.BinaryExpr)
		if !ok || b.Op != token.EQL && b.Op != token.NEQ {
			return false
		}
		other := b.X
		if other == ast.Expr(id) {
			other = b.Y
		}
		if o, ok := ast.Unparen(other).(*ast.Ident); !ok || info.Uses[o] != types.Universe.Lookup("nil") {
			return false
		}
	}
	return true
}
