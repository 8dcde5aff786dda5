package wtask

import "go.temporal.io/sdk/workflow"

// A ChildWorkflow is a typed reference to a workflow that takes an I and
// returns an O, started as a child of the calling workflow. It is the
// counterpart of [Activity]: the child workflow options come from ctx
// ([workflow.WithChildOptions]), I and O must be serializable, and the zero
// value references nothing.
type ChildWorkflow[I, O any] struct {
	ref any // the workflow function, or its registered name (a string)
}

// NewChildWorkflow references the workflow function fn, called by the name
// the SDK derives from it.
func NewChildWorkflow[I, O any](fn func(workflow.Context, I) (O, error)) ChildWorkflow[I, O] {
	if fn == nil {
		nilArg("NewChildWorkflow", "fn")
	}
	return ChildWorkflow[I, O]{ref: fn}
}

// ChildWorkflowByName references a workflow by its registered name; I and
// O are the caller's promise.
func ChildWorkflowByName[I, O any](name string) ChildWorkflow[I, O] {
	if name == "" {
		panic("wtask: ChildWorkflowByName: empty name")
	}
	return ChildWorkflow[I, O]{ref: name}
}

// Execute starts the child workflow with input in
// ([workflow.ExecuteChildWorkflow]) and returns the future of its result.
func (c ChildWorkflow[I, O]) Execute(ctx workflow.Context, in I) ChildFuture[O] {
	if c.ref == nil {
		panic("wtask: Execute of the zero ChildWorkflow")
	}
	f := workflow.ExecuteChildWorkflow(ctx, c.ref, in)
	return ChildFuture[O]{Future: Future[O]{f: f}, child: f}
}

// Run starts the child workflow and waits for its result.
func (c ChildWorkflow[I, O]) Run(ctx workflow.Context, in I) (O, error) {
	return c.Execute(ctx, in).Get(ctx)
}

// Bind returns a function that runs the child workflow with input in: the
// shape RunN takes.
func (c ChildWorkflow[I, O]) Bind(in I) func(workflow.Context) (O, error) {
	if c.ref == nil {
		panic("wtask: Bind of the zero ChildWorkflow")
	}
	return func(ctx workflow.Context) (O, error) { return c.Run(ctx, in) }
}

// A ChildFuture is the Future of a child workflow's result, with the SDK's
// handle on the child. Pass its Future to AwaitN and [All]:
//
//	fc := report.Execute(ctx, in)
//	r, u, err := wtask.Await2(ctx, fc.Future, fu)
type ChildFuture[T any] struct {
	Future[T]
	child workflow.ChildWorkflowFuture
}

// Execution returns the future of the child's execution (workflow ID and
// run ID), ready once the child has started, or failed if it could not
// start.
func (f ChildFuture[T]) Execution() Future[workflow.Execution] {
	return Future[workflow.Execution]{f: f.child.GetChildWorkflowExecution()}
}

// Untyped returns the SDK's future of the child, to signal it
// (SignalChildWorkflow) or to pass to a [workflow.Selector].
func (f ChildFuture[T]) Untyped() workflow.ChildWorkflowFuture { return f.child }
