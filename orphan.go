package task

import (
	"runtime"
	"sync/atomic"
)

// An orphan watches a panic recorded by a task started with [Go]. If the
// task becomes unreachable before any waiter has been handed the panic, the
// panic is raised again on the runtime's cleanup goroutine, which crashes
// the program as the panic would have without this package: a panic is
// never lost because nobody waited.
type orphan struct {
	pe       *PanicError
	observed atomic.Bool
}

func watchOrphan[T any](t *Task[T], pe *PanicError) *orphan {
	o := &orphan{pe: pe}
	runtime.AddCleanup(t, crashIfUnobserved, o)
	return o
}

func crashIfUnobserved(o *orphan) {
	if !o.observed.Load() {
		panic(&OrphanPanicError{PanicError: o.pe})
	}
}
