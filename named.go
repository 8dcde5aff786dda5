package task

import (
	"context"
	"reflect"
	"sync"
	"sync/atomic"

	"github.com/tasktuple/task/internal/probe"
)

// Named returns fn under a name, which errors and panics use in place of
// the function's position: "task: Run3: recs: 500 internal error" rather
// than "task: Run3: f3: ...", and "task: Scope: fetch /a: ..." rather than
// "task: Scope: children[7]: ...". It works wherever a function of this
// shape is taken: RunN, the function [Go] (a task), Spawn, TrySpawn,
// Hedge, Quorum and Until. [NamedErr] names a function that returns only
// an error (Group.Go and TryGo, Do), and [NamedBy] and [NamedByErr] name
// each call of Map, ForEach and the streams by its input. Every name goes
// to errors, panics, logs, pprof labels, traces, the dump and spans.
//
//	user, recs, err := task.Run2(ctx, loadUser, task.Named("recs", loadRecs))
//
// The calls report fn's own error under the name (PositionError.Err is
// the error itself), and the task of Go or Spawn holds the error itself:
// Wait returns it unchanged. A panic is raised again with the name
// attached (PanicError.Arg; the stack still starts at the frame that
// panicked); a Goexit passes through. Called directly, the function
// returned wraps fn's error in a value whose message and errors.Is/As are
// the error's own.
func Named[T any](name string, fn func(context.Context) (T, error)) func(context.Context) (T, error) {
	if fn == nil {
		nilArg("Named", "fn")
	}
	w := func(ctx context.Context) (v T, err error) {
		if ctx == nameQuery {
			return v, &namedError{name: name} // see nameOf
		}
		return runNamed(ctx, func() string { return name }, fn)
	}
	registerNamed(reflect.ValueOf(w).Pointer())
	return w
}

// NamedErr is [Named] for a function that returns only an error: a child
// of [Group.Go] or [Group.TryGo], a function of [Do].
//
//	g.Go(task.NamedErr("index /c", indexPage))
func NamedErr(name string, fn func(context.Context) error) func(context.Context) error {
	if fn == nil {
		nilArg("NamedErr", "fn")
	}
	w := func(ctx context.Context) error {
		if ctx == nameQuery {
			return &namedError{name: name} // see nameOfFunc
		}
		_, err := runNamed(ctx, func() string { return name }, func(ctx context.Context) (struct{}, error) { return struct{}{}, fn(ctx) })
		return err
	}
	registerNamed(reflect.ValueOf(w).Pointer())
	return w
}

// NamedBy names each call of fn by its input, with name(in), in place of
// its position ("task: Map: user 42: ..." rather than "task: Map:
// inputs[3]: ..."), for Map, MapSeq and MapSeqUnordered. name is called
// only when the name may be needed: when the call returns an error (a
// failure, or a cancellation, which CallError.Canceled and Unfinished
// name too) or panics, or, with probes enabled (taskpprof, tasktrace,
// taskdump, spans), when it starts.
//
//	users, err := task.Map(ctx, ids, 8, task.NamedBy(func(id int) string { return "user " + strconv.Itoa(id) }, loadUser))
func NamedBy[In, Out any](name func(In) string, fn func(context.Context, In) (Out, error)) func(context.Context, In) (Out, error) {
	if name == nil {
		nilArg("NamedBy", "name")
	}
	if fn == nil {
		nilArg("NamedBy", "fn")
	}
	return func(ctx context.Context, in In) (Out, error) {
		return runNamed(ctx, func() string { return name(in) }, func(ctx context.Context) (Out, error) { return fn(ctx, in) })
	}
}

// NamedByErr is [NamedBy] for a function that returns only an error, for
// ForEach.
func NamedByErr[In any](name func(In) string, fn func(context.Context, In) error) func(context.Context, In) error {
	if name == nil {
		nilArg("NamedByErr", "name")
	}
	if fn == nil {
		nilArg("NamedByErr", "fn")
	}
	return func(ctx context.Context, in In) error {
		_, err := runNamed(ctx, func() string { return name(in) }, func(ctx context.Context) (struct{}, error) { return struct{}{}, fn(ctx, in) })
		return err
	}
}

// runNamed calls fn under the name that name returns, called only when it
// is needed: its error is wrapped with the name, a panic raised again with
// it, and the probes told it at the start.
func runNamed[T any](ctx context.Context, name func() string, fn func(context.Context) (T, error)) (v T, err error) {
	normal := false
	defer func() {
		if !normal {
			// A panic, or a Goexit (recover returns nil, and the
			// Goexit goes on).
			if r := recover(); r != nil {
				panic(&namedPanic{name: name(), value: r})
			}
		}
	}()
	if p := probe.Load(); p != nil {
		var end func()
		ctx, end = p.Named(ctx, name())
		defer end()
	}
	v, err = fn(ctx)
	normal = true
	if err != nil {
		err = &namedError{name: name(), err: err}
	}
	return v, err
}

// The names of Named functions are known before they run, so that a task
// of Go or Spawn is named from the start: an await that gives up on it
// names it in its "had not finished" line. A function's code pointer says
// whether it is a wrapper of Named (one per shape of T); if it is, calling
// it with nameQuery returns its name without running it.
var (
	namedMu  sync.Mutex
	namedPCs atomic.Pointer[map[uintptr]bool] // copied on write, under namedMu
)

// nameQuery is the context that asks a Named wrapper for its name.
var nameQuery context.Context = nameQueryCtx{}

type nameQueryCtx struct{ context.Context }

// registerNamed records the code pointer of a Named wrapper.
func registerNamed(pc uintptr) {
	if m := namedPCs.Load(); m != nil && (*m)[pc] {
		return
	}
	namedMu.Lock()
	defer namedMu.Unlock()
	m := map[uintptr]bool{pc: true}
	if old := namedPCs.Load(); old != nil {
		for k := range *old {
			m[k] = true
		}
	}
	namedPCs.Store(&m)
}

// nameOf returns the name of fn if Named made it, or "". A program that
// never calls Named pays one atomic load for it.
func nameOf[T any](fn func(context.Context) (T, error)) string {
	m := namedPCs.Load()
	if m == nil || !(*m)[reflect.ValueOf(fn).Pointer()] {
		return ""
	}
	if _, err := fn(nameQuery); err != nil {
		if ne, ok := err.(*namedError); ok {
			return ne.name
		}
	}
	return ""
}

// nameOfFunc is nameOf for a function of NamedErr.
func nameOfFunc(fn func(context.Context) error) string {
	m := namedPCs.Load()
	if m == nil || !(*m)[reflect.ValueOf(fn).Pointer()] {
		return ""
	}
	if ne, ok := fn(nameQuery).(*namedError); ok {
		return ne.name
	}
	return ""
}

// namedError is an error of a named function: transparent, but for the
// name, which a call over several functions reads.
type namedError struct {
	name string
	err  error
}

func (e *namedError) Error() string { return e.err.Error() }
func (e *namedError) Unwrap() error { return e.err }

// namedPanic is a panic of a named function, raised again with the name.
type namedPanic struct {
	name  string
	value any
}

// unname splits what a function ended with into its name, if it was
// named, and the error or panic value itself.
func unname(err error) (string, error) {
	if ne, ok := err.(*namedError); ok {
		return ne.name, ne.err
	}
	if pe, ok := err.(*PanicError); ok && pe.name != "" {
		return pe.name, pe
	}
	return "", err
}
