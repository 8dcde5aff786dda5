package wtask

import "go.temporal.io/sdk/workflow"

// A Future is a [workflow.Future] whose value has the type T: Get returns
// the value, with no pointer to pass and no decode error to meet at run
// time for a wrong type.
//
// The zero Future holds nothing: Get panics on it, and the calls of this
// package reject it ("wtask: Await2: f2 is the zero Future"). A Future is a
// small value that may be copied; copies read the same result.
type Future[T any] struct {
	f workflow.Future // set once, by the function that made the Future
}

// FromFuture gives a type to a future that the SDK or other code made. The
// value it will hold must decode into a T, as it would for
// f.Get(ctx, &v) with v of type T: a mismatch is the error of Get.
func FromFuture[T any](f workflow.Future) Future[T] {
	if f == nil {
		panic("wtask: FromFuture: f is nil")
	}
	return Future[T]{f: f}
}

// Get blocks until the future is ready and returns its value and error.
// Like the SDK's Get, it waits even when ctx is canceled: a future of an
// activity started with ctx becomes ready with a [temporal.CanceledError]
// when ctx is canceled. When the error is not nil, the value is what the
// SDK decoded, usually the zero value.
//
// [temporal.CanceledError]: https://pkg.go.dev/go.temporal.io/sdk/temporal#CanceledError
func (f Future[T]) Get(ctx workflow.Context) (T, error) {
	var v T
	err := f.get(ctx, &v)
	return v, err
}

func (f Future[T]) get(ctx workflow.Context, v *T) error {
	if f.f == nil {
		panic("wtask: Get of the zero Future")
	}
	return f.f.Get(ctx, v)
}

// IsReady reports whether Get would return without blocking.
func (f Future[T]) IsReady() bool { return f.f != nil && f.f.IsReady() }

// Untyped returns the SDK's future, for a [workflow.Selector] (AddFuture)
// or code that takes one.
func (f Future[T]) Untyped() workflow.Future { return f.f }

// NewFuture returns a Future and the Settable that completes it: the typed
// form of [workflow.NewFuture].
func NewFuture[T any](ctx workflow.Context) (Future[T], Settable[T]) {
	f, s := workflow.NewFuture(ctx)
	return Future[T]{f: f}, Settable[T]{s: s}
}

// A Settable completes the Future that [NewFuture] returned with it, once.
// Setting it twice panics, as the SDK's does, and so does setting the zero
// Settable. A Settable may be copied; copies complete the same Future.
type Settable[T any] struct {
	s workflow.Settable
}

// Set completes the future with v and err.
func (s Settable[T]) Set(v T, err error) { s.s.Set(v, err) }

// SetValue completes the future with v and no error.
func (s Settable[T]) SetValue(v T) { s.s.Set(v, nil) }

// SetError completes the future with err and the zero value.
func (s Settable[T]) SetError(err error) { s.s.SetError(err) }

// Go runs fn in a new workflow coroutine ([workflow.Go]) and returns a
// Future of its result: the workflow counterpart of task.Go. fn gets a
// context of its own, derived from ctx, as workflow.Go gives; it must block
// only with that context.
//
// A panic in fn is not recovered: the SDK fails the workflow task (see the
// package documentation).
func Go[T any](ctx workflow.Context, fn func(workflow.Context) (T, error)) Future[T] {
	if ctx == nil {
		nilArg("Go", "ctx")
	}
	if fn == nil {
		nilArg("Go", "fn")
	}
	f, s := workflow.NewFuture(ctx)
	workflow.Go(ctx, func(ctx workflow.Context) {
		v, err := fn(ctx)
		s.Set(v, err)
	})
	return Future[T]{f: f}
}

// nilArg panics for a nil argument, naming the call and the argument.
func nilArg(call, arg string) {
	panic("wtask: " + call + ": " + arg + " is nil")
}

// zeroFuture panics for a zero Future argument.
func zeroFuture(call, arg string) {
	panic("wtask: " + call + ": " + arg + " is the zero Future")
}
