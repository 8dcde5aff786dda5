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

// An OrphanPanicError is the panic that crashes a program when a task
// started by [Go] panicked and was garbage collected without any Wait,
// TryWait or await having passed the panic on.
type OrphanPanicError struct {
	*PanicError
}

// Error describes the orphaned panic with its original stack, which ends
// with the line that started the task ("created by").
func (e *OrphanPanicError) Error() string {
	return "task: Go: never waited for: " + e.PanicError.message()
}
