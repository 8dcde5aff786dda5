package taskvet

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// The group in place: where no smaller form fits (RunN, Do, ForEach,
// Map), the errgroup group stays where it is and becomes a task.Group:
//
//	g, ctx := errgroup.WithContext(ctx)   ->  g, ctx := task.NewGroup(ctx, task.FirstError)
//	var g errgroup.Group                  ->  var g task.Group
//	g.Go(func() error { ... })            ->  g.Go(func(context.Context) error { ... })
//
// and the code around the group, its Wait included, stays as it is. A group
// is followed through the variables, parameters and fields it is assigned
// or passed to (a component): all of them change type together, or none.
// The fix is exact, but for the rules that differ (decided in check):
//
//   - a Go after the group's Wait panics, where errgroup ran the function
//     unwaited: every Go must come before the Wait, or after the group is
//     made again (order);
//   - after a failure, a fail-fast group starts no child (errgroup called
//     each with a canceled context): where the children honor the derived
//     context the group is fail-fast; where nothing reads it, KeepGoing;
//     else task.StartAll, errgroup's rule (checkCreates);
//   - task's Go queues a child at the limit where errgroup's blocks the
//     spawner: a Go in a loop over an unbounded source (a channel, a
//     condition, an iterator, a callback) gets task.BlockAtLimit;
//     SetLimit stays as it is (a negative limit is no limit in both), but
//     SetLimit(0), which blocks every Go of errgroup's and panics in
//     task's, has no fix.

// A component is a set of variables, parameters and fields that hold the
// same errgroup groups.
type component struct {
	vars    []*types.Var
	creates []*gcreate   // where a group is made
	events  []*gevent    // Go, TryGo, SetLimit, Wait, and calls that pass the group
	types   []ast.Expr   // errgroup.Group in declarations and literals, to become task.Group
	fields  []*ast.Field // the declarations of parameters and fields
	bad     string       // why there is no fix, or ""
	badPos  token.Pos    // where, for a diagnostic
	funcs   map[*types.Func]bool
	parent  *component
}

// A gcreate is a statement that makes a group of the component.
type gcreate struct {
	cur  inspector.Cursor
	call *ast.CallExpr // errgroup.WithContext(parent), or nil for a zero Group
	gctx *types.Var    // the derived context, nil if blank
	zero ast.Expr      // the zero Group literal (&errgroup.Group{}, new(...)), if any
	decl *ast.DeclStmt // var g errgroup.Group, if so
	v    *types.Var    // the variable or field made

	ctxField bool // the derived context is stored in a field

	zeroStruct bool       // a struct made with v, its zero group: b := &batch{}, new(batch), var b batch
	inst       *types.Var // then the variable it is made in (b), or nil
}

// A gevent is a method call on a group of the component, or a call that
// passes one to a function of the package.
type gevent struct {
	cur    inspector.Cursor
	call   *ast.CallExpr
	method string      // "Go", "TryGo", "SetLimit", "Wait", or "" for a call that passes the group
	callee *types.Func // for method ""
}

// inPlace finds the components of the package and fixes each that the
// rules allow, except those whose variables another form has fixed.
type inPlace struct {
	pass  *analysis.Pass
	in    *inspector.Inspector
	comps map[*types.Var]*component
	decls map[*types.Func]*ast.FuncDecl
	done  map[*types.Var]bool

	policed bool // a test of the package lists its imports: report, fix nothing

	params map[*types.Var]*ast.FuncDecl // the group parameters, and their function (nil: a literal's)

}

func (c *component) root() *component {
	for c.parent != nil {
		c = c.parent
	}
	return c
}

func (ip *inPlace) comp(v *types.Var) *component {
	c := ip.comps[v]
	if c == nil {
		c = &component{vars: []*types.Var{v}}
		ip.comps[v] = c
	}
	return c.root()
}

