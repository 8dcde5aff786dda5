package task

import (
	"context"
	"errors"
	"iter"
	"math/bits"
	"runtime"
	"strconv"
	"sync/atomic"

	"github.com/tasktuple/task/internal/probe"
)

// MapSeq calls fn on every input of a sequence, with at most limit calls
// running at once, and yields the results in input order as they become
// ready: the streaming form of [Map]. Inputs are pulled lazily, on the
// consumer's goroutine, a bounded number (in proportion to limit) ahead of
// the next result to yield. A failure yields (zero, *[PositionError]),
// whose Index is the input's position.
//
// The rules are Map's. Without [KeepGoing], the first failure cancels the
// running calls and ends the pull; MapSeq yields, in input order, what the
// calls returned, less the cancellations it caused, and ends. If ctx ends
// first, no call starts, and if inputs were left, a last (zero,
// *[CallError]) with Ctx set follows the calls' errors. Breaking out of the
// loop cancels the running calls; none outlives the loop.
//
// A panic or Goexit of a call stops the yields and is raised once every
// call has returned. The loop body's panic or Goexit goes on once the
// running calls have returned, and outranks theirs, but for a call's panic
// over the body's Goexit. Each range starts again. A limit less than 1, or
// a nil ctx, inputs or fn, panics at once.
func MapSeq[In, Out any](ctx context.Context, inputs iter.Seq[In], limit int, fn func(context.Context, In) (Out, error), opts ...Option) iter.Seq2[Out, error] {
	return mapSeq("MapSeq", ctx, inputs, limit, fn, opts, true)
}

// MapSeqUnordered is [MapSeq] yielding results in the order the calls
// return rather than in input order: a slow input holds no other result
// back. A failure's *PositionError tells its input's position; a value
// that must be matched with its input should carry what identifies it.
func MapSeqUnordered[In, Out any](ctx context.Context, inputs iter.Seq[In], limit int, fn func(context.Context, In) (Out, error), opts ...Option) iter.Seq2[Out, error] {
	return mapSeq("MapSeqUnordered", ctx, inputs, limit, fn, opts, false)
}

func mapSeq[In, Out any](name string, ctx context.Context, inputs iter.Seq[In], limit int, fn func(context.Context, In) (Out, error), opts []Option, ordered bool) iter.Seq2[Out, error] {
	if ctx == nil {
		nilArg(name, "ctx")
	}
	if inputs == nil {
		nilArg(name, "inputs")
	}
	if fn == nil {
		nilArg(name, "fn")
	}
	if limit < 0 || limit == noLimit {
		panic("task: " + name + ": limit is " + strconv.Itoa(limit) + "; a sequence needs a limit")
	}
	limit = checkLimit(name, limit)
	o := options(name, famStream, opts)
	kind := kindMapSeq
	if !ordered {
		kind = kindMapSeqUnordered
	}
	return func(yield func(Out, error) bool) {
		newStream(ctx, kind, limit, fn, o, ordered, yield).run(inputs)
	}
}

// newStream prepares a range over the calls, which yields to yield.
func newStream[In, Out any](ctx context.Context, kind callKind, limit int, fn func(context.Context, In) (Out, error), o optSet, ordered bool, yield func(Out, error) bool) *stream[In, Out] {
	s := &stream[In, Out]{fn: fn, keepGoing: o&keepGoing != 0, yield: yield}
	s.h.init(&s.c, s, limit, ordered)
	s.slots = make([]seqSlot[In, Out], s.h.slots())
	s.c.initKind(ctx, o, kind, s, &s.cs)
	s.c.limited(limit, -1)
	s.c.watchOuter()
	s.done = s.c.parent.Done()
	s.f = s.c.report()
	return s
}

// errStopped is the cause of the cancellation MapSeq sends to the running
// calls when the loop over it breaks out.
var errStopped = errors.New("task: the loop over the sequence stopped")

