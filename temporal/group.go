package wtask

import "go.temporal.io/sdk/workflow"

// group is the state that RunN and Map share: the functions' context, the
// first failure, and the wait for every function to return.
//
// Everything here runs in workflow coroutines, which the SDK runs one at a
// time: no field needs a lock, and the order in which functions finish is
// the order in which the workflow observes their results (history order),
// the same on every replay.
type group struct {
	failures
	ctx      workflow.Context    // the caller's
	fctx     workflow.Context    // the functions' parent: a child of ctx (ctx itself with KeepGoing), with WaitForCancellation
	cancel   workflow.CancelFunc // cancels fctx; nil with KeepGoing
	opts     flags
	outs     []outcome         // by position
	canceled bool              // the call has canceled fctx (after the first failure)
	running  int               // functions (or Map's workers) not yet returned
	done     workflow.Settable // set when running drops to 0 while wait waits
}

// init prepares the group for a call.
//
// The functions' context has the activity option WaitForCancellation set:
// the future of an activity canceled with it is ready only once the
// activity has ended, so that a function that waits on it returns, and the
// call with it, only when the activity's work has stopped (the package
// documentation, "The drain"). Without it the SDK makes the future ready as
// soon as the cancellation is requested, and the activity runs on in its
// worker after the call has returned. It is set with KeepGoing too: the
// caller's ctx may still be canceled (the workflow is).
//
// Child workflows need nothing: the SDK makes the future of a canceled
// child ready only when the child has closed, whatever
// ChildWorkflowOptions.WaitForCancellation says (the SDK does not read that
// option in a worker, v1.26.0 to v1.51.0). Local activities cannot be
// waited for: the SDK cancels their context and makes their future ready
// at once, with no option to wait.
func (g *group) init(ctx workflow.Context, call, arg string, opts flags, outs []outcome) {
	g.failures = newFailures(call, arg)
	g.ctx, g.fctx, g.opts, g.outs = ctx, ctx, opts, outs
	if opts&keepGoing == 0 {
		g.fctx, g.cancel = workflow.WithCancel(ctx)
	}
	g.fctx = workflow.WithWaitForCancellation(g.fctx, true)
}

// record stores the outcome of position i: a failure of its own cancels the
// others (fail-fast), unless the call keeps going.
func (g *group) record(i int, err error) {
	o := &g.outs[i]
	o.ran = true
	if err == nil {
		return
	}
	o.err = err
	o.stop = classify(g.ctx, g.canceled, err)
	if o.stop == own && g.cancel != nil && !g.canceled {
		g.canceled = true
		g.cancel()
	}
}

// exit counts a function (or worker) that has returned.
func (g *group) exit() {
	g.running--
	if g.running == 0 && g.done != nil {
		g.done.Set(nil, nil)
	}
}

// wait blocks until every function has returned, whatever happens to ctx
// (a Future's Get does not return early on cancellation: that is the
// drain), then returns the call's error.
//
// Rejected: workflow.Await(ctx, ...) returns as soon as ctx is canceled,
// which would leave functions running after the call; a workflow.WaitGroup
// is the same future with more bookkeeping.
func (g *group) wait() error {
	if g.running > 0 {
		f, s := workflow.NewFuture(g.ctx)
		g.done = s
		_ = f.Get(g.ctx, nil) // set with a nil error
	}
	if g.cancel != nil {
		g.cancel() // release fctx from ctx
	}
	for i, o := range g.outs {
		g.add(i, o)
	}
	return g.err(g.ctx)
}

// stopped reports whether a new function must not start: after a failure,
// or once ctx is done, unless the call keeps going.
func (g *group) stopped() bool {
	return g.opts&keepGoing == 0 && (g.canceled || g.ctx.Err() != nil)
}
