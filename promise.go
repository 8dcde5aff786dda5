package task

// Promise returns a pending task and the function that completes it: a task
// completed by a callback or another goroutine rather than by a function
// started with [Go], as .NET's TaskCompletionSource or a promise.
//
// The first call of complete completes t with v and err and reports true;
// every later call, from any goroutine, reports false and changes nothing
// that waiters see. complete(fetch()) passes a function's two results
// straight through. A task already complete is one completed at once:
//
//	t, complete := task.Promise[int]()
//	complete(42, nil)
func Promise[T any]() (t *Task[T], complete func(v T, err error) bool) {
	t = &Task[T]{core: core{made: true}}
	return t, t.completeWith
}

// completeWith is the complete function of Promise.
func (t *Task[T]) completeWith(v T, err error) bool {
	st := succeeded
	if err != nil {
		st = failed
	}
	return t.complete(v, outcome{state: st, err: err})
}
