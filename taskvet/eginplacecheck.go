package taskvet

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
)

// A check decides whether a component has a fix in place, and builds it.
type check struct {
	ip *inPlace
	c  *component

	children  map[*ast.FuncLit]bool // the function literals passed to Go and TryGo
	home      map[ast.Node]ast.Node // the FuncDecl of each event and create (by node), or root
	root      *ast.FuncLit          // the function literal that holds a local group, its Go and its Wait (see localRoot)
	hasGo     map[ast.Node]bool     // FuncDecls that call Go on the component, directly or through a call
	hasWait   map[ast.Node]bool
	limited   bool              // a SetLimit other than a negative constant
	block     bool              // task.BlockAtLimit is needed
	goCalls   int64             // how many Go calls, at most, where it is not
	keepGoing map[*gcreate]bool // task.KeepGoing: nothing reads the derived context
	rounds    bool              // a Go may follow a Wait of the zero Group: a new round
	startAll  map[*gcreate]bool // task.StartAll: fail-fast is not exact
}

func (x *check) info() *types.Info { return x.ip.pass.TypesInfo }

// funcDeclOf returns the FuncDecl around cur, or nil.
func funcDeclOf(cur inspector.Cursor) *ast.FuncDecl {
	for c := range cur.Enclosing((*ast.FuncDecl)(nil)) {
		return c.Node().(*ast.FuncDecl)
	}
	return nil
}

