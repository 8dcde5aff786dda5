package wtask

import (
	"context"

	"go.temporal.io/sdk/workflow"
)

// An Activity is a typed reference to an activity that takes an I and
// returns an O. Its methods start it with the input type checked by the
// compiler and return a [Future] of the output type:
//
//	var loadUser = wtask.NewActivity(LoadUser) // func(context.Context, int) (User, error)
//	...
//	fu := loadUser.Execute(ctx, 7) // wtask.Future[User]
//	user, err := fu.Get(ctx)
//
// The activity options come from ctx, as for [workflow.ExecuteActivity]
// ([workflow.WithActivityOptions]); the activity must be registered with
// the worker as usual. I and O go through the data converter, so they must
// be serializable (JSON by default: exported fields).
//
// An Activity is a small value that may be copied and shared by every
// workflow of a worker. Its zero value references nothing: its methods panic.
type Activity[I, O any] struct {
	ref any // the activity function, or its registered name (a string)
}

// NewActivity references the activity function fn, which may be a function
// or a method value (acts.LoadUser, with acts possibly a nil pointer, as the
// SDK allows). The activity is called by the name the SDK derives from fn,
// the name under which worker.RegisterActivity registers it.
func NewActivity[I, O any](fn func(context.Context, I) (O, error)) Activity[I, O] {
	if fn == nil {
		nilArg("NewActivity", "fn")
	}
	return Activity[I, O]{ref: fn}
}

// ActivityByName references an activity by its registered name: one
// registered with [activity.RegisterOptions] Name, or written in another
// language. The compiler cannot check I and O against it: the types are
// the caller's promise.
//
// [activity.RegisterOptions]: https://pkg.go.dev/go.temporal.io/sdk/activity#RegisterOptions
func ActivityByName[I, O any](name string) Activity[I, O] {
	if name == "" {
		panic("wtask: ActivityByName: empty name")
	}
	return Activity[I, O]{ref: name}
}

// Execute schedules the activity with input in ([workflow.ExecuteActivity])
// and returns the future of its output.
func (a Activity[I, O]) Execute(ctx workflow.Context, in I) Future[O] {
	if a.ref == nil {
		panic("wtask: Execute of the zero Activity")
	}
	return Future[O]{f: workflow.ExecuteActivity(ctx, a.ref, in)}
}

// ExecuteLocal runs it as a local activity ([workflow.ExecuteLocalActivity],
// options from [workflow.WithLocalActivityOptions]). Canceled, a local
// activity is not waited for: the SDK cancels its context and makes its
// future ready at once, so one that goes on after its context is done
// outlives RunN and Map (see the package documentation, "The drain").
func (a Activity[I, O]) ExecuteLocal(ctx workflow.Context, in I) Future[O] {
	if a.ref == nil {
		panic("wtask: ExecuteLocal of the zero Activity")
	}
	return Future[O]{f: workflow.ExecuteLocalActivity(ctx, a.ref, in)}
}

// Run executes the activity and waits for its output: Execute then Get. Its
// method value fits where RunN and [Map] take a function:
//
//	user, orders, err := wtask.Run2(ctx, loadUser.Bind(7), loadOrders.Bind(7))
//	sizes, err := wtask.Map(ctx, files, 8, size.Run)
func (a Activity[I, O]) Run(ctx workflow.Context, in I) (O, error) {
	return a.Execute(ctx, in).Get(ctx)
}

// Bind returns a function that runs the activity with input in: the shape
// RunN takes.
func (a Activity[I, O]) Bind(in I) func(workflow.Context) (O, error) {
	if a.ref == nil {
		panic("wtask: Bind of the zero Activity")
	}
	return func(ctx workflow.Context) (O, error) { return a.Run(ctx, in) }
}
