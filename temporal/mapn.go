package wtask

import (
	"strconv"

	"go.temporal.io/sdk/workflow"
)

// Map calls fn on every element of inputs, with at most limit calls running
// at once, and returns the results in the order of inputs: the workflow
// counterpart of task.Map, for fanning out to many activities.
//
//	sizes, err := wtask.Map(ctx, files, 8, size.Run) // size is a wtask.Activity[string, int64]
//
// Map starts min(limit, len(inputs)) workers with [workflow.Go]; each takes
// the next input in order, so the activities are scheduled in input order,
// the same on every replay. Map has the rules of RunN: the calls get a
// child of ctx that the first failure cancels, with WaitForCancellation
// set, no new call starts after that or once ctx is done, Map returns only
// after every call has returned and every activity they started has ended
// (the drain), and the error is a *[task.CallError] with every failure of its own as a
// *[task.PositionError] whose Arg names the input ("inputs[3]"); the
// cancellations that followed are kept in CallError.Canceled. Inputs never
// started are not listed, and their results are zero; if ctx ended the call
// before every input started, the error says so even when no call was
// stopped. With [KeepGoing] nothing is canceled and every input is
// processed; with [Settled] the results are returned along with the error.
//
// limit must be at least 1: a limit of 0 or less panics, rather than
// meaning "no limit". Pass len(inputs) for no limit; note that every
// running activity is a pending activity of the workflow, which the server
// bounds (2,000 by default), and that every call adds events to the
// workflow's history, which is bounded too (51,200 events by default):
// for many thousands of inputs, split the work into child workflows.
func Map[In, Out any](ctx workflow.Context, inputs []In, limit int, fn func(workflow.Context, In) (Out, error), opts ...Option) ([]Out, error) {
	if ctx == nil {
		nilArg("Map", "ctx")
	}
	if fn == nil {
		nilArg("Map", "fn")
	}
	if limit < 1 {
		panic("wtask: Map: limit is " + strconv.Itoa(limit) + "; want at least 1")
	}
	out := make([]Out, len(inputs))
	if len(inputs) == 0 {
		return out, nil
	}
	s := &mapping[In, Out]{in: inputs, fn: fn, out: out}
	s.init(ctx, "Map", "inputs", options(opts), make([]outcome, len(inputs)))
	workers := min(limit, len(inputs))
	s.running = workers
	for range workers {
		workflow.Go(s.fctx, s.work)
	}
	err := s.wait()
	if err == nil && s.next < len(inputs) {
		// No failure, yet inputs were left: ctx ended the call first.
		e := s.e
		e.Ctx = ctxErr(ctx)
		err = &e
	}
	if err != nil && s.opts&settled == 0 {
		return nil, err
	}
	return out, err
}

// mapping is the state of one Map call.
type mapping[In, Out any] struct {
	group
	in   []In
	fn   func(workflow.Context, In) (Out, error)
	out  []Out
	next int // the next input to take
}

// work takes inputs in order until there are none left, or until a
// failure or the end of ctx stops the call (unless it keeps going).
func (s *mapping[In, Out]) work(ctx workflow.Context) {
	for s.next < len(s.in) && !s.stopped() {
		i := s.next
		s.next++
		v, err := s.fn(ctx, s.in[i])
		s.out[i] = v
		s.record(i, err)
	}
	s.exit()
}