func (ip *inPlace) union(a, b *types.Var) {
	for _, v := range []*types.Var{a, b} {
		if v.Pkg() != ip.pass.Pkg {
			ip.fail(a, a.Pos(), "stored in "+v.Name()+" of package "+v.Pkg().Path())
		}
	}
	ca, cb := ip.comp(a), ip.comp(b)
	if ca == cb {
		return
	}
	cb.parent = ca
	ca.vars = append(ca.vars, cb.vars...)
	ca.creates = append(ca.creates, cb.creates...)
	ca.events = append(ca.events, cb.events...)
	ca.types = append(ca.types, cb.types...)
	ca.fields = append(ca.fields, cb.fields...)
	if ca.bad == "" {
		ca.bad, ca.badPos = cb.bad, cb.badPos
	}
}

func (ip *inPlace) fail(v *types.Var, pos token.Pos, why string) {
	c := ip.comp(v)
	if c.bad == "" {
		c.bad, c.badPos = why, pos
	}
}

// isGroupType reports whether t is errgroup.Group or *errgroup.Group.
func isGroupType(t types.Type) bool {
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == errgroupPath && n.Obj().Name() == "Group"
}

// groupTypeExprs returns the expressions errgroup.Group in the type
// expression e.
func groupTypeExprs(info *types.Info, e ast.Expr) []ast.Expr {
	var out []ast.Expr
	ast.Inspect(e, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if tn, ok := info.Uses[sel.Sel].(*types.TypeName); ok && tn.Pkg() != nil && tn.Pkg().Path() == errgroupPath && tn.Name() == "Group" {
				out = append(out, sel)
			}
			return false
		}
		return true
	})
	return out
}

// runInPlace collects the components of the package and reports each.
func runInPlace(pass *analysis.Pass, in *inspector.Inspector, done map[*types.Var]bool, policed bool) {
	ip := &inPlace{pass: pass, in: in, comps: map[*types.Var]*component{}, decls: map[*types.Func]*ast.FuncDecl{}, done: done, params: map[*types.Var]*ast.FuncDecl{}, policed: policed}
	info := pass.TypesInfo
	for cur := range in.Root().Preorder((*ast.FuncDecl)(nil)) {
		fd := cur.Node().(*ast.FuncDecl)
		if f, ok := info.Defs[fd.Name].(*types.Func); ok {
			ip.decls[f] = fd
		}
	}
	ip.sameFields()
	for cur := range in.Root().Preorder((*ast.CompositeLit)(nil), (*ast.CallExpr)(nil), (*ast.ValueSpec)(nil)) {
		ip.zeroFields(cur)
	}
	for cur := range in.Root().Preorder((*ast.SelectorExpr)(nil)) {
		ip.visitPromoted(cur)
	}
	for cur := range in.Root().Preorder((*ast.Ident)(nil)) {
		id := cur.Node().(*ast.Ident)
		v, ok := info.ObjectOf(id).(*types.Var)
		if !ok || v.Pkg() != pass.Pkg || !isGroupType(v.Type()) {
			continue
		}
		ip.visit(cur, id, v)
	}
	seen := map[*component]bool{}
	var comps []*component
	for _, c := range ip.comps {
		if c = c.root(); !seen[c] {
			seen[c] = true
			comps = append(comps, c)
		}
	}
	sort.Slice(comps, func(i, j int) bool { return comps[i].firstPos() < comps[j].firstPos() })
	for _, c := range comps {
		ip.report(c)
	}
}

func (c *component) firstPos() token.Pos {
	p := token.Pos(1 << 62)
	for _, v := range c.vars {
		p = min(p, v.Pos())
	}
	return p
}

