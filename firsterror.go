package task

// This file is the rule of FirstError: the call's error is the first error
// a function returned as a failure of its own, as errgroup's Wait returns
// it. The call records which position failed first (noteFirst, in the
// flags word), the report keeps that position's error as it adds the
// outcomes (keepFirst), and the call returns it in place of the *CallError
// (firstError).

// firstShift is where, in a call's flags word, the first failure's position
// is kept: position p is kept as p+2 (the body of a Scope is -1), 0 is none.
const firstShift = 6

// The flags of a call lie below the first failure's position: this fails
// to compile if flagReturned, the last of them, reaches it.
const _ uint32 = 1<<firstShift - 2*flagReturned

// maxFirst is the largest position that fits in the flags word. A failure
// further on is not recorded; if no failure before it was, the call returns
// the first failure in argument order instead (only a stream that long,
// with no failure before, can tell the difference).
const maxFirst = 1<<(32-firstShift) - 3

// firstErrorSet reports the option FirstError.
func (c *call) firstErrorSet() bool { return optSet(c.opts)&firstError != 0 }

// noteFirst records position i as the first failure if none is recorded
// yet; o is its classified outcome. Only an error counts: a panic or a
// Goexit is raised, unless a waiter received it (a body that recovered a
// child's panic), and then it has no error to return. It is a no-op
// without FirstError.
func (c *call) noteFirst(i int, o *outcome) {
	if !c.firstErrorSet() || !o.ownError() || i > maxFirst {
		return
	}
	v := uint32(i+2) << firstShift
	for {
		old := c.flags.Load()
		if old>>firstShift != 0 || c.flags.CompareAndSwap(old, old|v) {
			return
		}
	}
}

// firstAt returns the position recorded by noteFirst, and whether there is
// one.
func (c *call) firstAt() (int, bool) {
	v := c.flags.Load() >> firstShift
	return int(v) - 2, v != 0
}

// keepFirst keeps err, the error of position i as its function returned it
// (without Named's wrapper), if i is the first failure of a call with
// FirstError.
func (f *report) keepFirst(i int, err error) {
	if f.c == nil || !f.c.firstErrorSet() {
		return
	}
	if at, ok := f.c.firstAt(); ok && at == i {
		f.first = err
	}
}

// firstError returns the error a call with FirstError returns in place of
// err, the call's *CallError: the first failure as its function returned
// it; with no failure, the first error a function stopped by ctx returned,
// in argument order, or else ctx's error, or else ErrStopped. Without
// FirstError, or for a nil err, it returns err.
func (c *call) firstError(f *report, err error) error {
	ce, ok := err.(*CallError)
	if !ok || !c.firstErrorSet() {
		return err
	}
	switch {
	case f.first != nil:
		return f.first
	case len(ce.Failures) > 0:
		// Not recorded (a position past maxFirst): the first in argument
		// order.
		return ce.Failures[0].Err
	}
	for _, u := range ce.Unfinished {
		if u.Err != nil {
			return u.Err
		}
	}
	if err := c.parent.Err(); err != nil {
		return err
	}
	if ce.NotStarted > 0 {
		return ErrStopped
	}
	if len(ce.Canceled) > 0 {
		// Nothing failed, and a child returned the cancellation of the
		// group's context by an earlier round's Wait: that error, as
		// errgroup's Wait returns it.
		return ce.Canceled[0].Err
	}
	return err
}
