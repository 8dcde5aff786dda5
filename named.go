package task

import (
	"context"

	"github.com/tasktuple/task/internal/probe"
)

// Named returns fn under a name, which errors and panics use in place of
// the function's position: "task: Run3: recs: 500 internal error" rather
// than "task: Run3: f3: ...", and "task: Scope: fetch /a: ..." rather than
// "task: Scope: children[7]: ...". It works wherever a function of this
// shape is taken: RunN, Go, Spawn, TrySpawn, RunFirstOK, Hedge.
//
//	user, recs, err := task.Run2(ctx, loadUser, task.Named("recs", loadRecs))
//
// The name travels with what fn returns: an error fn returns is wrapped in
// a value whose message and errors.Is/As are the error's own (the name is
// read from it by the call, which unwraps it into PositionError.Err), and
// a panic is raised again with the name attached (PanicError.Arg, and the
// stack still starts at the frame that panicked). A Goexit passes through.
//
// Named costs at most one allocation, for the function it returns (none
// when the compiler keeps it on the stack); an error adds one. Functions
// that are not named cost nothing more.
func Named[T any](name string, fn func(context.Context) (T, error)) func(context.Context) (T, error) {
	if fn == nil {
		nilArg("Named", "fn")
	}
	return func(ctx context.Context) (v T, err error) {
		normal := false
		defer func() {
			if !normal {
				// A panic, or a Goexit (recover returns nil, and the
				// Goexit goes on).
				if r := recover(); r != nil {
					panic(&namedPanic{name: name, value: r})
				}
			}
		}()
		if p := probe.Load(); p != nil {
			var end func()
			ctx, end = p.Named(ctx, name)
			defer end()
		}
		v, err = fn(ctx)
		normal = true
		if err != nil {
			err = &namedError{name: name, err: err}
		}
		return v, err
	}
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