// visit classifies one mention of a group variable.
func (ip *inPlace) visit(cur inspector.Cursor, id *ast.Ident, v *types.Var) {
	info := ip.pass.TypesInfo
	if v.Parent() == ip.pass.Pkg.Scope() {
		ip.fail(v, id.Pos(), "a package-level variable")
		return
	}
	if info.Defs[id] == v {
		ip.visitDef(cur, id, v)
		return
	}
	// e is the expression that denotes the group: id, or x.f for a field.
	e, ecur := ast.Expr(id), cur
	if sel, ok := cur.Parent().Node().(*ast.SelectorExpr); ok && sel.Sel == id {
		e, ecur = sel, cur.Parent()
	}
	if kv, ok := cur.Parent().Node().(*ast.KeyValueExpr); ok && kv.Key == id {
		// T{g: value}: the field made or assigned in a literal.
		ip.assignFrom(v, kv.Value, cur, id.Pos())
		return
	}
	p := ecur.Parent()
	switch pn := p.Node().(type) {
	case *ast.SelectorExpr:
		call, ok := p.Parent().Node().(*ast.CallExpr)
		if !ok || call.Fun != pn {
			ip.fail(v, id.Pos(), "a method value of the group")
			return
		}
		switch name := pn.Sel.Name; name {
		case "Go", "TryGo", "SetLimit", "Wait":
			ip.comp(v).events = append(ip.comp(v).events, &gevent{cur: p.Parent(), call: call, method: name})
		default:
			ip.fail(v, id.Pos(), "a call of "+name)
		}
		return
	case *ast.UnaryExpr:
		if pn.Op != token.AND {
			ip.fail(v, id.Pos(), "an operand")
			return
		}
		ip.visitValue(p, pn, v, id)
		return
	case *ast.BinaryExpr:
		if o, ok := ast.Unparen(otherSide(pn, e)).(*ast.Ident); ok && info.Uses[o] == types.Universe.Lookup("nil") {
			return // g != nil
		}
		ip.fail(v, id.Pos(), "compared")
		return
	case *ast.AssignStmt:
		if slices.Contains(pn.Lhs, e) {
			ip.assignLHS(p, pn, e, v)
			return
		}
	}
	ip.visitValue(ecur, e, v, id)
}

func otherSide(b *ast.BinaryExpr, e ast.Expr) ast.Expr {
	if b.X == e {
		return b.Y
	}
	return b.X
}

// visitValue classifies e, the group or its address, used as a value:
// passed to a function of the package, or assigned to another group
// variable.
func (ip *inPlace) visitValue(ecur inspector.Cursor, e ast.Expr, v *types.Var, id *ast.Ident) {
	info := ip.pass.TypesInfo
	p := ecur.Parent()
	switch pn := p.Node().(type) {
	case *ast.ParenExpr:
		ip.visitValue(p, pn, v, id)
		return
	case *ast.CallExpr:
		k := slices.Index(pn.Args, e)
		if k < 0 {
			break
		}
		f := typeutil.StaticCallee(info, pn)
		fd := ip.decls[f]
		if f == nil || fd == nil || pn.Ellipsis.IsValid() {
			ip.fail(v, id.Pos(), fmt.Sprintf("passed to %s", types.ExprString(pn.Fun)))
			return
		}
		params := f.Signature().Params()
		if k >= params.Len() || f.Signature().Variadic() && k >= params.Len()-1 {
			ip.fail(v, id.Pos(), "passed to a variadic parameter")
			return
		}
		param := params.At(k)
		if !isGroupType(param.Type()) || param.Name() == "" || param.Name() == "_" {
			ip.fail(v, id.Pos(), fmt.Sprintf("passed to %s", f.Name()))
			return
		}
		c := ip.comp(v)
		if c.funcs == nil {
			c.funcs = map[*types.Func]bool{}
		}
		c.funcs[f] = true
		c.events = append(c.events, &gevent{cur: p, call: pn, callee: f})
		ip.union(v, param)
		return
	case *ast.AssignStmt:
		if k := slices.Index(pn.Rhs, e); k >= 0 && len(pn.Lhs) == len(pn.Rhs) {
			if w := varOf(info, pn.Lhs[k]); w != nil && isGroupType(w.Type()) {
				ip.union(v, w)
				return
			}
			if sel, ok := pn.Lhs[k].(*ast.SelectorExpr); ok {
				if w, ok := info.Uses[sel.Sel].(*types.Var); ok && w.IsField() && isGroupType(w.Type()) {
					ip.union(v, w)
					return
				}
			}
		}
	case *ast.CompositeLit:
		// T{g, ctx}: the field at g's index.
		if k := slices.Index(pn.Elts, e); k >= 0 {
			if st, ok := types.Unalias(info.TypeOf(pn)).Underlying().(*types.Struct); ok && k < st.NumFields() && isGroupType(st.Field(k).Type()) {
				ip.union(v, st.Field(k))
				return
			}
		}
	case *ast.KeyValueExpr:
		if pn.Value == e {
			if key, ok := pn.Key.(*ast.Ident); ok {
				if w, ok := info.Uses[key].(*types.Var); ok && w.IsField() && isGroupType(w.Type()) {
					ip.union(v, w)
					return
				}
			}
		}
	case *ast.ValueSpec:
		if k := slices.Index(pn.Values, e); k >= 0 && len(pn.Names) == len(pn.Values) {
			if w, ok := info.Defs[pn.Names[k]].(*types.Var); ok && isGroupType(w.Type()) {
				ip.union(v, w)
				return
			}
		}
	case *ast.ReturnStmt:
		ip.fail(v, id.Pos(), "returned")
		return
	}
	ip.fail(v, id.Pos(), fmt.Sprintf("used in a %s", strings.TrimPrefix(fmt.Sprintf("%T", p.Node()), "*ast.")))
}

