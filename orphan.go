package task

import (
	"runtime"
	"sync/atomic"
)

// An extra is what a few tasks need beyond their core, kept apart so that
// the others do not pay for it (see core.x): a task of [Go] that panicked,
// a task whose [Named] function failed, and every child of a [Scope],
// whose extra is part of its own allocation.
type extra struct {
	observed atomic.Bool // a wait passed the panic, or the Goexit, on
	pe       *PanicError // Go: the panic that crashes the program if nobody waited
	name     string      // the name of a Named function that returned an error
	child    child       // a child of a Scope: a wait starts it while it is queued
}

// watchOrphan watches a panic recorded by a task started with Go. If the
// task becomes unreachable before any waiter has been handed the panic, the
// panic is raised again on the runtime's cleanup goroutine, which crashes
// the program as the panic would have without this package: a panic is
// never lost because nobody waited.
func watchOrphan[T any](t *Task[T], pe *PanicError) *extra {
	x := &extra{pe: pe}
	runtime.AddCleanup(t, crashIfUnobserved, x)
	return x
}

func crashIfUnobserved(x *extra) {
	if !x.observed.Load() {
		panic(&OrphanPanicError{PanicError: x.pe})
	}
}
