package task

import (
	"context"
	"reflect"
)

// Scope runs body with a new [Group] and returns what body returns, once
// body and every child spawned into the group ([Spawn]) have returned,
// whatever happened: no child outlives the call. It is the dynamic form of
// RunN, for a fan-out whose size is known only as it runs: a loop over
// inputs, a crawler that spawns the links it finds, a tree walk.
//
//	user, err := task.Scope(ctx, func(ctx context.Context, g *task.Group) (User, error) {
//		tu := task.Spawn(g, loadUser)
//		to := task.Spawn(g, loadOrders)
//		u, orders, err := task.Await2(ctx, tu, to)
//		...
//		return u, err
//	})
//
// The rules of cancellation, errors and panics are the package's, with the
// body as a function like the children (Arg "body", Index -1, reported
// first; children by spawn order, Arg "children[i]"). What differs: what
// the body received from a child through a wait is the body's to report,
// so a child's failure that the body's error wraps is not listed again,
// and a child's panic that an await raised is not raised a second time.
// With [Settled], the result is what body returned even with an error.
// A nil ctx or body panics before anything starts.
func Scope[R any](ctx context.Context, body func(context.Context, *Group) (R, error), opts ...Option) (R, error) {
	if ctx == nil {
		nilArg("Scope", "ctx")
	}
	if body == nil {
		nilArg("Scope", "body")
	}
	g := new(Group)
	g.init(ctx, options("Scope", famScope, opts), kindScope)
	var r R
	returned := false
	defer func() {
		if !returned {
			// body called Goexit (or panicked while a Goexit unwound): wait
			// for the children, then raise a panic if there is one, or let
			// the Goexit go on.
			g.bodyEnd()
			f, err := g.join()
			g.c.callEnd(err)
			f.raiseOverGoexit()
		}
	}()
	invoke(g.c.ctx(), site{&g.c, -1}, func(ctx context.Context) (R, error) { return body(ctx, g) }, &r, &g.body)
	returned = true
	g.bodyEnd()
	g.settle()
	if g.body.state == succeeded && g.succeeded() {
		g.c.callEnd(nil)
		return r, nil // the success path: nothing to collect
	}
	f, err := g.collect()
	err = g.c.conclude(&f, err)
	if err != nil && !g.c.settled() {
		var zero R
		return zero, err
	}
	return r, err
}

// bodyEnd records the end of the body; settle then lets go of the group.
func (g *Group) bodyEnd() {
	g.c.ended(-1, &g.body)
}

// join waits for every child, cancels the group's context and collects the
// outcomes (call.join's settle and collect, for a group): the body's first,
// then the children's in spawn order.
func (g *Group) join() (report, error) {
	g.settle()
	return g.collect()
}

// hashable reports whether err can be a map key: its type is comparable
// and so is what it holds (an interface field may hold a slice).
func hashable(err error) bool { return reflect.ValueOf(err).Comparable() }

// An occurrenceCount counts the errors in the tree of an error: by value
// those that can be compared, the others in a list (see sameUncomparable).
type occurrenceCount struct {
	hashable map[error]int
	others   []occurrence
}

type occurrence struct {
	err error
	n   int
}

func (m *occurrenceCount) add(err error) {
	if hashable(err) {
		m.hashable[err]++
		return
	}
	for i := range m.others {
		if sameUncomparable(m.others[i].err, err) {
			m.others[i].n++
			return
		}
	}
	m.others = append(m.others, occurrence{err, 1})
}

// take reports whether err, without the name of a Named function, has an
// occurrence left, and uses it.
func (m *occurrenceCount) take(err error) bool {
	if m == nil {
		return false
	}
	_, err = unname(err)
	if hashable(err) {
		if m.hashable[err] == 0 {
			return false
		}
		m.hashable[err]--
		return true
	}
	for i := range m.others {
		if o := &m.others[i]; o.n > 0 && sameUncomparable(o.err, err) {
			o.n--
			return true
		}
	}
	return false
}

// sameUncomparable reports whether two errors that cannot be compared with
// == are the same failure: values of the same type whose slices, maps and
// channels are the same ones (not only equal: an equal slice another child
// made is another failure), whose funcs have the same code, and whose
// other parts are equal.
// A failure that a child returned and the body received through a wait is
// the same interface value, copied, so it is the same.
func sameUncomparable(a, b error) bool {
	return sameValue(reflect.ValueOf(a), reflect.ValueOf(b))
}

func sameValue(a, b reflect.Value) bool {
	if a.Kind() == reflect.Interface {
		if a.IsNil() || b.IsNil() {
			return a.IsNil() && b.IsNil()
		}
		a, b = a.Elem(), b.Elem()
	}
	if a.Type() != b.Type() {
		return false
	}
	if a.Comparable() && b.Comparable() {
		return a.Equal(b)
	}
	switch a.Kind() {
	case reflect.Slice:
		return a.Pointer() == b.Pointer() && a.Len() == b.Len()
	case reflect.Map, reflect.Func, reflect.Chan:
		return a.Pointer() == b.Pointer()
	case reflect.Struct:
		for i := range a.NumField() {
			if !sameValue(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Array:
		for i := range a.Len() {
			if !sameValue(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	}
	return false
}

// occurrences counts the errors in the tree of err, err itself included.
func occurrences(err error) *occurrenceCount {
	m := &occurrenceCount{hashable: map[error]int{}}
	var walk func(error)
	walk = func(e error) {
		if e == nil {
			return
		}
		m.add(e)
		switch u := e.(type) {
		case interface{ Unwrap() error }:
			walk(u.Unwrap())
		case interface{ Unwrap() []error }:
			for _, x := range u.Unwrap() {
				walk(x)
			}
		}
	}
	walk(err)
	return m
}
