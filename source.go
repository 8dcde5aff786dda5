package task

// A Source is the producer side of a [Task] that is completed by a
// callback or another goroutine rather than by a function started with [Go]:
// the counterpart of .NET's TaskCompletionSource, or a promise.
//
// The task completes once. Complete may be called any number of times from
// any goroutines: the first call wins, and every later call returns false
// without changing what waiters see.
//
// Make a Source with [NewSource]; the zero Source is not usable, and a
// Source must not be copied.
type Source[T any] struct {
	t Task[T]
}

// NewSource returns a Source whose task is pending.
func NewSource[T any]() *Source[T] {
	s := new(Source[T])
	s.t.wg.Add(1)
	return s
}

// Task returns the task that s completes. It is the same task at every call.
func (s *Source[T]) Task() *Task[T] {
	return &s.t
}

// Complete completes the task with v and err, and reports whether this call
// did so. A false result means the task had already completed: v and err
// are dropped, and waiters keep the first result.
//
// Complete(fetch()) passes a function's two results straight through.
func (s *Source[T]) Complete(v T, err error) bool {
	st := succeeded
	if err != nil {
		st = failed
	}
	return s.t.complete(v, outcome{state: st, err: err})
}
