package task

import (
	"context"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// checkFns panics for a nil ctx or a nil function of the racing call
// name. No functions is not a programming error: a list of replicas is
// data, and the call returns a notEnoughError.
func checkFns[T any](name string, ctx context.Context, fns []func(context.Context) (T, error)) {
	if ctx == nil {
		nilArg(name, "ctx")
	}
	for i, fn := range fns {
		if fn == nil {
			nilArg(name, "fns["+strconv.Itoa(i)+"]")
		}
	}
}

// A notEnoughError is the error of a racing call that did not get the
// successes it needs though no function failed: no functions, fewer than
// Quorum's k, or Until's enough never returned true. It names the call and
// wraps ErrNotEnough.
type notEnoughError struct {
	call string
	why  string // what the call lacked: "no functions", ...
}

func (e *notEnoughError) Error() string {
	return "task: " + e.call + ": " + e.why + ": " + strings.TrimPrefix(ErrNotEnough.Error(), "task: ")
}

func (e *notEnoughError) Unwrap() error { return ErrNotEnough }

// A racer runs the functions of Hedge, Quorum or Until, each with a context
// of its own, so that the winner's can outlive the call.
type racer[T any] struct {
	race
	fns     []func(context.Context) (T, error)
	vals    []T     // vals[i] written only by function i, read after wg.Wait
	release func(T) // of the successful losers; nil: dropped
}

// race is the part of a racer that does not depend on T.
type race struct {
	call
	need     int32        // the successes that decide the race in trigger: 1 for Hedge; 0: the caller decides (Quorum, Until)
	winner   atomic.Int32 // 1 + the position of the success that decided the race, or 0
	returned chan int     // each started function's position, when it ends; never blocks (capacity len(fns))

	lmu   sync.Mutex // guards lanes and winners, and starting a function after a win
	lanes []*lane    // the context of each started function; nil for the others
	won   []int      // the first need successes, in the order they came: the winners
	won1  [1]int     // won's array when need is 1: no allocation

	outs []outcome // outs[i] written only by function i, read after wg.Wait
	cs   cancelState
}

// A lane is the context of one function of a race. It is its own
// allocation, so that a cleanup can release the winner's once unreachable.
//
// The context is a child of the caller's ctx that is registered with it
// through [context.AfterFunc] rather than in its list of children, so that
// the registration can be dropped without canceling the context: a cleanup
// that canceled it would close its Done channel from the runtime's cleanup
// goroutine, which testing/synctest forbids for a channel made in a bubble.
type lane struct {
	context.Context
	cancel context.CancelCauseFunc
	stop   *func() bool // drops the registration with the caller's ctx
}

func newLane(parent context.Context) *lane {
	stop := new(func() bool)
	ctx, cancel := context.WithCancelCause(detached{parent, stop})
	return &lane{Context: ctx, cancel: cancel, stop: stop}
}

// detached is the caller's ctx as a lane's parent. Its Done channel is not
// the caller's, so that context.WithCancelCause does not add the lane to
// the caller's children but calls AfterFunc, which keeps the stop function.
// Only the lane's own context sees it; Err, Value (and so Cause) and
// Deadline are the caller's.
type detached struct {
	context.Context
	stop *func() bool // not the lane: a cleanup's argument must not reach the lane
}

// neverDone is the Done channel of every detached context: never closed.
var neverDone = make(chan struct{})

func (d detached) Done() <-chan struct{} { return neverDone }

func (d detached) AfterFunc(f func()) func() bool {
	stop := context.AfterFunc(d.Context, f)
	*d.stop = stop
	return stop
}

func newRacer[T any](ctx context.Context, kind callKind, fns []func(context.Context) (T, error)) *racer[T] {
	r := &racer[T]{fns: fns, vals: make([]T, len(fns))}
	r.need = 1
	r.won = r.won1[:0]
	r.returned, r.lanes = make(chan int, len(fns)), make([]*lane, len(fns))
	r.outs = make([]outcome, len(fns))
	r.initKind(ctx, 0, kind, r, &r.cs)
	return r
}

// launch starts function i, unless a function has won already and always
// is false, and reports whether it did.
func (r *racer[T]) launch(i int, always bool) bool {
	r.lmu.Lock()
	defer r.lmu.Unlock()
	won := r.winner.Load() != 0
	if won && !always {
		return false
	}
	l := newLane(r.parent)
	if won {
		l.cancel(ErrLost) // started after the race was won: it has lost
	}
	r.lanes[i] = l
	r.wg.Add(1)
	startAt(r, i)
	return true
}

// goroutine runs function i, in a goroutine that launch started after
// setting its lane.
func (r *racer[T]) goroutine(i int) {
	defer r.end(i)
	invoke(r.lanes[i], site{&r.call, i}, r.fns[i], &r.vals[i], &r.outs[i])
}

// end records the end of function i (see race.trigger) and counts it out.
func (r *race) end(i int) {
	r.classify(&r.outs[i])
	r.trigger(i, &r.outs[i])
	r.returned <- i
	r.wg.Done()
}

// settleRace waits for every started function, keeps the winners'
// contexts alive (for a cleanup to release) and cancels the others', gives
// release the value of every success not in kept (nil: the winners),
// raises a panic or Goexit, and returns the winners, in the order they
// succeeded, if the race was decided, or else the failures.
func (r *racer[T]) settleRace(kept []int) ([]int, error) {
	f, err := r.join(r.outs)
	var won []int
	if r.winner.Load() != 0 {
		won = r.won // no function runs any more: no lock
	}
	if kept == nil {
		kept = won
	}
	for j, l := range r.lanes {
		switch {
		case l == nil:
		case slices.Contains(won, j):
			runtime.AddCleanup(l, release, l.stop)
		default:
			l.cancel(context.Canceled)
		}
	}
	releasePanic := r.releaseRest(kept)
	f.raise()
	if releasePanic != nil {
		panic(releasePanic)
	}
	return won, err
}

// decide ends a race that the caller decides (Quorum, Until): won are the
// winners, whose contexts stay alive (nil: none, for a panic or Goexit of
// Until's enough); the others are canceled with the cause ErrLost, as by
// trigger.
func (r *race) decide(won []int) {
	r.lmu.Lock()
	defer r.lmu.Unlock()
	if won != nil {
		r.won = won // the caller appends to it no more
		r.winner.Store(int32(won[len(won)-1]) + 1)
	}
	r.fail(ErrLost)
	for j, l := range r.lanes {
		if l != nil && !slices.Contains(won, j) {
			l.cancel(ErrLost)
		}
	}
}

// releaseRest gives release the value of every success not in kept, and
// returns the first panic of release, if any.
func (r *racer[T]) releaseRest(kept []int) (first *PanicError) {
	if r.release == nil {
		return nil
	}
	for j := range r.fns {
		if r.outs[j].state == succeeded && !slices.Contains(kept, j) {
			if pe := r.releaseOne(j); pe != nil && first == nil {
				first = pe
			}
		}
	}
	return first
}

// releaseOne calls release with the value of function j, and returns the
// panic of release, if any, as the call's *PanicError.
func (r *racer[T]) releaseOne(j int) (pe *PanicError) {
	var o outcome
	var none struct{}
	invoke(r.parent, site{}, func(context.Context) (struct{}, error) {
		r.release(r.vals[j])
		return none, nil
	}, &none, &o)
	if o.state != panicked {
		return nil
	}
	pe = o.err.(*PanicError)
	pe.Call, pe.Index, pe.Arg = kindNames[r.kind].call, j, "release"
	return pe
}

// release drops the registration of the winner's context with the
// caller's ctx once nothing refers to it. Nothing is closed: nobody can be
// waiting.
func release(stop *func() bool) { (*stop)() }
