package task

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// A budgetCtx is the context of MapWithin's budget: ctx with a deadline at
// the budget's end, canceled then with the cause ErrBudget, as
// context.WithDeadlineCause(ctx, deadline, ErrBudget) is, and read the
// same through every method and through context.Cause. It costs less
// while nothing waits on it, the case of a Map whose functions do not look
// at their ctx: a bare timer ends the budget, and the standard context,
// with its channel, its timer and its place among the parent's children,
// is made only when something asks for Done, or for a Value (a Cause) once
// the budget or ctx has ended. Map's workers poll the parent, as they poll
// the caller's ctx of a Map, and ask the budget (Err) only once it has
// told the call to (flagBudget): when it ended, or when the standard
// context, which ends on its own, was made.
type budgetCtx struct {
	parent context.Context
	start  time.Time
	budget time.Duration
	call   *call         // told to ask Err: flagBudget
	timer  *time.Timer   // nil for a budget over at once
	state  atomic.Uint32 // budgetRunning until the budget or the parent ends, then which came first
	ready  atomic.Bool   // real and cancel are set: they answer for b
	mu     sync.Mutex    // orders the timer's end and the making of real
	real   context.Context
	cancel context.CancelFunc
}

// The states of a budgetCtx before the standard context is made. Once set
// they do not change, so that Err does not either.
const (
	budgetRunning uint32 = iota
	budgetOver           // the budget ended first: Err is DeadlineExceeded, the cause ErrBudget
	budgetParent         // the parent ended first: Err and the cause are the parent's
)

// init makes b the context of a budget over ctx for the call c, which
// starts workers workers. It arms the timer at once (see arm) for a budget
// under armAtOnce or more than maxLazyWorkers workers; otherwise the call
// arms it, if it needs to, once its workers have had a first turn. The
// caller releases it once the call has returned.
func (b *budgetCtx) init(ctx context.Context, budget time.Duration, c *call, workers int) {
	b.parent, b.start, b.budget, b.call = ctx, time.Now(), budget, c
	if budget < armAtOnce || workers > maxLazyWorkers {
		b.arm()
	}
}

// armAtOnce is the budget under which the timer starts with the call.
// From it up, the call arms the timer once its workers have had a first
// turn (see mapN): most Maps whose functions return at once are over by
// then and need no timer, and until then, a time far below armAtOnce
// (the start of at most maxLazyWorkers goroutines and one yield), no
// budget this long has ended.
const armAtOnce = time.Millisecond

// maxLazyWorkers is the number of workers over which a budget's timer
// starts with the call: starting more takes a time that armAtOnce no
// longer bounds.
const maxLazyWorkers = 64

// arm starts the timer that ends the budget at its deadline, or ends it at
// once if that has passed.
func (b *budgetCtx) arm() {
	if d := time.Until(b.deadline()); d > 0 {
		b.timer = time.AfterFunc(d, b.end)
		return
	}
	b.end()
}

// end ends the budget, at its deadline, unless the parent ended first,
// and tells the call to ask Err. Once the standard context is made, its own
// timer ends it, at the same deadline. Without a timer, Err and Value end
// it when they find its deadline passed (see check).
func (b *budgetCtx) end() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ready.Load() {
		return
	}
	if b.parent.Err() != nil {
		b.state.CompareAndSwap(budgetRunning, budgetParent)
	} else {
		b.state.CompareAndSwap(budgetRunning, budgetOver)
	}
	b.call.setFlag(flagBudget)
}

// release stops the timer and the standard context, if made.
func (b *budgetCtx) release() {
	if b.timer != nil {
		b.timer.Stop()
	}
	if b.ready.Load() {
		b.cancel()
	}
}

// make returns the standard context that answers for b from now on,
// making it on first use in the state b is in.
func (b *budgetCtx) make() context.Context {
	if b.ready.Load() {
		return b.real
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.ready.Load() {
		parent := b.parent
		if b.state.Load() == budgetOver {
			// The budget ended first, whatever the parent did since.
			parent = context.WithoutCancel(parent)
		}
		b.real, b.cancel = context.WithDeadlineCause(parent, b.deadline(), ErrBudget)
		b.ready.Store(true)
		b.call.setFlag(flagBudget)
	}
	return b.real
}

// Deadline is the budget's deadline, or the parent's if that is earlier.
func (b *budgetCtx) Deadline() (time.Time, bool) {
	end := b.deadline()
	if d, ok := b.parent.Deadline(); ok && d.Before(end) {
		return d, true
	}
	return end, true
}

// deadline is when the budget ends.
func (b *budgetCtx) deadline() time.Time { return b.start.Add(b.budget) }

// Done is the standard context's channel.
func (b *budgetCtx) Done() <-chan struct{} { return b.make().Done() }

// Err is DeadlineExceeded once the budget has ended, the parent's error if
// the parent ended first, and nil before, as the standard context's.
func (b *budgetCtx) Err() error {
	if b.ready.Load() {
		return b.real.Err()
	}
	b.check()
	switch b.state.Load() {
	case budgetOver:
		return context.DeadlineExceeded
	case budgetParent:
		return b.parent.Err()
	}
	if b.parent.Err() == nil {
		return nil
	}
	b.state.CompareAndSwap(budgetRunning, budgetParent)
	return b.Err()
}

// Value is the parent's while neither has ended (the cause, nil or the
// parent's, included); after, the standard context's, which holds the
// cause. The package's own key, which every call asks for, is the
// parent's whatever the state (the standard context would ask the parent
// too).
func (b *budgetCtx) Value(key any) any {
	if _, ok := key.(stoppingKey); ok {
		return b.parent.Value(key)
	}
	if !b.ready.Load() {
		if b.check(); b.state.Load() == budgetRunning {
			return b.parent.Value(key)
		}
	}
	return b.make().Value(key)
}

// check ends the budget if its deadline has passed and its timer, if
// armed, has not ended it yet: the answers of b follow the clock, not
// the timer, which only tells the call.
func (b *budgetCtx) check() {
	if b.state.Load() == budgetRunning && !time.Now().Before(b.deadline()) {
		b.end()
	}
}

// String names the context for debugging.
func (b *budgetCtx) String() string { return "task.MapWithin budget" }