// stream is the state of one range over MapSeq: the calls, and what the
// consumer (the goroutine ranging over MapSeq) makes of their ends. How
// inputs and ends pass between the consumer and the workers is h's.
type stream[In, Out any] struct {
	c           call
	cs          cancelState
	h           handoff
	fn          func(context.Context, In) (Out, error)
	keepGoing   bool
	yield       func(Out, error) bool
	done        <-chan struct{} // the caller's ctx's Done
	failedFirst atomic.Bool     // a failure came before any stop
	slots       []seqSlot[In, Out]

	// Read and written by the consumer only.
	broke    bool   // the loop broke out: start and yield nothing more
	fatal    bool   // a panic or Goexit was met: yield nothing more; start nothing more unless keepGoing
	mute     bool   // yield nothing more: broke or fatal
	inYield  bool   // the loop body is running: if close finds it so, the body panicked or exited
	ctxEnded bool   // ctx ended, or the call stopped taking new work, with inputs not started
	f        report // the outcomes not yielded that must be raised with a panic or Goexit
}

// seqSlot is one call of a stream: in and index are written by the
// consumer before it hands the slot over, the rest by the worker before it
// publishes the end.
type seqSlot[In, Out any] struct {
	in    In
	out   Out
	o     outcome
	index int
	left  bool // the call did not start: ctx had ended, or the call had stopped taking new work
}

func (s *stream[In, Out]) run(inputs iter.Seq[In]) {
	defer s.close()
	h := &s.h
	for in := range inputs {
		for h.ready() {
			s.take()
		}
		if h.full() {
			s.makeRoom()
		}
		// One test when nothing happened (failedFirst implies
		// flagFailed); endsPull decides otherwise.
		if (s.broke || s.ctxEnded || s.fatal || s.c.flags.Load()&(flagFailed|flagHalted) != 0 ||
			isDone(s.c.parent, s.done) || (s.cs.outer != nil && closedChan(s.cs.outer))) && s.endsPull() {
			break // in was pulled and is never called
		}
		k := h.free()
		sl := &s.slots[k]
		sl.in, sl.index = in, h.next
		if h.handOver() {
			h.wakeWorker()
		}
	}
	for h.pending() {
		h.wait()
		s.take()
	}
	if s.ctxEnded && !s.broke && !s.fatal {
		var zero Out
		s.emit(zero, &CallError{Call: s.f.e.Call, Ctx: s.c.stopError()})
	}
}

// endsPull reports whether the pull ends before the input pulled is handed
// over, once run has seen that something may end it: the loop broke out, a
// call failed, panicked or exited, or the stream stopped.
func (s *stream[In, Out]) endsPull() bool {
	// Whichever came first ends the pull: a failure (fail-fast), or a
	// stop; a failure records whether the stream had stopped before it
	// (failedFirst).
	if s.broke || (!s.keepGoing && s.failedFirst.Load()) {
		return true
	}
	if s.ctxEnded || s.stopping() {
		s.ctxEnded = true
		return true
	}
	return !s.keepGoing && (s.fatal || s.c.hasFailed())
}

// makeRoom waits for ends and takes them back until the window has room
// for another input.
func (s *stream[In, Out]) makeRoom() {
	for s.h.full() {
		s.h.wait()
		s.take()
	}
}

// goroutine is a worker: it takes the inputs handed over and makes their
// calls until the stream stops, in the goroutine startAt started, counted
// as spinning by whoever started it.
//
// Without probes the calls have no deferred call of their own (see call):
// this goroutine's recovers a panic of the call that runs (direct). If a
// call panics so, or calls runtime.Goexit, this goroutine is unwinding
// (for a Goexit, even when a deferred function's panic was recovered on
// the way, and the call ended as a panic): it starts a worker to take its
// place before it goes, as Map's workers do (see call.workerDone). The
// replacement stops at once if the stream has stopped, and close waits for
// it too.
func (s *stream[In, Out]) goroutine(int) {
	cur := -1      // the slot whose call runs
	direct := true // the call of cur has no deferred call of its own
	defer func() {
		if cur < 0 {
			s.c.workerDone(s, false)
			return
		}
		// The call of slot cur did not return: it has ended.
		if direct {
			sl := &s.slots[cur]
			settleExit(&sl.out, &sl.o, recover())
		}
		s.end(cur)
		s.h.spinning.Add(1) // the replacement starts spinning
		s.c.workerDone(s, true)
	}()
	h := &s.h
	for {
		k, ok := h.claim()
		if !ok {
			if !h.park() {
				return
			}
			continue
		}
		h.busy()
		for ok {
			// The next inputs are taken without spinning: when the calls
			// return at once, this worker makes them all.
			cur, direct = k, probe.Load() == nil
			s.call(k, direct)
			cur = -1
			k, ok = h.claim()
		}
		h.spinning.Add(1)
	}
}

