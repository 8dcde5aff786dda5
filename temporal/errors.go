package wtask

import (
	"strconv"

	"github.com/tasktuple/task"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// This file builds the core's error types from their exported fields: the
// core has no constructor for them, and needs none, since every field is
// exported. The rules are the core's (doc.go, "Errors" and
// "Cancellations"), with the SDK's [temporal.CanceledError] in the place
// of context.Canceled: a workflow context has no cause.

// How a position that returned an error relates to a cancellation.
const (
	own      uint8 = iota // its own failure
	stopCall              // a cancellation after the call canceled it (fail-fast)
	stopCtx               // a cancellation after the caller's ctx was canceled
)

// outcome is how one position ended.
type outcome struct {
	err  error
	stop uint8
	ran  bool // the function was called (Map leaves inputs out after a failure)
}

// classify tells how an error returned at one position relates to the
// cancellations of the call, by the core's rule: a CanceledError once the
// caller's ctx is done was stopped by ctx; a CanceledError after the call
// canceled its functions was stopped by the call; anything else is a
// failure of its own.
func classify(ctx workflow.Context, canceled bool, err error) uint8 {
	if !temporal.IsCanceledError(err) {
		return own
	}
	if ctx.Err() != nil {
		return stopCtx
	}
	if canceled {
		return stopCall
	}
	return own
}

// failures collects the outcomes of a call in argument order into a
// *task.CallError.
type failures struct {
	e   task.CallError
	arg string // how arguments are named: "f" (1-based) or a slice ("inputs")
}

func newFailures(call, arg string) failures {
	return failures{e: task.CallError{Call: call}, arg: arg}
}

// at returns the PositionError of position i.
func (f *failures) at(i int, err error) *task.PositionError {
	return &task.PositionError{Call: f.e.Call, Index: i, Arg: argName(f.arg, i), Err: err}
}

// argName names position i of a call whose arguments are named by arg.
func argName(arg string, i int) string {
	if arg == "f" {
		return "f" + strconv.Itoa(i+1)
	}
	return arg + "[" + strconv.Itoa(i) + "]"
}

// add adds the outcome of position i.
func (f *failures) add(i int, o outcome) {
	if o.err == nil {
		return
	}
	pe := f.at(i, o.err)
	switch o.stop {
	case stopCall:
		f.e.Canceled = append(f.e.Canceled, pe)
	case stopCtx:
		f.e.Unfinished = append(f.e.Unfinished, pe)
	default:
		f.e.Failures = append(f.e.Failures, pe)
	}
}

// unfinished records that the future at position i was not ready when ctx
// ended the wait.
func (f *failures) unfinished(i int) {
	f.e.Unfinished = append(f.e.Unfinished, f.at(i, nil))
}

// err returns the CallError, or nil when nothing failed and nothing was
// stopped. When ctx stopped positions, its error is added.
func (f *failures) err(ctx workflow.Context) error {
	switch {
	case len(f.e.Unfinished) > 0:
		f.e.Ctx = ctxErr(ctx)
	case len(f.e.Canceled) > 0 && len(f.e.Failures) == 0:
		// Stopped by the call with nothing failed: unreachable, as the
		// call cancels only after a failure, but a cancellation must never
		// read as success.
		f.e.Ctx = workflow.ErrCanceled
	}
	if len(f.e.Failures) == 0 && f.e.Ctx == nil {
		return nil
	}
	e := f.e
	return &e
}

// ctxErr is ctx's error, never nil: workflow.ErrCanceled when ctx has none.
func ctxErr(ctx workflow.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return workflow.ErrCanceled
}
