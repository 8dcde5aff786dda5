package task

import (
	"context"
	"errors"
	"slices"
)

// This file decides, for every kind of call, what the end of a function
// means: whether an error is a failure or a stop (classify), and what a
// failure or a success triggers (call.trigger for RunN, Map, Scope and
// MapSeq; race.trigger for Hedge). How a function ended is
// recorded by invoke (outcome.go); how outcomes become the call's error, by
// a report (report.go).

// ended classifies the outcome o of function i and applies what it
// triggers: the rule of RunN, Map, Scope and MapSeq. A success has nothing
// to classify, note or trigger: ended is inlined, and the success path of
// every function is one test.
func (c *call) ended(i int, o *outcome) {
	if o.state != succeeded {
		c.endedOther(i, o)
	}
}

// endedOther is ended for an outcome that is not a success.
func (c *call) endedOther(i int, o *outcome) {
	c.classify(o)
	c.noteFirst(i, o)
	c.trigger(i, o)
}

// classify says whether an error is a stop rather than a failure. This is
// the rule for cancellations (see the package documentation): an error is a
// stop only if the function returned it after its context was canceled and
// it holds that cancellation: the parent's error or cause, or ErrStopped
// after the call stopped taking new work (stopCtx), or context.Canceled or
// the exact cause the call sent (stopCall). The same sentinel returned
// independently is not the cause: the cause is a *PositionError of the
// call's.
func (c *call) classify(o *outcome) {
	if o.state != failed {
		return
	}
	switch {
	case stoppedBy(o.err, c.parent):
		o.stop = stopCtx
	case (c.isHalted() || closedChan(c.outer())) && errors.Is(o.err, ErrStopped):
		// A call nested in the function stopped taking new work when
		// this call did: the function was stopped as by the caller's ctx.
		o.stop = stopCtx
	case c.hasFailed() && (errors.Is(o.err, context.Canceled) || errors.Is(o.err, c.first())): // first is written before failed is set
		o.stop = stopCall
	case c.isFailing() && errors.Is(o.err, context.Canceled):
		// A child of a Scope failed and the group is about to be
		// canceled: a function that returns the cancellation of a child
		// refused meanwhile was stopped by the call (failedError).
		o.stop = stopCall
	case c.kind == kindMapWithin && errors.Is(o.err, context.Canceled) && context.Cause(c.parent) == ErrBudget:
		// The budget canceled the function's context: context.Canceled
		// holds that cancellation as its deadline's error does.
		o.stop = stopCtx
	}
}

// trigger is fail-fast: unless the call keeps going, a failure of its own
// (an error, a panic, a Goexit) cancels the call with the failure of
// position i as the cause. A Scope's group applies the same rule
// (Group.childEnded), in two steps.
func (c *call) trigger(i int, o *outcome) {
	if c.failsFast(o) {
		c.failAt(i, o)
	}
}

// failsFast reports whether o, a classified outcome, cancels the call:
// the one home of fail-fast.
func (c *call) failsFast(o *outcome) bool { return o.ownFailure() && !c.keepGoing() }

// leftBy says what owns the work a call has not started (Map's inputs not
// taken, a stream's inputs pulled and not called, a group's children
// waiting for a slot or spawned later): a failure or a stop, whichever came
// first. stopping says whether the call has stopped taking new work, as
// its caller sees it (call.stopping, or a stream's). A stop that comes
// after a failure does not make the work the failure left the stop's.
func (c *call) leftBy(stopping bool) refusal {
	switch {
	case stopping:
		return refusedStop
	case c.hasFailed() || c.isFailing():
		return refusedFailed
	}
	return admitted
}

// failAt cancels the call with the failure of position i as the cause. It
// is out of line, as Group.noteCause is: a report in the frame of a
// function that every function's goroutine calls would make each of them
// outgrow its first stack (see TestChildFrames).
//
//go:noinline
func (c *call) failAt(i int, o *outcome) {
	r := c.report()
	c.fail(r.at(i, o.err))
}

// trigger is the rule of Hedge, in the goroutine of the
// function that ended: the first success wins and cancels the others, with
// [ErrLost] as the cause; a success after the win triggers nothing. When
// every function has failed, nothing is left to cancel. Quorum and Until
// (need 0) decide on the caller's goroutine instead (race.decide,
// race.lose), which receives the ends in order: a decision there also
// spares the functions' small stacks the cancellations, which outgrow
// them.
func (r *race) trigger(i int, o *outcome) {
	if o.state != succeeded || r.need == 0 {
		return
	}
	// Counted under the lock: the success that completes the winners
	// must see every one before it in won.
	r.lmu.Lock()
	defer r.lmu.Unlock()
	if len(r.won) == int(r.need) {
		return
	}
	r.won = append(r.won, i)
	if len(r.won) == int(r.need) {
		r.winner.Store(int32(i) + 1)
		r.fail(ErrLost)
		for j, l := range r.lanes {
			if l != nil && !slices.Contains(r.won, j) {
				l.cancel(ErrLost)
			}
		}
	}
}

// lose decides a race that the caller decides (Quorum) as lost by the
// failure o of position i: the others are canceled with that failure as
// the cause.
func (r *race) lose(i int, o *outcome) {
	r.failAt(i, o)
	cause := r.first()
	r.lmu.Lock()
	defer r.lmu.Unlock()
	for _, l := range r.lanes {
		if l != nil {
			l.cancel(cause)
		}
	}
}

// fail cancels the call's context with cause, if this is the first failure.
func (c *call) fail(cause error) {
	if c.flags.Load()&(flagFailed|flagReturned) != 0 {
		return
	}
	x := c.cancels()
	x.mu.Lock()
	if x.first == nil && c.flags.Load()&flagReturned == 0 {
		x.first = cause
		c.setFlag(flagFailed)
		if x.cancel != nil {
			x.cancel(cause)
		}
	}
	x.mu.Unlock()
}

// stoppedBy reports whether err says a function gave up because ctx was
// canceled: ctx's error, or its cause, is in err's tree.
func stoppedBy(err error, ctx context.Context) bool {
	cerr := ctx.Err()
	if cerr == nil {
		return false
	}
	if errors.Is(err, cerr) {
		return true
	}
	cause := context.Cause(ctx)
	return cause != cerr && cause != nil && errors.Is(err, cause)
}
