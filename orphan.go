package task

import (
	"runtime"
	"sync/atomic"
)

// An extra is what a few tasks need beyond their core, kept apart so that
// the others do not pay for it (see core.x): a task that did not succeed,
// whose error is here (a child's extra is made before it completes, see
// childTask.shareExtra; a task of Go or a Promise gets one as it
// completes), a task of a [Named] function, and a child of a limited group
// or of a Named function (in the child's allocation, from its spawn).
type extra struct {
	err      error       // the error of a task that did not succeed; written once, before the state leaves pending
	observed atomic.Bool // a wait passed the panic, or the Goexit, on
	stop     stopKind    // a child's: own, stopCall or stopCtx; set before the task completes
	waiting  waitState   // a child's in a limited group: where it is in the queue; guarded by the group's mu
	name     string      // the name of a Named function
	child    child       // a child's: the child itself, which the queue runs and a wait starts while it is queued
	next     *extra      // the next child in the queue; guarded by the group's mu
}

// An orphanWatch is the extra of a task of Go that panicked: the panic
// that crashes the program if nobody waited. A child of a Scope does not
// need one (Scope raises its panic), and does not carry the field.
type orphanWatch struct {
	extra
	pe   *PanicError
	call string // "Go", or "Group" for a Group never waited for
}

// watchOrphan watches a panic recorded by a task started with Go. If the
// task becomes unreachable before any waiter has been handed the panic, the
// panic is raised again on the runtime's cleanup goroutine, which crashes
// the program as the panic would have without this package: a panic is
// never lost because nobody waited.
func watchOrphan[T any](t *Task[T], pe *PanicError) *extra {
	w := &orphanWatch{pe: pe, call: "Go"}
	if x := t.x.Load(); x != nil {
		w.name = x.name
	}
	runtime.AddCleanup(t, crashIfUnobserved, w)
	return &w.extra
}

func crashIfUnobserved(w *orphanWatch) {
	if !w.observed.Load() {
		pe := *w.pe
		pe.orphan = w.call
		panic(&pe)
	}
}