// failedAfter reports whether the failure that failed the stream is of an
// input after input i.
func (s *stream[In, Out]) failedAfter(i int) bool {
	pe, ok := s.c.first().(*PositionError)
	return ok && pe.Index > i
}

// stopping is call.stopping for the stream, with the channels looked up
// once and not selected on when nil: a MapSeq watches ctx also with
// KeepGoing.
func (s *stream[In, Out]) stopping() bool {
	return s.c.isHalted() || isDone(s.c.parent, s.done) || (s.cs.outer != nil && closedChan(s.cs.outer))
}

// call makes the call of slot k, unless the stream has failed or broken
// out, or stopped taking new work (ctx ended), since it was handed over,
// and publishes its end. If direct, it calls fn with no deferred call of
// its own; else through invoke, for the probes. If the call does not
// return (a panic, when direct, or a Goexit), goroutine's deferred function
// publishes its end, with end.
func (s *stream[In, Out]) call(k int, direct bool) {
	sl := &s.slots[k]
	in := sl.in
	sl.in = *new(In) // do not keep the input alive
	i := sl.index
	sl.o = outcome{} // the slot holds the outcome of an earlier call
	// A call starts unless the stream broke out, stopped, or failed at
	// an input before this one: an input handed over before a later one
	// failed is made, as Map makes the inputs its workers took.
	// One test when nothing happened; leaves decides otherwise.
	if (s.c.flags.Load()&(flagFailed|flagHalted) == 0 && !isDone(s.c.parent, s.done) && (s.cs.outer == nil || !closedChan(s.cs.outer))) ||
		!s.leaves(sl, i) {
		if direct {
			sl.o.begin()
			sl.out, sl.o.err = s.fn(s.c.ctx(), in)
			sl.o.state = endState(sl.o.err)
		} else {
			invoke(s.c.ctx(), site{&s.c, i}, func(ctx context.Context) (Out, error) { return s.fn(ctx, in) }, &sl.out, &sl.o)
		}
		s.c.ended(i, &sl.o)
		if sl.o.state != succeeded && s.c.leftBy(s.stopping()) == refusedFailed {
			s.failedFirst.Store(true)
		}
	}
	if s.h.ordered { // s.h.publish(k, i), written out
		s.h.set(&s.h.cells[k], int64(i+1))
	} else {
		s.h.set(s.h.ticket(k))
	}
}

// leaves reports whether the call of input i, in slot sl, is not made,
// once call has seen that the stream failed or stopped taking new work,
// and if so records why.
func (s *stream[In, Out]) leaves(sl *seqSlot[In, Out], i int) bool {
	failed := s.c.hasFailed() && !s.failedAfter(i)
	if failed || s.stopping() {
		// No new call starts: failed (or, with KeepGoing, broken out),
		// or stopped.
		sl.left = !failed
		return true
	}
	return false
}

// end records and publishes the end of the call of slot k, which did not
// return: it panicked, or called runtime.Goexit. Nothing of the slot is
// touched after.
func (s *stream[In, Out]) end(k int) {
	i := s.slots[k].index
	s.c.ended(i, &s.slots[k].o)
	s.h.publish(k, i)
}

// take takes the next end back, published: it yields its outcome, or
// keeps it to be raised.
func (s *stream[In, Out]) take() {
	sl := &s.slots[s.h.pop()]
	if sl.o.state != succeeded {
		s.takeOther(sl)
		return
	}
	out := sl.out
	sl.out = *new(Out) // do not keep the value alive
	if s.mute {
		return
	}
	s.inYield = true
	ok := s.yield(out, nil)
	s.inYield = false
	if !ok {
		s.breakOut()
	}
}

// takeOther is take for an outcome that is not a success to yield.
func (s *stream[In, Out]) takeOther(sl *seqSlot[In, Out]) {
	o := sl.o
	sl.out = *new(Out)
	switch {
	case o.state == pending:
		// Not started: the stream had failed or broken out, or had
		// stopped taking new work.
		if sl.left {
			sl.left = false
			s.ctxEnded = true
		}
	case o.state == panicked || o.state == exited:
		s.fatal, s.mute = true, true
		s.f.add(sl.index, o, nil)
	case s.mute:
		// Not yielded: kept with a panic, if one is raised.
		if o.ownError() {
			s.f.add(sl.index, o, nil)
		}
	case o.state == succeeded || o.stop == stopCall:
		// Not a result here: a success is take's (this case is
		// unreachable), a cancellation this stream caused is left out.
	default:
		var zero Out
		s.emit(zero, s.f.at(sl.index, o.err))
	}
}

