package task

import (
	"context"
	"errors"
	"slices"
	"time"
)

// ErrBudget is the cause of the cancellation that [MapWithin] sends to
// the calls still running when its budget ends.
var ErrBudget = errors.New("task: the budget ended")

// MapWithin is [Map] with a budget. When budget has passed since the call
// began, the calls running are canceled with the cause [ErrBudget] and no
// input starts after, with [KeepGoing] too; [Grace] gives them a grace
// period, as at the end of ctx.
//
// The budget's end is not a failure. MapWithin returns out, whatever err
// is: the result of every input whose call succeeded, before or after the
// budget's end, and zero elsewhere; left, in ascending order, the inputs
// the budget's end left without a result (their calls returned a
// cancellation after it, or never started); and err, Map's error for the
// calls' own failures ("task: MapWithin: inputs[3]: ..."), nil if none
// failed. No position is in both. Only if ctx ends the call before the
// budget does is err a *[CallError] with Ctx set, and left nil.
//
// What a failure canceled or left not started is in err, not in left. The
// budget follows the clock (in [testing/synctest], the bubble's); a budget
// that is not positive is over when the call begins. The options are
// ForEach's: KeepGoing, [FirstError] and Grace. A nil ctx or fn, or a
// limit of 0, panics at once.
func MapWithin[In, Out any](ctx context.Context, budget time.Duration, inputs []In, limit int, fn func(context.Context, In) (Out, error), opts ...Option) (out []Out, left []int, err error) {
	if ctx == nil {
		nilArg("MapWithin", "ctx")
	}
	if fn == nil {
		nilArg("MapWithin", "fn")
	}
	limit = checkLimit("MapWithin", limit)
	out, err = mapN(kindMapWithin, ctx, inputs, limit, fn, nil, options("MapWithin", famForEach, opts)|settled, &left, budget)
	return out, left, err
}

// budgetLeft is the rule of a budget, for a call whose ctx is the
// budget's: if the budget ended the call (ctx's cause is ErrBudget), it
// stores in left the positions the budget left without a result
// (unfinished, or not started because of the budget), and returns err
// without them and without the budget's end: the failures of the calls
// alone, with what a failure left not started, or nil if none failed.
func (c *call) budgetLeft(f *report, err error, left *[]int) error {
	ce, ok := err.(*CallError)
	if !ok || ce.Ctx == nil || context.Cause(c.parent) != ErrBudget || f.panic != nil || f.exited {
		// A panic or Goexit raised returns no left: the panic holds what
		// the budget left, as Map's holds what a stop left.
		return err
	}
	for _, u := range ce.Unfinished {
		*left = append(*left, u.Index)
	}
	for _, e := range [...]*CallError{ce, &f.e} {
		e.Ctx, e.Unfinished = nil, nil
	}
	if ce.stopped {
		*left = append(*left, ce.NotStartedAt()...)
		for _, e := range [...]*CallError{ce, &f.e} {
			e.NotStarted, e.left, e.stopped = 0, nil, false
		}
	}
	slices.Sort(*left)
	if len(ce.Failures) == 0 && ce.NotStarted == 0 {
		return nil
	}
	return ce
}