// sameFields unites the group fields of identical struct types written
// as literals (struct{ *errgroup.Group; ctx context.Context } in a field's
// declaration and in the composite literal assigned to it): each literal
// declares fields of its own, which must change type together.
func (ip *inPlace) sameFields() {
	info := ip.pass.TypesInfo
	first := map[string]*types.Var{}
	for cur := range ip.in.Root().Preorder((*ast.StructType)(nil)) {
		if _, named := cur.Parent().Node().(*ast.TypeSpec); named {
			continue
		}
		st, ok := info.TypeOf(cur.Node().(*ast.StructType)).(*types.Struct)
		if !ok {
			continue
		}
		for i := range st.NumFields() {
			f := st.Field(i)
			if !isGroupType(f.Type()) {
				continue
			}
			key := fmt.Sprintf("%s#%d", types.TypeString(st, nil), i)
			if g := first[key]; g != nil {
				ip.union(g, f)
			} else {
				first[key] = f
			}
		}
	}
}

// zeroFields records the zero groups that a struct's making makes: the
// errgroup.Group fields, not pointers, of a keyed literal that leaves them
// out (b := &batch{n: 1}), of new(batch), and of a local var b batch.
func (ip *inPlace) zeroFields(cur inspector.Cursor) {
	info := ip.pass.TypesInfo
	set := map[string]bool{}
	var t types.Type
	switch n := cur.Node().(type) {
	case *ast.CompositeLit:
		t = info.TypeOf(n)
		for _, e := range n.Elts {
			kv, keyed := e.(*ast.KeyValueExpr)
			if !keyed {
				return // positional: every field is set
			}
			if id, ok := kv.Key.(*ast.Ident); ok {
				set[id.Name] = true
			}
		}
	case *ast.CallExpr:
		id, ok := ast.Unparen(n.Fun).(*ast.Ident)
		if !ok || info.Uses[id] != types.Universe.Lookup("new") || len(n.Args) != 1 {
			return
		}
		t = info.TypeOf(n.Args[0])
	case *ast.ValueSpec:
		if _, local := cur.Parent().Parent().Node().(*ast.DeclStmt); !local || len(n.Values) != 0 || n.Type == nil {
			return
		}
		t = info.TypeOf(n.Type)
	}
	if t == nil {
		return
	}
	st, ok := types.Unalias(t).Underlying().(*types.Struct)
	if !ok {
		return
	}
	for i := range st.NumFields() {
		f := st.Field(i)
		if _, ptr := types.Unalias(f.Type()).(*types.Pointer); ptr || set[f.Name()] || f.Pkg() != ip.pass.Pkg || !isGroupType(f.Type()) {
			continue
		}
		c := ip.comp(f)
		c.creates = append(c.creates, &gcreate{cur: cur, v: f, zeroStruct: true, inst: madeIn(info, cur)})
	}
}