// breakOut ends the stream when the loop breaks out: nothing more is
// yielded or started, and the running calls are canceled.
func (s *stream[In, Out]) breakOut() {
	s.broke, s.mute = true, true
	s.c.fail(errStopped)
}

// emit yields one pair, and ends the stream if the loop breaks out.
func (s *stream[In, Out]) emit(out Out, err error) {
	if s.mute {
		return
	}
	s.inYield = true
	ok := s.yield(out, err)
	s.inYield = false
	if !ok {
		s.breakOut()
	}
}

// close cancels and waits for the calls still running, stops the workers,
// then raises a panic or a Goexit met on the way.
//
// If the loop body panicked (or called Goexit), that goes on: close then
// only cancels and waits, and raises nothing of its own.
func (s *stream[In, Out]) close() {
	var bodyPanic any // the loop body's panic, passed on below
	if s.inYield {
		// The loop body panicked or called runtime.Goexit (recover
		// returns nil for a Goexit).
		bodyPanic = recover()
	}
	if s.h.pending() {
		s.breakOut()
		for s.h.pending() {
			s.h.wait()
			s.take()
		}
	}
	s.h.stopWorkers()
	s.c.wg.Wait()              // every worker has gone: none outlives the loop
	s.c.fail(context.Canceled) // releases the child context, if made
	// Unordered, outcomes came in completion order: report them in input
	// order, the first panic first.
	s.c.callEnd(s.f.err(s.c.parent))
	if bodyPanic != nil {
		panic(bodyPanic)
	}
	if s.inYield {
		// A Goexit of the loop body: a panic of a call outranks it.
		s.f.raiseOverGoexit()
		return
	}
	s.f.raise()
}

// A handoff passes a stream's inputs from its consumer to its workers, and
// the ends of their calls back: the part of a stream that does not depend
// on its types, so that its small methods inline.
//
// The consumer writes an input into a free slot and hands it over by
// advancing tail; the workers, at most limit goroutines started as they
// are needed, take the inputs in order with a compare-and-swap on claimed,
// as Map's take theirs with an atomic add, and publish each end in a cell
// that the consumer reads: ordered, the cell of the input's slot, so that
// the consumer waits for the next input to yield; unordered, the next cell
// of a ring of ends. Neither side makes a channel operation while the
// other has work: the consumer parks only when it waits for an end not yet
// published, and a worker only when nothing is left to take; whoever finds
// the other parked wakes it through a channel. So when the calls return at
// once, one worker makes a window of calls in a row, and the goroutines
// switch about twice a window instead of twice an input (the window,
// 2×limit inputs in order and limit unordered, bounds the batches). The
// consumer's writes to a slot happen before the call (through tail), and
// the call's writes before the consumer reads them (through the end's
// cell).
//
// Parking: the consumer stores in waitFor the value of the cell it waits
// for, checks the cell again, and parks on wake; the worker that publishes
// that value swaps waitFor to 0 and sends on wake. A worker that finds
// nothing to take yields its P once (see park), then counts itself in
// sleepers, checks again, and parks on idle; the consumer, after handing
// an input over, wakes one if no worker is spinning (awake and looking for
// work), and a spinning worker that takes an input wakes another if inputs
// are left and it was the last to spin, as the runtime's spinning Ms do, so
// that a call that blocks holds back no input behind it. Each check and
// its counterpart are sequentially consistent atomics, so one side always
// sees the other.
//
// Rejected: the consumer making calls itself when the workers are busy. A
// call would then hold up the pull and the yields, so a call that waits for
// the loop body (for its result, or a channel it feeds) would deadlock; a
// call's Goexit would end the consumer's goroutine, which must go on
// pulling with KeepGoing; and the probes would see a call on the caller's
// goroutine. Also rejected: checking the cells again many times before
// parking (CPU spent for nothing when the other side is slow), and the
// consumer yielding its P before it parks (more work an input than
// parking at once).
type handoff struct {
	c       *call
	st      starter // the stream: what its workers run
	ordered bool
	limit   int
	window  int // the most inputs handed over and not yet taken back: 2×limit in order, limit unordered
	mask    int // the length of the rings, a power of two, less 1

	cells []atomic.Int64 // ordered: cells[i&mask] is i+1 once input i's call has ended; unordered: cells[t&mask] is t+1 once the t-th end is published
	ends  []int          // unordered: ends[t&mask] is the slot of the t-th end, written before its cell
	queue []atomic.Int64 // unordered: queue[t&mask] is the slot of the t-th input handed over, written before tail

	// Read and written by the consumer only.
	next  int   // the inputs handed over
	head  int   // the ends taken back: ordered, input head is the next to yield
	frees []int // unordered: the free slots

	_       [64]byte     // the counters below change with every input: keep them off the lines above and each other's
	tail    atomic.Int64 // = next, for the workers: the slots of the inputs below it are written
	_       [56]byte
	claimed atomic.Int64 // the inputs the workers have taken: at most tail
	_       [56]byte
	ended   atomic.Int64 // unordered: the ends published, and the next ticket into cells
	_       [56]byte

	waitFor  atomic.Int64  // the cell value the consumer waits for, or 0
	spinning atomic.Int32  // workers awake and not in a call
	sleepers atomic.Int32  // workers parked on idle, or about to, and not yet woken
	workers  atomic.Int64  // workers started: at most limit; one a Goexit ends starts its replacement
	stop     atomic.Bool   // every call has ended and been taken back: the workers go
	wake     chan struct{} // wakes the consumer; one token at most
	idle     chan struct{} // wakes a worker, one token each; closed when the stream stops
}