// localRoot returns the function literal that makes a group held only in
// local variables, and holds every use of it, if that literal is not a
// child of the group: the group lives and ends in that literal (a command's
// Action, a goroutine's body, a test helper's cleanup), which is then its
// home as a FuncDecl is for others.
func (x *check) localRoot() *ast.FuncLit {
	for _, v := range x.c.vars {
		if _, isParam := x.ip.params[v]; isParam || v.IsField() {
			return nil
		}
	}
	if len(x.c.creates) == 0 {
		return nil
	}
	var root *ast.FuncLit
	for c := range x.c.creates[0].cur.Enclosing((*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
		root, _ = c.Node().(*ast.FuncLit)
		break
	}
	if root == nil || x.children[root] {
		return nil
	}
	for _, cr := range x.c.creates {
		if !within(cr.cur.Node(), root) {
			return nil
		}
	}
	for _, e := range x.c.events {
		if !within(e.call, root) {
			return nil
		}
	}
	return root
}

// homeName names a home: its function's name, or "a function literal".
func homeName(h ast.Node) string {
	if fd, ok := h.(*ast.FuncDecl); ok {
		return fd.Name.Name
	}
	return "a function literal"
}

// homeOf returns the function that holds cur for the checks: root, or the
// FuncDecl around cur, or nil.
func (x *check) homeOf(cur inspector.Cursor) ast.Node {
	if x.root != nil && within(cur.Node(), x.root) {
		return x.root
	}
	if fd := funcDeclOf(cur); fd != nil {
		return fd
	}
	return nil
}

// litKind tells where an event runs with respect to the function that
// holds it: in a child, in a goroutine of its own, deferred, in another
// function literal (a callback), or in the function itself.
type litKind int

const (
	inFunc litKind = iota
	inChild
	inGoStmt
	inDefer
	inCallback
)

func (x *check) where(cur inspector.Cursor) litKind {
	// The call itself under go or defer: go g.Wait(), defer g.Wait().
	switch cur.Parent().Node().(type) {
	case *ast.GoStmt:
		return inGoStmt
	case *ast.DeferStmt:
		return inDefer
	}
	kind := inFunc
	for c := range cur.Enclosing((*ast.FuncLit)(nil)) {
		lit := c.Node().(*ast.FuncLit)
		if lit == x.root {
			break
		}
		if x.children[lit] {
			return inChild
		}
		if call, ok := c.Parent().Node().(*ast.CallExpr); ok && call.Fun == lit {
			switch call := c.Parent().Parent().Node().(type) {
			case *ast.GoStmt:
				_ = call
				if kind == inFunc {
					kind = inGoStmt
				}
				continue
			case *ast.DeferStmt:
				if kind == inFunc {
					kind = inDefer
				}
				continue
			}
		}
		if kind == inFunc {
			kind = inCallback
		}
	}
	return kind
}

// What a person would change, by the rule that refused the fix: every
// group left as it is gets a diagnostic that says why and what to do.
const (
	doBad     = "keep the group in this package's local variables, unexported fields and parameters of unexported functions, then run taskvet again; or make it a task.Group by hand"
	doFuncs   = "make that function unexported and call it directly, then run taskvet again; or change it and its callers by hand"
	doFields  = "make the group where taskvet sees it (errgroup.WithContext or a zero Group in this package), then run taskvet again; or make the field a *task.Group by hand"
	doOrder   = "make a new group for each round of Go calls (errgroup.WithContext again after the Wait), or keep errgroup here (" + keepDirective + ")"
	doLimits  = "call SetLimit once, with a nonzero limit, right after the group is made"
	doCreates = "make the zero Group with var g errgroup.Group or g := &errgroup.Group{}"
	doArg     = "assign the function to a variable declared once before the Go, or pass a function literal"
)

// run returns why the component has no fix and what a person would
// change, or "".
func (x *check) run() (why, do string) {
	c, info := x.c, x.info()
	if c.bad != "" {
		return fmt.Sprintf("the group is %s (%s)", c.bad, x.ip.where(c.badPos)), doBad
	}
	if why := x.checkFuncs(); why != "" {
		return why, doFuncs
	}
	x.children = map[*ast.FuncLit]bool{}
	for _, e := range c.events {
		if (e.method == "Go" || e.method == "TryGo") && len(e.call.Args) == 1 {
			if lit, ok := ast.Unparen(e.call.Args[0]).(*ast.FuncLit); ok {
				x.children[lit] = true
			}
		}
	}
	x.root = x.localRoot()
	x.home = map[ast.Node]ast.Node{}
	for _, e := range c.events {
		fd := x.homeOf(e.cur)
		if fd == nil {
			return "a group used outside a function", doBad
		}
		x.home[e.call] = fd
	}
	for _, cr := range c.creates {
		fd := x.homeOf(cr.cur)
		if fd == nil {
			return "a group made outside a function", doBad
		}
		x.home[cr.cur.Node()] = fd
	}
	x.closeHas()
	if why := x.checkFields(); why != "" {
		return why, doFields
	}
	if why := x.checkOrder(); why != "" {
		return why, doOrder
	}
	if why := x.checkLimits(); why != "" {
		return why, doLimits
	}
	if why := x.checkCreates(); why != "" {
		return why, doCreates
	}
	for _, e := range c.events {
		if e.method != "Go" && e.method != "TryGo" {
			continue
		}
		if len(e.call.Args) != 1 {
			return "a Go with another argument", doArg
		}
		arg := e.call.Args[0]
		if lit, ok := ast.Unparen(arg).(*ast.FuncLit); ok {
			if !isErrorFunc(info, lit) {
				return "a Go of another function type", doArg
			}
			continue
		}
		if _, _, isFactory := closureFactory(info, arg); isFactory {
			continue
		}
		if call, isCall := ast.Unparen(arg).(*ast.CallExpr); isCall && !info.Types[call.Fun].IsType() && isErrorFuncType(info.TypeOf(arg)) {
			if x.hoisted(e) == nil {
				return fmt.Sprintf("a Go of %s that is not a statement of its own, where the fix would evaluate the call first", types.ExprString(arg)), doArg
			}
			continue
		}
		if stableFunc(info, arg) == nil && !x.stableVar(arg) {
			return fmt.Sprintf("a Go of %s, which may change before the child runs", types.ExprString(arg)), doArg
		}
	}
	return "", ""
}

// checkFuncs checks the functions that the group is passed to: declared
// here, not exported (another package could pass its own errgroup), and
// only called, so that the type of their parameter can change.
func (x *check) checkFuncs() string {
	pass := x.ip.pass
	info := x.info()
	for _, v := range x.c.vars {
		fd, isParam := x.ip.params[v]
		if !isParam {
			continue
		}
		if fd == nil {
			return "a parameter of a function literal"
		}
		f, _ := info.Defs[fd.Name].(*types.Func)
		if f == nil {
			return "a parameter of an unnamed function"
		}
		if f.Exported() && pass.Pkg.Name() != "main" {
			return fmt.Sprintf("passed to %s, which other packages can call with their own errgroup", f.Name())
		}
		for id, obj := range info.Uses {
			if obj != f {
				continue
			}
			cur, ok := x.ip.in.Root().FindNode(id)
			if !ok {
				return "passed to " + f.Name()
			}
			p := cur.Parent()
			if sel, ok := p.Node().(*ast.SelectorExpr); ok && sel.Sel == id {
				p = p.Parent()
				cur = cur.Parent()
			}
			call, ok := p.Node().(*ast.CallExpr)
			if !ok || call.Fun != cur.Node() {
				return fmt.Sprintf("passed to %s, which is used as a value", f.Name())
			}
		}
	}
	return ""
}

// closeHas computes which functions call Go or Wait on the component,
// directly or through the functions they pass it to.
func (x *check) closeHas() {
	x.hasGo, x.hasWait = map[ast.Node]bool{}, map[ast.Node]bool{}
	for _, e := range x.c.events {
		switch e.method {
		case "Go", "TryGo":
			x.hasGo[x.home[e.call]] = true
		case "Wait":
			x.hasWait[x.home[e.call]] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for _, e := range x.c.events {
			if e.method != "" {
				continue
			}
			fd := x.ip.decls[e.callee]
			h := x.home[e.call]
			if x.hasGo[fd] && !x.hasGo[h] {
				x.hasGo[h], changed = true, true
			}
			if x.hasWait[fd] && !x.hasWait[h] {
				x.hasWait[h], changed = true, true
			}
		}
	}
}

// checkFields allows a group in a field given children by methods: where
// every Go (outside its children) follows, in its function, a statement
// that makes the group again, each run has a group of its own; where one
// does not, a Go may follow the Wait, which begins a new round in task's
// group as in errgroup's (a restartable service reuses its group). A
// group made where taskvet does not see it has no fix.
func (x *check) checkFields() string {
	hasField := false
	for _, v := range x.c.vars {
		hasField = hasField || v.IsField()
	}
	if !hasField {
		return ""
	}
	for _, e := range x.c.events {
		goes := e.method == "Go" || e.method == "TryGo" || e.method == "" && x.hasGo[x.ip.decls[e.callee]]
		if !goes || x.where(e.cur) == inChild {
			continue
		}
		if !x.madeBefore(e) && x.madeHere() {
			x.rounds = true
			continue
		}
		if !x.madeBefore(e) {
			name := homeName(x.home[e.call])
			return fmt.Sprintf("given children in %s, which does not make the group first, and made where taskvet does not see it", name)
		}
	}
	return ""
}

// madeBefore reports whether a statement that makes the group comes
// before the event e in its function, in a block that holds e: every run
// of e gives children to a group made since.
func (x *check) madeBefore(e *gevent) bool {
	for _, cr := range x.c.creates {
		if x.home[cr.cur.Node()] != x.home[e.call] || cr.zeroStruct && (cr.inst == nil || cr.inst != x.base(e)) {
			continue
		}
		for c := cr.cur; c.Node() != nil; c = c.Parent() {
			st, isStmt := c.Node().(ast.Stmt)
			if _, isList := stmtList(c.Parent().Node()); isStmt && isList {
				if within(e.call, c.Parent().Node()) && st.End() <= e.call.Pos() {
					return true
				}
				break
			}
		}
	}
	return false
}

// An ordered event of a function: its position, and what it does.
type orderEv struct {
	pos      token.Pos
	kind     string // "create", "go", "wait"
	cur      inspector.Cursor
	until    token.Pos // for a wait: where the code that follows it ends
	terminal bool      // for a wait: the function returns at until

	// A struct made with its zero group (zeroStruct) makes the group of
	// one variable, inst, and a Go gives children to inst's: the struct
	// of one variable made again does not make another's group again.
	inst       *types.Var
	zeroStruct bool
}

// remadeFor reports whether, between a wait at pos and the Go g, a struct
// made with its zero group makes the group of g's variable again.
func (x *check) remadeFor(evs []orderEv, pos token.Pos, g *orderEv) bool {
	for _, e := range evs {
		if e.kind == "create" && e.zeroStruct && e.inst != nil && e.inst == g.inst && e.pos > pos && e.pos < g.pos {
			return true
		}
	}
	return false
}

// base returns the variable at the root of the receiver of the event's
// call (b of b.Go, s of s.g.Go, e of e.loops.Go), or nil.
func (x *check) base(e *gevent) *types.Var {
	sel, ok := ast.Unparen(e.call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	return rootVar(x.info(), sel.X)
}

// rootVar returns the variable at the root of a chain of selectors,
// indexes, dereferences and parentheses, or nil.
func rootVar(info *types.Info, e ast.Expr) *types.Var {
	for {
		switch y := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			if _, isField := info.Uses[y.Sel].(*types.Var); !isField {
				return nil
			}
			e = y.X
			continue
		case *ast.StarExpr:
			e = y.X
			continue
		case *ast.IndexExpr:
			e = y.X
			continue
		case *ast.Ident:
			v, _ := info.Uses[y].(*types.Var)
			return v
		}
		return nil
	}
}

// checkOrder checks that no Go comes after a Wait of the same group: in
// each function, every Go (or call of a function that calls Go) before
// the first Wait, or after the group is made again, and not in a loop that
// also waits without making the group again.
func (x *check) checkOrder() string {
	byHome := map[ast.Node][]orderEv{}
	for _, cr := range x.c.creates {
		h := x.home[cr.cur.Node()]
		byHome[h] = append(byHome[h], orderEv{pos: cr.cur.Node().Pos(), kind: "create", cur: cr.cur, inst: cr.inst, zeroStruct: cr.zeroStruct})
	}
	for _, e := range x.c.events {
		h := x.home[e.call]
		w := x.where(e.cur)
		goes := e.method == "Go" || e.method == "TryGo" || e.method == "" && x.hasGo[x.ip.decls[e.callee]]
		waits := e.method == "Wait" || e.method == "" && x.hasWait[x.ip.decls[e.callee]]
		if w == inChild {
			if waits {
				return "waited for by its own child"
			}
			continue // a child's Go runs before the Wait returns
		}
		if goes {
			switch w {
			case inGoStmt:
				return "given children in a goroutine, which may run after the Wait"
			case inDefer:
				return "given children in a deferred call"
			}
			byHome[h] = append(byHome[h], orderEv{pos: e.call.Pos(), kind: "go", cur: e.cur, inst: x.base(e)})
		}
		if waits {
			ev := orderEv{pos: e.call.Pos(), kind: "wait", cur: e.cur, until: h.End(), inst: x.base(e)}
			if w == inDefer {
				ev.pos = h.End() // runs at the end
			} else if end, ok := terminal(e.cur); ok {
				// The function returns at the end of the block: a Go
				// outside it (another case of a select) does not follow.
				ev.until, ev.terminal = end, true
			}
			byHome[h] = append(byHome[h], ev)
		}
	}
	for _, evs := range byHome {
		sort.SliceStable(evs, func(i, j int) bool { return evs[i].pos < evs[j].pos })
		var waited []*orderEv
		for i := range evs {
			switch evs[i].kind {
			case "create":
				if !evs[i].zeroStruct {
					waited = nil
				}
			case "wait":
				waited = append(waited, &evs[i])
			case "go":
				for _, w := range waited {
					if evs[i].pos < w.until && !x.remadeFor(evs, w.pos, &evs[i]) {
						if x.madeHere() && x.waitAfter(evs, &evs[i]) {
							x.rounds = true
							continue
						}
						return fmt.Sprintf("given a child after its Wait (%s) that no later Wait waits for", x.ip.where(w.pos))
					}
				}
			}
		}
		// A loop around a wait and a Go, without a create in it, gives
		// the group children after its Wait.
		for _, w := range evs {
			if w.kind != "wait" || w.terminal {
				continue
			}
			for l := range w.cur.Enclosing((*ast.ForStmt)(nil), (*ast.RangeStmt)(nil), (*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
				switch l.Node().(type) {
				case *ast.FuncLit, *ast.FuncDecl:
				default:
					loop := l.Node()
					made := false
					for _, e := range evs {
						made = made || e.kind == "create" && within(e.cur.Node(), loop)
					}
					for _, g := range evs {
						if g.kind == "go" && within(g.cur.Node(), loop) && !made && x.madeHere() {
							x.rounds = true
						} else if g.kind == "go" && within(g.cur.Node(), loop) && !made {
							return "waited for in a loop that gives it children again, and made where taskvet does not see it"
						}
					}
					continue
				}
				break
			}
		}
	}
	return ""
}

// waitAfter reports whether a wait of evs comes after the Go g, on the
// same variable.
func (x *check) waitAfter(evs []orderEv, g *orderEv) bool {
	for _, e := range evs {
		if e.kind == "wait" && e.pos > g.pos && e.inst == g.inst {
			return true
		}
	}
	return false
}

// madeHere reports whether taskvet sees where every group of the
// component is made, and so makes it a task.Group, which, as errgroup's,
// a Go after its Wait uses again.
func (x *check) madeHere() bool { return len(x.c.creates) > 0 }

// checkLimits checks the SetLimit calls: in the function that makes the
// group, after it is made and before any Go, not in a loop that does not
// make it, not a constant 0, and decides whether Go must block at the
// limit (block). The calls stay as they are: a negative limit is no limit
// in task as in errgroup.
func (x *check) checkLimits() string {
	info := x.info()
	for _, e := range x.c.events {
		if e.method != "SetLimit" {
			continue
		}
		if x.where(e.cur) != inFunc {
			return "limited from a function literal"
		}
		h := x.home[e.call]
		var made *gcreate
		for _, cr := range x.c.creates {
			if x.home[cr.cur.Node()] == h && cr.cur.Node().Pos() < e.call.Pos() && (made == nil || cr.cur.Node().Pos() > made.cur.Node().Pos()) {
				made = cr
			}
		}
		if made == nil {
			return "limited in a function that does not make it"
		}
		for _, g := range x.c.events {
			goes := g.method == "Go" || g.method == "TryGo" || g.method == "" && x.hasGo[x.ip.decls[g.callee]]
			if goes && x.home[g.call] == h && g.call.Pos() > made.cur.Node().Pos() && g.call.Pos() < e.call.Pos() {
				return "limited after its first Go (task's SetLimit panics there)"
			}
		}
		for l := range e.cur.Enclosing((*ast.ForStmt)(nil), (*ast.RangeStmt)(nil), (*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
			switch l.Node().(type) {
			case *ast.ForStmt, *ast.RangeStmt:
				if !within(made.cur.Node(), l.Node()) {
					return "limited in a loop"
				}
			}
			break
		}
		if _, ok := e.cur.Parent().Node().(*ast.ExprStmt); !ok {
			return "limited in an expression"
		}
		// A negative limit is no limit in both; 0 blocks every Go of
		// errgroup's and panics in task's SetLimit.
		if tv := info.Types[e.call.Args[0]]; tv.Value != nil {
			n, exact := constant.Int64Val(constant.ToInt(tv.Value))
			switch {
			case !exact || n == 0:
				return "limited to 0 (SetLimit(0) blocks every Go; task panics)"
			case n < 0:
				continue
			}
		}
		x.limited = true
	}
	if !x.limited {
		return ""
	}
	// errgroup's Go blocks the spawner at the limit, so that it never holds
	// more children than the limit; task's queues the child. The group
	// blocks at the limit too unless the number of Go calls is a small
	// constant: a Go in a function that does not make the group first (a
	// field's, in a method that each caller may call again) is not.
	field := slices.ContainsFunc(x.c.vars, (*types.Var).IsField)
	x.goCalls = 0
	for _, e := range x.c.events {
		goes := e.method == "Go" || e.method == "TryGo" || e.method == "" && x.hasGo[x.ip.decls[e.callee]]
		if !goes || e.method == "TryGo" {
			continue
		}
		n, ok := x.goCount(e.cur)
		if !ok || field && !x.madeBefore(e) || x.goCalls+n > smallGoCalls {
			x.block = true
			continue
		}
		x.goCalls += n
	}
	return ""
}

// smallGoCalls is the most Go calls a limited group may be given without
// task.BlockAtLimit: task's queue then holds no more than these.
const smallGoCalls = 64

// goCount returns how many times the Go at cur runs, if a constant bounds
// it: 1 out of any loop, the product of the lengths of the arrays and the
// constant integers that the loops around it range over; ok is false
// in a loop of any other kind, a child or a callback.
func (x *check) goCount(cur inspector.Cursor) (n int64, ok bool) {
	info := x.info()
	n = 1
	for c := range cur.Enclosing((*ast.ForStmt)(nil), (*ast.RangeStmt)(nil), (*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
		switch l := c.Node().(type) {
		case *ast.FuncDecl:
			return n, true
		case *ast.FuncLit:
			return n, l == x.root
		case *ast.ForStmt:
			return 0, false
		case *ast.RangeStmt:
			if l.X == nil {
				return 0, false
			}
			var count int64 = -1
			if tv := info.Types[l.X]; tv.Value != nil {
				if v, exact := constant.Int64Val(constant.ToInt(tv.Value)); exact && v >= 0 {
					count = v
				}
			} else {
				t := types.Unalias(info.TypeOf(l.X)).Underlying()
				if p, isPtr := t.(*types.Pointer); isPtr {
					t = p.Elem().Underlying()
				}
				if a, isArray := t.(*types.Array); isArray {
					count = a.Len()
				}
			}
			if count < 0 || count > smallGoCalls {
				return 0, false
			}
			n *= count
			if n > smallGoCalls {
				return 0, false
			}
		}
	}
	return n, true
}

// checkCreates decides the options of each group made by WithContext:
// fail-fast if the children honor the derived context; task.KeepGoing if
// the derived context is blank, or none of the children looks at it and
// nothing else reads it before the Wait (nothing can see that it is not
// canceled at the first failure); else task.StartAll, errgroup's own rule
// (a failure cancels the context, every child still starts). It also
// decides whether a zero Group that must block at its limit can be made by
// NewGroup.
func (x *check) checkCreates() string {
	info := x.info()
	x.keepGoing = map[*gcreate]bool{}
	x.startAll = map[*gcreate]bool{}
	for _, cr := range x.c.creates {
		if cr.call == nil {
			if x.block && x.limitedGroup(cr) {
				if !x.zeroToNew(cr) {
					return "a zero Group that must block at its limit, in a form that NewGroup cannot replace"
				}
			}
			continue
		}
		if cr.ctxField {
			// Read by any method, while the group runs: canceled at the
			// first failure, every child started, as errgroup does.
			x.startAll[cr] = true
			continue
		}
		if cr.gctx == nil {
			x.keepGoing[cr] = true
			continue
		}
		h := x.home[cr.cur.Node()]
		kids := x.childrenOf(cr)
		anyUse := false
		for _, k := range kids {
			anyUse = anyUse || refers(info, k.arg, k.ctx)
		}
		if !anyUse {
			// KeepGoing: the context is canceled by Wait only. Nothing
			// else may read it while the group runs; if something does,
			// StartAll cancels it at the first failure, as errgroup does.
			first := token.Pos(0)
			for _, e := range x.c.events {
				if e.method == "Wait" && x.home[e.call] == h && e.call.Pos() > cr.cur.Node().Pos() && (first == 0 || e.call.Pos() < first) {
					first = e.call.Pos()
				}
			}
			read := false
			ast.Inspect(h, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && info.Uses[id] == cr.gctx && id.Pos() > cr.cur.Node().End() && (first == 0 || id.Pos() < first) {
					read = true
				}
				return !read
			})
			if read {
				x.startAll[cr] = true
			} else {
				x.keepGoing[cr] = true
			}
			continue
		}
		for _, k := range kids {
			s := &site{pass: x.ip.pass, gctx: k.ctx}
			if s.ctxFirst(k.arg) {
				continue
			}
			if !refers(info, k.arg, k.ctx) || s.signals(k.arg) {
				// A child that would not run after a failure under
				// fail-fast, and ignores the context or does what other
				// code may wait for: StartAll starts it, as errgroup did.
				x.startAll[cr] = true
				break
			}
		}
	}
	return ""
}

// A kid is a child and the context that stands for the derived one where
// it is spawned.
type kid struct {
	arg ast.Expr
	ctx *types.Var
}

// childrenOf returns the children that the group made by cr gets: the Go
// calls after it in its function (up to the next create), and those of the
// functions it is passed to, with the parameter that gets the derived
// context.
func (x *check) childrenOf(cr *gcreate) []kid {
	h := x.home[cr.cur.Node()]
	next := h.End()
	for _, o := range x.c.creates {
		if x.home[o.cur.Node()] == h && o.cur.Node().Pos() > cr.cur.Node().Pos() && o.cur.Node().Pos() < next {
			next = o.cur.Node().Pos()
		}
	}
	var kids []kid
	for _, e := range x.c.events {
		if e.method != "Go" && e.method != "TryGo" || len(e.call.Args) != 1 {
			continue
		}
		eh := x.home[e.call]
		if eh == h {
			if e.call.Pos() > cr.cur.Node().Pos() && e.call.Pos() < next {
				kids = append(kids, kid{e.call.Args[0], cr.gctx})
			}
			continue
		}
		fd, _ := eh.(*ast.FuncDecl) // a local group's events are all in its home
		kids = append(kids, kid{e.call.Args[0], x.paramCtx(fd, cr.gctx)})
	}
	return kids
}

// paramCtx returns the context parameter of fd that every call of fd
// passing the group passes the derived context gctx to, or gctx.
func (x *check) paramCtx(fd *ast.FuncDecl, gctx *types.Var) *types.Var {
	if fd == nil {
		return gctx
	}
	info := x.info()
	f, _ := info.Defs[fd.Name].(*types.Func)
	if f == nil {
		return gctx
	}
	params := f.Signature().Params()
	for j := range params.Len() {
		if !isContext(params.At(j).Type()) {
			continue
		}
		all, any := true, false
		for _, e := range x.c.events {
			if e.method == "" && e.callee == f {
				any = true
				all = all && j < len(e.call.Args) && varOf(info, e.call.Args[j]) == gctx
			}
		}
		if any && all {
			return params.At(j)
		}
	}
	return gctx
}

// limitedGroup reports whether the group made by cr gets a SetLimit.
func (x *check) limitedGroup(cr *gcreate) bool {
	h := x.home[cr.cur.Node()]
	for _, e := range x.c.events {
		if e.method == "SetLimit" && x.home[e.call] == h && e.call.Pos() > cr.cur.Node().Pos() {
			return true
		}
	}
	return false
}

// zeroToNew reports whether the zero Group made by cr can become
// task.NewGroup(context.Background(), ...): a local variable of its own
// declaration (var g errgroup.Group, g := &errgroup.Group{}), whose address
// nothing takes. A pointer made by g := &errgroup.Group{} may be stored in
// fields and passed to parameters that are pointers too (a service made
// by its constructor): they change type with it.
func (x *check) zeroToNew(cr *gcreate) bool {
	if cr.v.IsField() {
		return false
	}
	if cr.decl == nil {
		as, ok := cr.cur.Node().(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 {
			return false
		}
		// g := errgroup.Group{}: a value, which NewGroup's pointer
		// replaces as it does var g errgroup.Group, if it is the only
		// variable of the group.
		for _, v := range x.c.vars {
			if _, ptr := types.Unalias(v.Type()).(*types.Pointer); !ptr && len(x.c.vars) != 1 {
				return false
			}
		}
	} else if len(x.c.vars) != 1 {
		return false
	}
	addr := false
	fd := x.home[cr.cur.Node()]
	ast.Inspect(fd, func(n ast.Node) bool {
		if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.AND && varOf(x.info(), u.X) == cr.v {
			addr = true
		}
		return !addr
	})
	return !addr
}

// stableVar reports whether e is a local variable assigned only where it
// is declared: reading it when the child runs gives what Go got.
func (x *check) stableVar(e ast.Expr) bool {
	info := x.info()
	v := varOf(info, e)
	if v == nil || v.Parent() == x.ip.pass.Pkg.Scope() || v.IsField() {
		return false
	}
	sig, ok := v.Type().Underlying().(*types.Signature)
	if !ok || sig.Params().Len() != 0 || sig.Results().Len() != 1 || !isError(sig.Results().At(0).Type()) {
		return false
	}
	n := 0
	for id, obj := range info.Defs {
		if obj == v {
			_ = id
			n++
		}
	}
	for id, obj := range info.Uses {
		if obj != v {
			continue
		}
		cur, ok := x.ip.in.Root().FindNode(id)
		if !ok {
			return false
		}
		switch p := cur.Parent().Node().(type) {
		case *ast.AssignStmt:
			if slices.Contains(p.Lhs, ast.Expr(id)) {
				return false
			}
		case *ast.UnaryExpr:
			if p.Op == token.AND {
				return false
			}
		}
	}
	return n == 1
}

// fix builds the edits of the component and reports it at its first
// create.
func (x *check) fix() {
	pass, info, c := x.ip.pass, x.info(), x.c
	type fileFix struct {
		im        *importer
		task      string
		names     map[string]string // of the other packages, by path
		positions []token.Pos
	}
	files := map[*ast.File]*fileFix{}
	var edits []analysis.TextEdit
	fileOf := func(pos token.Pos) *ast.File {
		for _, f := range pass.Files {
			if f.FileStart <= pos && pos < f.FileEnd {
				return f
			}
		}
		return nil
	}
	ok := true
	// name returns the name of the package path at pos, importing it.
	name := func(pos token.Pos, path, want string) string {
		f := fileOf(pos)
		if f == nil {
			ok = false
			return ""
		}
		ff := files[f]
		if ff == nil {
			ff = &fileFix{im: &importer{s: &site{pass: pass}, file: f, pos: pos}}
			files[f] = ff
		}
		ff.positions = append(ff.positions, pos)
		var n string
		var found bool
		if path == taskPath {
			if ff.task == "" {
				for _, w := range []string{"task", "tasktuple"} {
					if ff.task, found = ff.im.name(path, w); found {
						break
					}
				}
			}
			n, found = ff.task, ff.task != ""
		} else {
			if ff.names == nil {
				ff.names = map[string]string{}
			}
			if ff.names[path] == "" {
				ff.names[path], _ = ff.im.name(path, want)
			}
			n, found = ff.names[path], ff.names[path] != ""
		}
		if !found {
			ok = false
			return ""
		}
		// The name must denote the package, or nothing, at pos too.
		obj := ff.im.s.lookup(n, pos)
		if pn, isPkg := obj.(*types.PkgName); obj != nil && (!isPkg || pn.Imported().Path() != path) {
			ok = false
		}
		return n
	}
	// The statements that a zero Group made by NewGroup replaces.
	var replaced []ast.Node
	sorted := slices.Clone(c.creates)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].cur.Node().Pos() < sorted[j].cur.Node().Pos() })
	zero, failFast, keep, all, hooked, zeroHooked := false, false, false, false, false, false
	// emitHook adds the crash hook after the statement that makes a
	// group, or reports false if the file cannot name the standard errors
	// package (as errors or stderrors).
	emitHook := func(pos token.Pos, t string, hook *crashHook) bool {
		okBefore := ok
		errorsPkg := ""
		for _, want := range []string{"errors", "stderrors"} {
			ok = true
			if errorsPkg = name(pos, "errors", want); ok && errorsPkg != "" {
				break
			}
			errorsPkg = ""
		}
		ok = okBefore
		if errorsPkg == "" {
			return false
		}
		ctxPkg := name(pos, "context", "context")
		if hook.blank != "" {
			if as, isAssign := hook.after.(*ast.AssignStmt); isAssign && len(as.Lhs) == 2 {
				lhs := as.Lhs[1]
				edits = append(edits, analysis.TextEdit{Pos: lhs.Pos(), End: lhs.End(), NewText: []byte(hook.blank)})
			}
		}
		hooked = true
		indent := (&site{pass: pass}).indent(hook.after.Pos())
		var b strings.Builder
		v := hook.ctx
		if hook.local != "" {
			fmt.Fprintf(&b, "\n%s%s := %s", indent, hook.local, hook.ctx)
			v = hook.local
		}
		fmt.Fprintf(&b, "\n%[1]s%[2]s.AfterFunc(%[3]s, func() {\n%[1]s\tvar pe *%[4]s.PanicError\n%[1]s\tif %[5]s.As(%[2]s.Cause(%[3]s), &pe) {\n%[1]s\t\tpanic(pe) // a child panicked: crash now, as errgroup did\n%[1]s\t}\n%[1]s})",
			indent, ctxPkg, v, t, errorsPkg)
		// After the statement's line, a comment that ends it included.
		at := hook.after.End()
		if tf := pass.Fset.File(at); lineOf(tf, at) < tf.LineCount() {
			at = tf.LineStart(lineOf(tf, at)+1) - 1
		}
		edits = append(edits, analysis.TextEdit{Pos: at, End: at, NewText: []byte(b.String())})
		return true
	}
	for _, cr := range sorted {
		pos := cr.cur.Node().Pos()
		limited := x.block && x.limitedGroup(cr)
		if cr.call == nil {
			zero = true
			// A zero Group made by an assignment of a pointer literal
			// (m.g = &errgroup.Group{}), whose Go and Wait are in
			// different functions and which does not block at a limit:
			// made by NewGroup, with a context for the crash hook.
			if as, isAssign := cr.cur.Node().(*ast.AssignStmt); !limited && isAssign && len(as.Lhs) == 1 && len(as.Rhs) == 1 &&
				cr.zero != nil && as.Rhs[0] == cr.zero && x.apartWhy() != "" {
				if _, ptr := types.Unalias(cr.v.Type()).(*types.Pointer); ptr {
					if _, isList := stmtList(cr.cur.Parent().Node()); isList {
						t := name(pos, taskPath, "task")
						ctxPkg := name(pos, "context", "context")
						free := freeNames{}
						g, gctx := free.name(pass, as.Pos(), "g"), free.name(pass, as.Pos(), "gctx")
						indent := (&site{pass: pass}).indent(as.Pos())
						mk := fmt.Sprintf("%s, %s := %s.NewGroup(%s.Background(), %s.FirstError, %s.StartAll)", g, gctx, t, ctxPkg, t, t)
						if emitHook(pos, t, &crashHook{after: as, ctx: gctx}) {
							zeroHooked = true
							replaced = append(replaced, as)
							edits = append(edits, analysis.TextEdit{Pos: as.Pos(), End: as.Pos(), NewText: []byte(mk + "\n" + indent)},
								analysis.TextEdit{Pos: as.Rhs[0].Pos(), End: as.Rhs[0].End(), NewText: []byte(g)})
							continue
						}
					}
				}
			}
			if !limited {
				continue // the literal or declaration stays: nothing of task is named here
			}
		}
		t := name(pos, taskPath, "task")
		if cr.call == nil {
			st := cr.cur.Node() // g := &errgroup.Group{}
			if cr.decl != nil {
				st = cr.decl // var g errgroup.Group
			}
			ctxPkg := name(pos, "context", "context")
			replaced = append(replaced, st)
			// Where Go and Wait are in different functions, the group
			// gets a context, which only the crash hook reads: its
			// failures cancel it (StartAll, errgroup's rule), and so
			// does a child's panic.
			if x.apartWhy() != "" {
				g := (freeNames{}).name(pass, st.Pos(), "gctx")
				if emitHook(pos, t, &crashHook{after: st.(ast.Stmt), ctx: g}) {
					zeroHooked = true
					edits = append(edits, analysis.TextEdit{Pos: st.Pos(), End: st.End(),
						NewText: fmt.Appendf(nil, "%s, %s := %s.NewGroup(%s.Background(), %s.FirstError, %s.StartAll, %s.BlockAtLimit)", cr.v.Name(), g, t, ctxPkg, t, t, t)})
					continue
				}
			}
			edits = append(edits, analysis.TextEdit{Pos: st.Pos(), End: st.End(),
				NewText: fmt.Appendf(nil, "%s, _ := %s.NewGroup(%s.Background(), %s.KeepGoing, %s.FirstError, %s.BlockAtLimit)", cr.v.Name(), t, ctxPkg, t, t, t)})
			continue
		}
		opts := []string{t + ".FirstError"}
		hook := x.crashHook(cr)
		if hook != nil && !emitHook(pos, t, hook) {
			hook = nil
		}
		switch {
		case x.keepGoing[cr] && hook != nil:
			all = true
			opts = []string{t + ".FirstError", t + ".StartAll"}
		case x.keepGoing[cr]:
			keep = true
			opts = []string{t + ".KeepGoing", t + ".FirstError"}
		case x.startAll[cr]:
			all = true
			opts = []string{t + ".FirstError", t + ".StartAll"}
		default:
			failFast = true
		}
		if limited {
			opts = append(opts, t+".BlockAtLimit")
		}
		edits = append(edits,
			analysis.TextEdit{Pos: cr.call.Fun.Pos(), End: cr.call.Fun.End(), NewText: []byte(t + ".NewGroup")},
			analysis.TextEdit{Pos: cr.call.Rparen, End: cr.call.Rparen, NewText: []byte(", " + strings.Join(opts, ", "))})
	}
	inReplaced := func(n ast.Node) bool {
		for _, r := range replaced {
			if within(n, r) {
				return true
			}
		}
		return false
	}
	seen := map[ast.Expr]bool{}
	for _, te := range c.types {
		if seen[te] || inReplaced(te) {
			continue
		}
		seen[te] = true
		edits = append(edits, analysis.TextEdit{Pos: te.Pos(), End: te.End(), NewText: []byte(name(te.Pos(), taskPath, "task") + ".Group")})
	}
	free := freeNames{}
	factoryDone := map[*ast.FuncType]bool{}
	for _, e := range c.events {
		if e.method != "Go" && e.method != "TryGo" {
			continue
		}
		arg := e.call.Args[0]
		ctxPkg := name(arg.Pos(), "context", "context")
		if lit, isLit := ast.Unparen(arg).(*ast.FuncLit); isLit {
			results := "error"
			if lit.Type.Results != nil {
				results = (&site{pass: pass}).text(lit.Type.Results.Pos(), lit.Type.Results.End())
			}
			edits = append(edits, analysis.TextEdit{Pos: lit.Type.Pos(), End: lit.Type.End(), NewText: fmt.Appendf(nil, "func(%s.Context) %s", ctxPkg, results)})
			continue
		}
		if res, inner, isFactory := closureFactory(info, arg); isFactory {
			// The factory's result and the literals it returns take the
			// context; the call is evaluated where it was.
			sig := fmt.Appendf(nil, "func(%s.Context) error", ctxPkg)
			edits = append(edits, analysis.TextEdit{Pos: res.Pos(), End: res.End(), NewText: sig})
			for _, lit := range inner {
				edits = append(edits, analysis.TextEdit{Pos: lit.Type.Pos(), End: lit.Type.End(), NewText: sig})
			}
			continue
		}
		if res, inner, isFactory := x.declFactory(arg); isFactory {
			// g.Go(c.worker(x)), worker a function of the package that
			// only returns a literal, called nowhere else: its result
			// and the literals it returns take the context; the Go, and
			// where the call runs, stay as they are.
			if !factoryDone[res] {
				factoryDone[res] = true
				sig := fmt.Appendf(nil, "func(%s.Context) error", name(res.Pos(), "context", "context"))
				edits = append(edits, analysis.TextEdit{Pos: res.Pos(), End: res.End(), NewText: sig})
				for _, lit := range inner {
					edits = append(edits, analysis.TextEdit{Pos: lit.Type.Pos(), End: lit.Type.End(), NewText: sig})
				}
			}
			continue
		}
		if st := x.hoisted(e); st != nil {
			// g.Go(f(x)): errgroup's Go got what f(x) returned, evaluated
			// at the Go. The call stays there, in a variable of its own.
			v := free.name(pass, st.Pos(), "child")
			src := &site{pass: pass}
			indent := src.indent(st.Pos())
			edits = append(edits,
				analysis.TextEdit{Pos: st.Pos(), End: st.Pos(), NewText: fmt.Appendf(nil, "%s := %s\n%s", v, src.text(arg.Pos(), arg.End()), indent)},
				analysis.TextEdit{Pos: arg.Pos(), End: arg.End(), NewText: fmt.Appendf(nil, "func(%s.Context) error { return %s() }", ctxPkg, v)})
			continue
		}
		edits = append(edits, analysis.TextEdit{Pos: arg.Pos(), End: arg.End(),
			NewText: fmt.Appendf(nil, "func(%s.Context) error { return %s() }", ctxPkg, types.ExprString(arg))})
	}
	if !ok {
		x.ip.noFix(c, "the fix needs the task and context packages, and a name of the file denotes something else where it would use them",
			"rename what shadows task or context there, or import the packages yourself, then run taskvet again")
		return
	}
	for _, ff := range files {
		edits = append(edits, ff.im.edits()...)
	}
	_ = info
	var what []string
	switch {
	case zeroHooked:
		what = append(what, "the zero Group is made by task.NewGroup(context.Background(), task.FirstError, task.StartAll): every child runs, as with errgroup's zero Group, and its context, which only the crash hook reads, is canceled at the first failure")
	case zero:
		what = append(what, "the zero task.Group is errgroup's zero Group (KeepGoing, FirstError)")
	}
	switch {
	case failFast && all:
		what = append(what, "a failure cancels the context; where the children honor it, no child starts after it, nor after the caller's ctx ends (errgroup ran the rest with a canceled context), elsewhere every child still starts, as with errgroup (StartAll)")
		all = false
	case failFast:
		what = append(what, "a failure cancels the context and no child starts after it, nor after the caller's ctx ends (errgroup ran the rest with a canceled context)")
	}
	if keep {
		what = append(what, "every child runs, as with errgroup (KeepGoing)")
	}
	if all {
		what = append(what, "a failure cancels the context and every child still starts, as with errgroup (StartAll)")
	}
	switch {
	case x.block:
		what = append(what, "at the limit Go blocks the caller, as errgroup's does (BlockAtLimit)")
	case x.limited:
		what = append(what, fmt.Sprintf("at the limit Go queues the child rather than blocking the caller: there are at most %d Go calls", x.goCalls))
	}
	if long := x.longLived(); long != "" {
		if hooked {
			what = append(what, long+": a child's panic still crashes the program at once, as errgroup's did, by the context.AfterFunc that the fix adds after the group is made (the panic cancels the group's context); without it, task's Wait would raise the panic only when it is called")
		} else {
			what = append(what, long+": a child's panic no longer crashes the program at once, as errgroup's did: the group holds it, and the Wait raises it when it is called, if it ever is; until then the program runs on")
		}
	}
	if x.rounds {
		what = append(what, "a Go after the Wait begins a new round, as errgroup's; that round's Wait returns its own failures (errgroup's, the first of every round)")
	}
	first := sorted[0].cur.Node()
	if id, isID := first.(*ast.Ident); isID {
		// var g errgroup.Group: report the declaration.
		for cc := range sorted[0].cur.Enclosing((*ast.ValueSpec)(nil), (*ast.Field)(nil)) {
			first = cc.Node()
			break
		}
		_ = id
	}
	names := []string{}
	for _, v := range c.vars {
		if !slices.Contains(names, v.Name()) {
			names = append(names, v.Name())
		}
	}
	pass.Report(analysis.Diagnostic{
		Pos: first.Pos(),
		End: first.End(),
		Message: fmt.Sprintf("this errgroup group (%s) is a task.Group in place: rewrite it to get panics raised in Wait; the error is errgroup's (FirstError); %s",
			strings.Join(names, ", "), strings.Join(what, "; ")),
		SuggestedFixes: []analysis.SuggestedFix{{Message: "Rewrite to task.Group in place", TextEdits: edits}},
	})
}

// apart returns, where some Wait of the group is in a function that gives
// it no children, the functions that call Go and those that call Wait,
// or "". A child's panic then waits for another method's Wait (a
// service's stop), where errgroup's crashed the program at once.
func (x *check) apart() (goFuncs, waitFuncs string) {
	var gos, waits []string
	for _, e := range x.c.events {
		if x.where(e.cur) == inChild {
			continue
		}
		name := homeName(x.home[e.call])
		if lit := escapingLit(e.cur); lit != nil {
			name = fmt.Sprintf("a function literal at line %d", x.ip.pass.Fset.Position(lit.Pos()).Line)
		}
		switch {
		case e.method == "Go" || e.method == "TryGo" || e.method == "" && x.hasGo[x.ip.decls[e.callee]]:
			if !slices.Contains(gos, name) {
				gos = append(gos, name)
			}
		case e.method == "Wait" || e.method == "" && x.hasWait[x.ip.decls[e.callee]]:
			if !slices.Contains(waits, name) {
				waits = append(waits, name)
			}
		}
	}
	for _, w := range waits {
		if !slices.Contains(gos, w) {
			return strings.Join(gos, ", "), strings.Join(waits, ", ")
		}
	}
	return "", ""
}

// escapingLit returns the function literal around cur, inside its
// function, that the function keeps for later rather than calls: a value
// of a composite literal (a callback field, such as a body's BeforeClose),
// assigned to a field, or returned. The code in it runs when something
// else calls it, maybe long after its function has returned. A literal
// called where it is written, passed to a function (a visitor, most often
// called before that function returns) or kept in a local variable is not
// taken to escape. It returns nil if cur is in no such literal.
func escapingLit(cur inspector.Cursor) *ast.FuncLit {
	for c := cur.Parent(); c.Node() != nil; c = c.Parent() {
		switch n := c.Node().(type) {
		case *ast.FuncDecl:
			return nil
		case *ast.FuncLit:
			switch p := c.Parent().Node().(type) {
			case *ast.KeyValueExpr, *ast.CompositeLit, *ast.ReturnStmt:
				return n
			case *ast.AssignStmt:
				for _, l := range p.Lhs {
					if _, isField := ast.Unparen(l).(*ast.SelectorExpr); isField {
						return n
					}
				}
			}
		}
	}
	return nil
}

// terminal reports whether the statements from the one that holds the
// call at cur to the end of its block end with a return, and none of them
// branches (break, continue, goto): once the call has returned, the
// function returns at end, whatever loop or select holds the block.
func terminal(cur inspector.Cursor) (end token.Pos, ok bool) {
	for c := cur; ; c = c.Parent() {
		switch c.Parent().Node().(type) {
		case *ast.FuncLit, *ast.FuncDecl, nil:
			return 0, false
		}
		list, isList := stmtList(c.Parent().Node())
		if !isList {
			continue
		}
		st, ok := c.Node().(ast.Stmt)
		k := slices.Index(list, st)
		if !ok || k < 0 {
			return 0, false
		}
		if _, ok := list[len(list)-1].(*ast.ReturnStmt); !ok {
			return 0, false
		}
		branches := false
		for _, st := range list[k:] {
			ast.Inspect(st, func(n ast.Node) bool {
				switch n.(type) {
				case *ast.FuncLit:
					return false
				case *ast.BranchStmt:
					branches = true
				}
				return !branches
			})
		}
		return list[len(list)-1].End(), !branches
	}
}

// closureFactory reports whether arg, given to Go, is a call of a function
// literal that makes the child, as in
//
//	g.Go(func(t T) func() error {
//		return func() error { ... t ... }
//	}(item))
//
// whose one result is written func() error and whose every return returns
// a function literal of that type. It returns that result's type
// expression and the literals returned, which become func(context.Context)
// error: the call is still evaluated by Go's statement, and what it
// returns does the same.
func closureFactory(info *types.Info, arg ast.Expr) (res *ast.FuncType, inner []*ast.FuncLit, ok bool) {
	call, isCall := ast.Unparen(arg).(*ast.CallExpr)
	if !isCall {
		return nil, nil, false
	}
	outer, isLit := ast.Unparen(call.Fun).(*ast.FuncLit)
	if !isLit || outer.Type.Results == nil || len(outer.Type.Results.List) != 1 || len(outer.Type.Results.List[0].Names) != 0 {
		return nil, nil, false
	}
	res, isFunc := outer.Type.Results.List[0].Type.(*ast.FuncType)
	if !isFunc || res.TypeParams != nil {
		return nil, nil, false
	}
	if sig, isSig := info.TypeOf(res).(*types.Signature); !isSig || sig.Params().Len() != 0 || sig.Results().Len() != 1 || !isError(sig.Results().At(0).Type()) {
		return nil, nil, false
	}
	for _, r := range funcReturns(outer) {
		if len(r.Results) != 1 {
			return nil, nil, false
		}
		lit, isLit := ast.Unparen(r.Results[0]).(*ast.FuncLit)
		if !isLit || !isErrorFunc(info, lit) || len(lit.Type.Params.List) != 0 {
			return nil, nil, false
		}
		inner = append(inner, lit)
	}
	return res, inner, len(inner) > 0
}

// isErrorFuncType reports whether t is func() error.
func isErrorFuncType(t types.Type) bool {
	sig, ok := types.Unalias(t).Underlying().(*types.Signature)
	return ok && sig.Params().Len() == 0 && sig.Results().Len() == 1 && isError(sig.Results().At(0).Type())
}

// hoisted returns the statement g.Go(f(x)) of the event, whose call f(x),
// a function of another form than a literal, the fix moves into a
// variable declared just before it, so that it is still evaluated at the
// Go and by its goroutine, as errgroup's Go got it: nil if the Go is not a
// statement of a list (an if's condition, a label's).
func (x *check) hoisted(e *gevent) *ast.ExprStmt {
	call, isCall := ast.Unparen(e.call.Args[0]).(*ast.CallExpr)
	if !isCall || x.info().Types[call.Fun].IsType() {
		return nil
	}
	st, ok := e.cur.Parent().Node().(*ast.ExprStmt)
	if !ok {
		return nil
	}
	if _, isList := stmtList(e.cur.Parent().Parent().Node()); !isList {
		return nil
	}
	return st
}

// freeNames hands out names that no declaration in scope at a position
// uses, nor the fix itself in the same scope.
type freeNames map[*types.Scope]map[string]bool

func (f freeNames) name(pass *analysis.Pass, pos token.Pos, base string) string {
	sc := pass.Pkg.Scope().Innermost(pos)
	if f[sc] == nil {
		f[sc] = map[string]bool{}
	}
	for i := 1; ; i++ {
		n := base
		if i > 1 {
			n = fmt.Sprintf("%s%d", base, i)
		}
		if f[sc][n] || sc.Lookup(n) != nil {
			continue
		}
		if _, obj := sc.LookupParent(n, pos); obj != nil {
			continue
		}
		f[sc][n] = true
		return n
	}
}

// longLived says why the group outlives the code that gives it children,
// or "": Go and Wait in different functions, or a Go in a loop that only
// a break or a return ends (for {}, over a channel or an iterator) whose
// Wait comes after the loop.
func (x *check) longLived() string {
	if apart := x.apartWhy(); apart != "" {
		return apart
	}
	info := x.info()
	for _, e := range x.c.events {
		goes := e.method == "Go" || e.method == "TryGo" || e.method == "" && x.hasGo[x.ip.decls[e.callee]]
		if !goes || x.where(e.cur) == inChild {
			continue
		}
	loops:
		for c := range e.cur.Enclosing((*ast.ForStmt)(nil), (*ast.RangeStmt)(nil), (*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
			var open bool
			switch l := c.Node().(type) {
			case *ast.FuncDecl, *ast.FuncLit:
				break loops
			case *ast.ForStmt:
				open = l.Cond == nil
			case *ast.RangeStmt:
				if l.X != nil {
					switch types.Unalias(info.TypeOf(l.X)).Underlying().(type) {
					case *types.Chan, *types.Signature:
						open = true
					}
				}
			}
			if !open {
				continue
			}
			for _, w := range x.c.events {
				if w.method == "Wait" && x.home[w.call] == x.home[e.call] && w.call.Pos() > c.Node().End() {
					line := x.ip.pass.Fset.PositionFor(c.Node().Pos(), false).Line
					return fmt.Sprintf("the Wait comes after the loop that gives the children (line %d), which runs until it is broken out of", line)
				}
			}
		}
	}
	return x.returnBeforeWait()
}

// returnBeforeWait says that a return statement of the group's function
// can run after a Go and before the first Wait that follows it (after the
// first Go, or in a loop that gives children), leaving the children
// running with nobody to wait for them, or "".
func (x *check) returnBeforeWait() string {
	var goes []*ast.CallExpr
	for _, e := range x.c.events {
		if (e.method == "Go" || e.method == "TryGo") && x.where(e.cur) != inChild {
			goes = append(goes, e.call)
		}
	}
	if len(goes) == 0 {
		return ""
	}
	first := slices.MinFunc(goes, func(a, b *ast.CallExpr) int { return cmp.Compare(a.Pos(), b.Pos()) })
	h := x.home[first]
	var wait *ast.CallExpr
	for _, e := range x.c.events {
		if e.method == "Wait" && x.home[e.call] == h && e.call.Pos() > first.End() && (wait == nil || e.call.Pos() < wait.Pos()) {
			wait = e.call
		}
	}
	if wait == nil || h == nil {
		return ""
	}
	givesChildren := func(loop ast.Node) bool {
		return slices.ContainsFunc(goes, func(g *ast.CallExpr) bool { return loop.Pos() <= g.Pos() && g.End() <= loop.End() })
	}
	var ret *ast.ReturnStmt
	var loops []ast.Node // the loops visited so far
	ast.Inspect(h, func(n ast.Node) bool {
		if n == nil {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			if n != h {
				return false
			}
		case *ast.ForStmt, *ast.RangeStmt:
			loops = append(loops, n) // those not enclosing a return are told apart by position
		case *ast.ReturnStmt:
			if ret == nil && n.End() < wait.Pos() && (n.Pos() > first.End() || slices.ContainsFunc(loops, func(l ast.Node) bool {
				return l.Pos() <= n.Pos() && n.End() <= l.End() && givesChildren(l)
			})) {
				ret = n
			}
		}
		return ret == nil
	})
	if ret == nil {
		return ""
	}
	line := x.ip.pass.Fset.PositionFor(ret.Pos(), false).Line
	return fmt.Sprintf("the return at line %d, between Go and Wait, leaves the children running with no Wait", line)
}

// A crashHook is the context.AfterFunc that the fix adds after the
// statement that makes a group, so that a child's panic crashes the
// program at once, as errgroup's Go did, rather than when Wait is called.
type crashHook struct {
	after ast.Stmt // the statement that makes the group
	blank string   // a name for the derived context, if blank there
	ctx   string   // the derived context, as the statement writes it
	local string   // a variable to hold it first, if the statement's may change
}

// apartWhy says that Go and Wait are in different functions, or "".
func (x *check) apartWhy() string {
	if goFuncs, waitFuncs := x.apart(); goFuncs != "" {
		return fmt.Sprintf("Go and Wait are in different functions (%s; %s)", goFuncs, waitFuncs)
	}
	return ""
}

// crashHook decides whether the group made by cr gets a crash hook: a
// group whose Go and Wait are in different functions (apartWhy; a loop
// that only a break ends is most often a walk of pages, whose Wait is
// near, and only gets the message of longLived), made by
// WithContext in an assignment of its own (not a var spec, nor the init of
// an if). The hook reads the derived context when it is canceled: a local
// variable that nothing assigns again is read as it is, another (a field,
// a variable assigned again) is first copied to a new variable.
func (x *check) crashHook(cr *gcreate) *crashHook {
	if cr.call == nil || x.apartWhy() == "" {
		return nil
	}
	as, ok := cr.cur.Node().(*ast.AssignStmt)
	if !ok {
		return nil
	}
	if _, isList := stmtList(cr.cur.Parent().Node()); !isList {
		return nil
	}
	h := &crashHook{after: as}
	if cr.gctx == nil && !cr.ctxField {
		if as.Tok != token.DEFINE {
			return nil
		}
		h.blank = (freeNames{}).name(x.ip.pass, as.Pos(), "gctx")
		h.ctx = h.blank
		return h
	}
	h.ctx = types.ExprString(as.Lhs[1])
	if cr.ctxField || !x.assignedOnce(cr.gctx, as) {
		h.local = (freeNames{}).name(x.ip.pass, as.End(), "gctx")
	}
	return h
}

// assignedOnce reports whether v, a local variable, is assigned only by
// as (or declared by it, or as a parameter and then by as), and its address
// is never taken.
func (x *check) assignedOnce(v *types.Var, as *ast.AssignStmt) bool {
	if v.Parent() == nil || v.Parent() == x.ip.pass.Pkg.Scope() {
		return false
	}
	info := x.info()
	// Out of a loop, an assignment before as is over when the hook reads v.
	inLoop := false
	if asCur, found := x.ip.in.Root().FindNode(as); found {
		for c := range asCur.Enclosing((*ast.ForStmt)(nil), (*ast.RangeStmt)(nil), (*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
			switch c.Node().(type) {
			case *ast.ForStmt, *ast.RangeStmt:
				inLoop = true
			}
			break
		}
	}
	for id, obj := range info.Uses {
		if obj != v {
			continue
		}
		cur, found := x.ip.in.Root().FindNode(id)
		if !found {
			return false
		}
		switch p := cur.Parent().Node().(type) {
		case *ast.AssignStmt:
			if p != as && slices.Contains(p.Lhs, ast.Expr(id)) && (inLoop || p.Pos() > as.Pos()) {
				return false
			}
		case *ast.UnaryExpr:
			if p.Op == token.AND {
				return false
			}
		case *ast.IncDecStmt, *ast.RangeStmt:
			return false
		}
	}
	return true
}

// declFactory reports whether arg, the argument of a Go, calls a function
// or method declared in the package, unexported, whose result is func()
// error and whose every return statement returns a function literal
// (func() error { ... }), and which is called nowhere but in the Go calls
// of this component (its type may change with them). It returns the
// result's type and the literals.
func (x *check) declFactory(arg ast.Expr) (res *ast.FuncType, inner []*ast.FuncLit, ok bool) {
	info := x.info()
	call, isCall := ast.Unparen(arg).(*ast.CallExpr)
	if !isCall {
		return nil, nil, false
	}
	var id *ast.Ident
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = fun
	case *ast.SelectorExpr:
		id = fun.Sel
	default:
		return nil, nil, false
	}
	fn, isFunc := info.Uses[id].(*types.Func)
	if !isFunc || fn.Exported() {
		return nil, nil, false
	}
	decl := x.ip.decls[fn]
	if decl == nil || decl.Body == nil || decl.Type.TypeParams != nil || decl.Type.Results == nil ||
		len(decl.Type.Results.List) != 1 || len(decl.Type.Results.List[0].Names) != 0 {
		return nil, nil, false
	}
	res, isFuncType := decl.Type.Results.List[0].Type.(*ast.FuncType)
	if !isFuncType || !isErrorFuncType(info.TypeOf(res)) {
		return nil, nil, false
	}
	// A method of that name in an interface of the package: the method
	// may implement it.
	if fn.Signature().Recv() != nil {
		for _, obj := range info.Defs {
			if m, isMethod := obj.(*types.Func); isMethod && m != fn && m.Name() == fn.Name() {
				if r := m.Signature().Recv(); r != nil && types.IsInterface(r.Type()) {
					return nil, nil, false
				}
			}
		}
	}
	var stmtReturns []*ast.ReturnStmt
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			stmtReturns = append(stmtReturns, n)
		}
		return true
	})
	for _, r := range stmtReturns {
		if len(r.Results) != 1 {
			return nil, nil, false
		}
		lit, isLit := ast.Unparen(r.Results[0]).(*ast.FuncLit)
		if !isLit || !isErrorFunc(info, lit) || len(lit.Type.Params.List) != 0 {
			return nil, nil, false
		}
		inner = append(inner, lit)
	}
	if len(inner) == 0 {
		return nil, nil, false
	}
	// Every use of the function is the call of a Go of this component.
	goCalls := map[ast.Node]bool{}
	for _, e := range x.c.events {
		if (e.method == "Go" || e.method == "TryGo") && len(e.call.Args) == 1 {
			if c, isCall := ast.Unparen(e.call.Args[0]).(*ast.CallExpr); isCall {
				goCalls[ast.Unparen(c.Fun)] = true
			}
		}
	}
	for use, obj := range info.Uses {
		if obj != fn {
			continue
		}
		cur, found := x.ip.in.Root().FindNode(use)
		if !found {
			return nil, nil, false
		}
		fun := ast.Node(use)
		if sel, isSel := cur.Parent().Node().(*ast.SelectorExpr); isSel && sel.Sel == use {
			fun = sel
		}
		if !goCalls[fun] {
			return nil, nil, false
		}
	}
	return res, inner, true
}
