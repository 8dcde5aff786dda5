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
	waitIfNil                  // if err == nil { err = g.Wait() }: Scope only (waitIfNil)
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

// waitIfNil matches a wait that runs only if an error variable is nil, and
// then stores the wait's error in it:
//
//	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
//		g.Go(func() error { ... })
//		return nil
//	})
//	if err == nil {
//		err = g.Wait()
//	}
//
// The Scope's body returns err as its failure, and the wait keeps the
// Scope's error only if err is nil. It returns the variable, and the
// statement of body that declares it (err := ...), if one does: the fix
// declares it before the Scope and assigns it in the body. ok is false if
// the wait has another shape.
func (s *site) waitIfNil(body []ast.Stmt) (v *types.Var, hoist *ast.AssignStmt, ok bool) {
	info := s.info()
	is, isIf := s.wait.(*ast.IfStmt)
	if !isIf || is.Init != nil || is.Else != nil || len(is.Body.List) != 1 || len(body) == 0 {
		return nil, nil, false
	}
	as, isAssign := is.Body.List[0].(*ast.AssignStmt)
	if !isAssign || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 || ast.Unparen(as.Rhs[0]) != s.waitCall {
		return nil, nil, false
	}
	v = varOf(info, as.Lhs[0])
	if v == nil || !isError(v.Type()) || !isNilCheck(info, is.Cond, v) {
		return nil, nil, false
	}
	if s.lookup("error", s.wait.Pos()) != types.Universe.Lookup("error") {
		return nil, nil, false
	}
	// The children must not touch v: the body returns it.
	for _, call := range s.goCalls {
		if refers(info, call.Args[0], v) {
			return nil, nil, false
		}
	}
	for k, st := range body {
		if !declaredIn(v, st) {
			continue
		}
		a, isAssign := st.(*ast.AssignStmt)
		if !isAssign || a.Tok != token.DEFINE || len(a.Lhs) != 1 || info.Defs[a.Lhs[0].(*ast.Ident)] != v {
			return nil, nil, false
		}
		// Declared before the body's statements, v must not hide a
		// variable of the same name that they mention up to its
		// declaration.
		nodes := []ast.Node{a.Rhs[0]}
		for _, st := range body[:k] {
			nodes = append(nodes, st)
		}
		inBody := func(o types.Object) bool { return o.Pos() >= body[0].Pos() && o.Pos() < body[len(body)-1].End() }
		for _, n := range nodes {
			hides := false
			ast.Inspect(n, func(n ast.Node) bool {
				if id, isID := n.(*ast.Ident); isID && id.Name == v.Name() {
					if o := info.Uses[id]; o != nil && !inBody(o) {
						hides = true
					}
				}
				return !hides
			})
			if hides {
				return nil, nil, false
			}
		}
		return v, a, true
	}
	if v.Pos() >= body[0].Pos() {
		return nil, nil, false // declared in a nested block
	}
	return v, nil, true
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
	for _, id := range s.uses(v) {
		for range s.cursorOf(id).Enclosing((*ast.FuncLit)(nil)) {
			return false
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

// errorChecks reports whether every use of the error of the wait compares
// it with nil, or passes it on (to a return, errors.Is, a log): nothing
// compares it with == to another error or asserts its type, which a
// *task.CallError would change. Only Do returns one; the other forms pass
// task.FirstError and return errgroup's error.
func (s *site) errorChecks(v *types.Var) bool {
	info := s.info()
	for _, id := range s.uses(v) {
		cur := s.cursorOf(id)
		switch p := cur.Parent().Node().(type) {
		case *ast.BinaryExpr:
			other := p.X
			if other == id {
				other = p.Y
			}
			if o, ok := other.(*ast.Ident); !ok || info.Uses[o] != types.Universe.Lookup("nil") {
				return false
			}
		case *ast.TypeAssertExpr, *ast.TypeSwitchStmt:
			return false
		case *ast.SwitchStmt:
			return false
		case *ast.AssignStmt:
			for _, r := range p.Rhs {
				if r == id {
					if _, ok := cur.Parent().Parent().Node().(*ast.TypeSwitchStmt); ok {
						return false
					}
				}
			}
		}
	}
	return true
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