// init prepares h for the calls of c.
func (h *handoff) init(c *call, st starter, limit int, ordered bool) {
	h.c, h.st, h.ordered, h.limit = c, st, ordered, limit
	h.window = limit
	if ordered {
		h.window = 2 * limit
	}
	ring := 1 << bits.Len(uint(h.window-1))
	h.mask = ring - 1
	h.cells = make([]atomic.Int64, ring)
	if !ordered {
		h.ends = make([]int, ring)
		h.queue = make([]atomic.Int64, ring)
		h.frees = make([]int, 0, h.window)
		for k := range h.window {
			h.frees = append(h.frees, k)
		}
	}
	h.wake = make(chan struct{}, 1)
	h.idle = make(chan struct{}, limit)
}

// slots is the number of slots the stream needs.
func (h *handoff) slots() int {
	if h.ordered {
		return len(h.cells)
	}
	return h.window
}

// pending reports whether inputs handed over have not been taken back.
func (h *handoff) pending() bool { return h.head < h.next }

// full reports whether the window is full: the consumer must take an end
// back before it hands another input over.
func (h *handoff) full() bool { return h.next-h.head == h.window }

// ready reports whether the next end to take back is published.
func (h *handoff) ready() bool {
	return h.head < h.next && h.cells[h.head&h.mask].Load() == int64(h.head+1)
}

// free returns the slot of the next input to hand over; unordered, it
// queues the slot for the workers, to be handed over with handOver.
func (h *handoff) free() int {
	if h.ordered {
		return h.next & h.mask
	}
	k := h.frees[len(h.frees)-1]
	h.frees = h.frees[:len(h.frees)-1]
	h.queue[h.next&h.mask].Store(int64(k))
	return k
}

// handOver hands the input written in the slot free returned over to the
// workers, and reports whether no worker is spinning: the caller must then
// call wakeWorker, which is left out so that handOver stays small: it
// runs for every input.
func (h *handoff) handOver() (wake bool) {
	h.next++
	h.tail.Store(int64(h.next))
	return h.spinning.Load() == 0
}

// wait waits until the next end to take back is published.
func (h *handoff) wait() {
	c, v := &h.cells[h.head&h.mask], int64(h.head+1)
	if c.Load() == v {
		return
	}
	h.waitFor.Store(v)
	if c.Load() != v {
		<-h.wake
	} else if !h.waitFor.CompareAndSwap(v, 0) {
		<-h.wake // the worker that published it saw the wait: take its token
	}
}

// pop takes the next end back, published, and returns its slot.
func (h *handoff) pop() int {
	t := h.head
	h.head = t + 1
	if h.ordered {
		return t & h.mask
	}
	k := h.ends[t&h.mask]
	h.frees = append(h.frees, k)
	return k
}