// madeIn returns the variable that the struct made at cur is assigned to
// or declares (b := &batch{}, b = new(batch), var b batch), or nil.
func madeIn(info *types.Info, cur inspector.Cursor) *types.Var {
	if vs, ok := cur.Node().(*ast.ValueSpec); ok {
		if len(vs.Names) != 1 {
			return nil
		}
		v, _ := info.Defs[vs.Names[0]].(*types.Var)
		return v
	}
	e := cur.Node().(ast.Expr)
	p := cur.Parent()
	if u, ok := p.Node().(*ast.UnaryExpr); ok && u.Op == token.AND {
		e, p = u, p.Parent()
	}
	as, ok := p.Node().(*ast.AssignStmt)
	if !ok || len(as.Lhs) != len(as.Rhs) {
		return nil
	}
	k := slices.Index(as.Rhs, e)
	if k < 0 {
		return nil
	}
	id, ok := as.Lhs[k].(*ast.Ident)
	if !ok {
		return nil
	}
	return varOf(info, id)
}

// visitPromoted classifies x.Go(...), where x embeds a group of the
// package: a call of the group's method through the struct.
func (ip *inPlace) visitPromoted(cur inspector.Cursor) {
	info := ip.pass.TypesInfo
	sel := cur.Node().(*ast.SelectorExpr)
	selection := info.Selections[sel]
	if selection == nil || len(selection.Index()) < 2 {
		return
	}
	// The field that the last step of the path leaves from.
	t, path := selection.Recv(), selection.Index()
	var f *types.Var
	for _, idx := range path[:len(path)-1] {
		if p, ok := types.Unalias(t).Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := types.Unalias(t).Underlying().(*types.Struct)
		if !ok {
			return
		}
		f = st.Field(idx)
		t = f.Type()
	}
	if f == nil || !f.Embedded() || !isGroupType(f.Type()) || f.Pkg() != ip.pass.Pkg {
		return
	}
	call, ok := cur.Parent().Node().(*ast.CallExpr)
	if !ok || call.Fun != sel || selection.Kind() != types.MethodVal {
		ip.fail(f, sel.Pos(), "a method value of the group")
		return
	}
	switch name := sel.Sel.Name; name {
	case "Go", "TryGo", "SetLimit", "Wait":
		c := ip.comp(f)
		c.events = append(c.events, &gevent{cur: cur.Parent(), call: call, method: name})
	default:
		ip.fail(f, sel.Pos(), "a call of "+name)
	}
}

// visitEmbedded classifies a group embedded in a struct, whose methods the
// struct promotes. Its field keeps its name, Group, as task.Group; no
// other embedded field may promote methods that task.Group's could
// collide with, and the struct must not be one that other packages use.
func (ip *inPlace) visitEmbedded(cur inspector.Cursor, id *ast.Ident, v *types.Var) {
	info := ip.pass.TypesInfo
	var field *ast.Field
	var fcur inspector.Cursor
	for c := range cur.Enclosing((*ast.Field)(nil)) {
		field, fcur = c.Node().(*ast.Field), c
		break
	}
	if field == nil {
		ip.fail(v, id.Pos(), "an embedded field")
		return
	}
	if list, ok := fcur.Parent().Node().(*ast.FieldList); ok {
		for _, o := range list.List {
			if o != field && len(o.Names) == 0 {
				ip.fail(v, id.Pos(), "embedded next to another embedded field, whose methods could collide with task.Group's")
				return
			}
		}
	}
	if name := exportedHolder(fcur); name != "" {
		ip.fail(v, id.Pos(), "embedded in "+name+", which other packages can use")
		return
	}
	c := ip.comp(v)
	c.fields = append(c.fields, field)
	c.types = append(c.types, groupTypeExprs(info, field.Type)...)
}

// exportedHolder returns the exported name of the type, field or function
// that holds the declaration at cur, or "".
func exportedHolder(cur inspector.Cursor) string {
	for c := range cur.Enclosing() {
		switch n := c.Node().(type) {
		case *ast.TypeSpec:
			if n.Name.IsExported() {
				return n.Name.Name
			}
		case *ast.Field:
			for _, name := range n.Names {
				if name.IsExported() {
					return name.Name
				}
			}
		case *ast.ValueSpec:
			if _, local := c.Parent().Parent().Node().(*ast.DeclStmt); !local {
				for _, name := range n.Names {
					if name.IsExported() {
						return name.Name
					}
				}
			}
		case *ast.FuncDecl:
			if n.Name.IsExported() && !within(cur.Node(), n.Body) {
				return n.Name.Name
			}
			return ""
		case *ast.BlockStmt:
			return "" // a local type or variable
		}
	}
	return ""
}

// visitDef classifies the declaration of a group variable, parameter or
// field.
func (ip *inPlace) visitDef(cur inspector.Cursor, id *ast.Ident, v *types.Var) {
	info := ip.pass.TypesInfo
	c := ip.comp(v)
	if v.Embedded() {
		ip.visitEmbedded(cur, id, v)
		return
	}
	switch pn := cur.Parent().Node().(type) {
	case *ast.Field:
		if len(pn.Names) == 0 {
			ip.fail(v, id.Pos(), "an embedded field")
			return
		}
		if _, isResults := cur.Parent().Parent().Node().(*ast.FieldList); isResults {
			if ft, ok := cur.Parent().Parent().Parent().Node().(*ast.FuncType); ok && ft.Results == cur.Parent().Parent().Node() {
				ip.fail(v, id.Pos(), "a result")
				return
			}
		}
		if fl, ok := cur.Parent().Parent().Node().(*ast.FieldList); ok {
			if ft, ok := cur.Parent().Parent().Parent().Node().(*ast.FuncType); ok && ft.Params == fl {
				fd, _ := cur.Parent().Parent().Parent().Parent().Node().(*ast.FuncDecl)
				ip.params[v] = fd // nil for a function literal's
			}
		}
		if v.IsField() && v.Exported() {
			ip.fail(v, id.Pos(), "an exported field")
			return
		}
		if pn.Names[0] == id {
			c.fields = append(c.fields, pn)
			c.types = append(c.types, groupTypeExprs(info, pn.Type)...)
			for _, n := range pn.Names[1:] {
				if w, ok := info.Defs[n].(*types.Var); ok {
					ip.union(v, w) // one type for all the names
				}
			}
		}
	case *ast.ValueSpec:
		k := slices.Index(pn.Names, id)
		ds, _ := cur.Parent().Parent().Parent().Node().(*ast.DeclStmt)
		if ds == nil {
			ip.fail(v, id.Pos(), "a package-level variable")
			return
		}
		if pn.Type != nil && pn.Names[0] == id {
			c.types = append(c.types, groupTypeExprs(info, pn.Type)...)
			for _, n := range pn.Names[1:] {
				if w, ok := info.Defs[n].(*types.Var); ok {
					ip.union(v, w)
				}
			}
		}
		switch {
		case len(pn.Values) == 0:
			if _, ptr := types.Unalias(v.Type()).(*types.Pointer); !ptr {
				cr := &gcreate{cur: cur, v: v}
				if len(pn.Names) == 1 && len(ds.Decl.(*ast.GenDecl).Specs) == 1 {
					cr.decl = ds
				}
				c.creates = append(c.creates, cr)
			}
		case len(pn.Values) == len(pn.Names):
			ip.assignFrom(v, pn.Values[k], cur, id.Pos())
		case len(pn.Values) == 1 && len(pn.Names) == 2 && k == 0 && isWithContext(info, pn.Values[0]):
			// var g, ctx = errgroup.WithContext(parent), alone or in a
			// var block: the statement that makes the group.
			cr := &gcreate{cur: cur, call: ast.Unparen(pn.Values[0]).(*ast.CallExpr), v: v}
			if !isBlank(pn.Names[1]) {
				cr.gctx, _ = info.Defs[pn.Names[1]].(*types.Var)
			}
			c.creates = append(c.creates, cr)
		default:
			ip.fail(v, id.Pos(), "declared from a call")
		}
	case *ast.AssignStmt:
		ip.assignLHS(cur.Parent(), pn, id, v)
	default:
		ip.fail(v, id.Pos(), "declared by a "+strings.TrimPrefix(fmt.Sprintf("%T", cur.Parent().Node()), "*ast."))
	}
}