// wakeWorker wakes a parked worker, or starts one if fewer than limit are,
// to take an input handed over; if every worker is in a call, the first to
// return takes it.
func (h *handoff) wakeWorker() {
	for n := h.sleepers.Load(); n > 0; n = h.sleepers.Load() {
		if h.sleepers.CompareAndSwap(n, n-1) {
			h.spinning.Add(1)
			h.idle <- struct{}{}
			return
		}
	}
	for n := h.workers.Load(); n < int64(h.limit); n = h.workers.Load() {
		if h.workers.CompareAndSwap(n, n+1) {
			h.spinning.Add(1)
			h.c.wg.Add(1)
			startAt(h.st, 0)
			return
		}
	}
}

// claim takes the next input handed over, if any, and returns its slot.
func (h *handoff) claim() (int, bool) {
	for {
		c := h.claimed.Load()
		if c >= h.tail.Load() {
			return 0, false
		}
		k := int(c) & h.mask
		if !h.ordered {
			// Read before the swap, which vouches for it: unordered, the
			// consumer may reuse the cell of input c for input c+len(queue)
			// once any c+1 ends have been taken back, which needs input c
			// claimed, not ended; the swap fails if it was claimed.
			k = int(h.queue[k].Load())
		}
		if h.claimed.CompareAndSwap(c, c+1) {
			return k, true
		}
	}
}

// busy counts a spinning worker that has taken an input out of spinning,
// and wakes another if inputs are left that no worker looks for.
func (h *handoff) busy() {
	if h.spinning.Add(-1) == 0 && h.claimed.Load() < h.tail.Load() {
		h.wakeWorker()
	}
}

// park parks a spinning worker that found nothing to take, until an input
// is handed over or the stream stops; it reports false if the stream has
// stopped.
//
// It first yields its P once, still counted as spinning: the consumer,
// which the last end published has usually just woken, then runs, hands a
// window of inputs over without waking anyone, and parks, and this worker
// goes on with them: one switch a window fewer than parking at once.
func (h *handoff) park() bool {
	runtime.Gosched()
	if h.claimed.Load() < h.tail.Load() {
		return true
	}
	h.sleepers.Add(1)
	h.spinning.Add(-1)
	if h.claimed.Load() < h.tail.Load() || h.stop.Load() {
		// Not parking after all: count out of sleepers, unless a waker
		// has already counted this worker out, which then gets its token.
		for n := h.sleepers.Load(); ; n = h.sleepers.Load() {
			if n == 0 {
				<-h.idle
				break
			}
			if h.sleepers.CompareAndSwap(n, n-1) {
				h.spinning.Add(1)
				break
			}
		}
	} else {
		<-h.idle // the waker counted this worker as spinning
	}
	return !h.stop.Load()
}

// publish publishes the end of input i's call, in slot k, and wakes the
// consumer if it waits for it.
func (h *handoff) publish(k, i int) {
	c, v := &h.cells[k], int64(i+1)
	if !h.ordered {
		c, v = h.ticket(k)
	}
	h.set(c, v)
}

// set stores v in the cell c, publishing an end, and wakes the consumer
// if it waits for it. It is kept small: it runs for every input, in
// publish and in stream.call, which writes publish out.
func (h *handoff) set(c *atomic.Int64, v int64) {
	c.Store(v)
	if h.waitFor.Load() == v {
		h.wakeConsumer(v)
	}
}

// ticket writes slot k into the next cell of the ring of ends, unordered,
// and returns the cell and the value that publishes it.
func (h *handoff) ticket(k int) (*atomic.Int64, int64) {
	t := h.ended.Add(1) - 1
	h.ends[int(t)&h.mask] = k
	return &h.cells[int(t)&h.mask], t + 1
}

// wakeConsumer wakes the consumer, which waits for the cell value v, unless
// it has stopped waiting.
func (h *handoff) wakeConsumer(v int64) {
	if h.waitFor.CompareAndSwap(v, 0) {
		h.wake <- struct{}{}
	}
}

// stopWorkers lets the workers go, once every call has ended and been
// taken back: no worker is then in wakeWorker, and no token is sent on
// idle after it is closed.
func (h *handoff) stopWorkers() {
	h.stop.Store(true)
	close(h.idle)
}