// isWithContext reports whether e is a call of errgroup.WithContext.
func isWithContext(info *types.Info, e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	return ok && funcOf(info, call, errgroupPath) == "WithContext"
}

// assignLHS classifies an assignment to a group variable or field.
func (ip *inPlace) assignLHS(cur inspector.Cursor, as *ast.AssignStmt, lhs ast.Expr, v *types.Var) {
	info := ip.pass.TypesInfo
	if as.Tok != token.DEFINE && as.Tok != token.ASSIGN {
		ip.fail(v, lhs.Pos(), "an operand")
		return
	}
	k := slices.Index(as.Lhs, lhs)
	if len(as.Rhs) == 1 && len(as.Lhs) == 2 && k == 0 {
		call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
		if ok && funcOf(info, call, errgroupPath) == "WithContext" {
			cr := &gcreate{cur: cur, call: call, v: v}
			if !isBlank(as.Lhs[1]) {
				cr.gctx = varOf(info, as.Lhs[1])
				if cr.gctx == nil {
					// s.g, s.ctx = errgroup.WithContext(ctx): the
					// context is read wherever the struct is.
					if sel, ok := as.Lhs[1].(*ast.SelectorExpr); !ok || !isContext(info.TypeOf(sel)) {
						ip.fail(v, lhs.Pos(), "its context stored in "+types.ExprString(as.Lhs[1]))
						return
					}
					cr.ctxField = true
				}
			}
			c := ip.comp(v)
			c.creates = append(c.creates, cr)
			return
		}
	}
	if len(as.Lhs) != len(as.Rhs) {
		ip.fail(v, lhs.Pos(), "assigned from a call")
		return
	}
	ip.assignFrom(v, as.Rhs[k], cur, lhs.Pos())
}

// assignFrom classifies the value rhs assigned to v by the statement or
// literal at cur.
func (ip *inPlace) assignFrom(v *types.Var, rhs ast.Expr, cur inspector.Cursor, pos token.Pos) {
	info := ip.pass.TypesInfo
	if isZeroGroup(info, rhs) {
		c := ip.comp(v)
		c.creates = append(c.creates, &gcreate{cur: cur, zero: rhs, v: v})
		c.types = append(c.types, groupTypeExprs(info, rhs)...)
		return
	}
	// Another group of the package (its own mention unites them), or nil.
	e := ast.Unparen(rhs)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	var id *ast.Ident
	switch r := e.(type) {
	case *ast.Ident:
		id = r
	case *ast.SelectorExpr:
		id = r.Sel
	}
	if id != nil {
		switch o := info.Uses[id].(type) {
		case *types.Nil:
			return
		case *types.Var:
			if o.Pkg() == ip.pass.Pkg && isGroupType(o.Type()) && o.Parent() != ip.pass.Pkg.Scope() {
				return
			}
		}
	}
	ip.fail(v, pos, "assigned from "+types.ExprString(rhs))
}

// report checks the component and reports it with its fix.
func (ip *inPlace) report(c *component) {
	for _, v := range c.vars {
		if ip.done[v] {
			return // another form fixed a group of it
		}
	}
	if len(c.creates) == 0 && len(c.events) == 0 {
		return
	}
	hasField := false
	for _, v := range c.vars {
		hasField = hasField || v.IsField()
	}
	if len(c.creates) == 0 && !hasField {
		if len(c.events) == 0 && c.bad == "" {
			return // parameters of functions that nothing here calls with a group
		}
		// A group that no statement of the package makes: a parameter
		// that other packages fill, a variable assigned from a call.
		why, do := (&check{ip: ip, c: c}).run()
		if why == "" {
			why, do = "no statement of this package makes it (a parameter, or a variable assigned from a call)", "migrate the code that makes the group, then this one, or make it a task.Group by hand"
		}
		ip.noFix(c, why, do)
		return
	}
	for _, cr := range c.creates {
		if ip.kept(cr.cur.Node()) {
			return
		}
	}
	if ip.policed {
		ip.noFix(c, "a test of this package names "+errgroupPath+" in a string (a list of the imports it allows), which the task package's import would fail",
			"migrate by hand and add the task package to that list, or keep errgroup here")
		return
	}
	x := &check{ip: ip, c: c}
	if why, do := x.run(); why != "" {
		ip.noFix(c, why, do)
		return
	}
	x.fix()
}

// noFix reports a component that keeps errgroup: why, and what a person
// would change. No group that taskvet sees is left without a word.
func (ip *inPlace) noFix(c *component, why, do string) {
	if debugInPlace {
		fmt.Fprintf(os.Stderr, "%s: in place: %s\n", ip.pass.Fset.Position(c.firstPos()), why)
	}
	pos, what := token.NoPos, "errgroup group ("+varNames(c)+")"
	for _, v := range c.vars {
		if v.IsField() {
			pos, what = v.Pos(), "errgroup group in a field ("+fieldNames(c)+")"
			break
		}
	}
	if pos == token.NoPos {
		for _, cr := range c.creates {
			if p := cr.cur.Node().Pos(); pos == token.NoPos || p < pos {
				pos = p
			}
		}
	}
	if pos == token.NoPos {
		pos = c.firstPos()
	}
	ip.pass.Report(analysis.Diagnostic{Pos: pos, Message: fmt.Sprintf("%s not migrated: %s; %s", what, why, do)})
	// Each place that makes the group says so too, so that no site of it
	// is left without a word where a reader looks.
	seen := map[string]bool{ip.where(pos): true}
	for _, cr := range c.creates {
		p := cr.cur.Node().Pos()
		if at := ip.where(p); !seen[at] {
			seen[at] = true
			ip.pass.Report(analysis.Diagnostic{Pos: p, Message: fmt.Sprintf("%s made here is not migrated: see %s", what, ip.where(pos))})
		}
	}
}

// where names pos in a message: the file's base name and the line, which
// the diagnostic's own position completes.
func (ip *inPlace) where(pos token.Pos) string {
	p := ip.pass.Fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}

// varNames returns the names of the variables of the component, once
// each.
func varNames(c *component) string {
	var names []string
	for _, v := range c.vars {
		if !slices.Contains(names, v.Name()) {
			names = append(names, v.Name())
		}
	}
	return strings.Join(names, ", ")
}

func fieldNames(c *component) string {
	var names []string
	for _, v := range c.vars {
		if v.IsField() {
			names = append(names, v.Name())
		}
	}
	return strings.Join(names, ", ")
}

// kept reports whether n carries the keep directive on its line or the
// line above.
func (ip *inPlace) kept(n ast.Node) bool {
	pass := ip.pass
	for _, f := range pass.Files {
		if f.FileStart > n.Pos() || n.Pos() >= f.FileEnd {
			continue
		}
		line := pass.Fset.PositionFor(n.Pos(), false).Line
		for _, cg := range f.Comments {
			for _, cm := range cg.List {
				if l := pass.Fset.PositionFor(cm.Pos(), false).Line; (l == line || l == line-1) && strings.HasPrefix(cm.Text, keepDirective) {
					return true
				}
			}
		}
	}
	return false
}

// debugInPlace prints why each group has no fix in place (TASKVET_DEBUG=1).
var debugInPlace = os.Getenv("TASKVET_DEBUG") != ""
