package task

import (
	"context"
	"errors"
	"iter"
)

// MapSeq calls fn on every input of a sequence, with at most limit calls
// running at once, and yields the results in input order as they become
// ready: the streaming form of [Map], for inputs too many to hold, or
// discovered as they come (pages of an API).
//
//	for user, err := range task.MapSeq(ctx, ids, 8, loadUser) {
//		if err != nil {
//			return err // a *PositionError: "task: MapSeq: inputs[41]: ..."
//		}
//		...
//	}
//
// The calls run on at most limit goroutines, started as they are needed
// and kept for the range. Inputs are pulled lazily, in the consumer's
// goroutine: at most 2×limit inputs are started and not yet yielded
// (limit running, and a reorder window of limit results that are ready but
// wait for an earlier one), and one more is pulled, held until a slot
// frees: 2×limit+1 pulled and not yet yielded. Each yield is (value, nil) or, for a failure,
// (zero, *[PositionError]) whose Index is the input's position in the
// sequence.
//
// MapSeq has the rules of Map. Without [KeepGoing], the first failure
// cancels the running calls (its *PositionError is their cause) and no new
// call starts; MapSeq then yields, in input order, what the calls that had
// started returned, leaving out the cancellations it caused, and ends. With
// KeepGoing every input is processed and every failure yielded in its
// place. If ctx ends first, no new call starts; the calls it stopped yield
// their errors, and if inputs were left, a last (zero, *[CallError]) says
// that ctx ended the stream (errors.Is(err, ctx.Err()) holds).
//
// Breaking out of the loop cancels the running calls and waits for them
// before the loop statement ends: no call outlives it. A panic or
// runtime.Goexit in a call stops the yields (and, without KeepGoing, the
// starts; with KeepGoing every input is still processed) and is passed on
// to the consumer's goroutine once every call has returned, as [iter.Pull]
// does: the first panic in input order, as a *[PanicError] holding what
// else was not yielded. A panic or Goexit in the loop body itself goes on
// once the running calls are canceled and have returned; a panic of a call
// not yet yielded outranks a Goexit of the body, as it does for RunN, but
// not a panic of the body, which goes on as it is (the call's is then
// dropped: the body's panic ends the program or is the one recovered).
// Each range over the sequence starts again.
//
// MapSeq panics at once if limit is less than 1, or ctx, inputs or fn is
// nil.
func MapSeq[In, Out any](ctx context.Context, inputs iter.Seq[In], limit int, fn func(context.Context, In) (Out, error), opts ...Option) iter.Seq2[Out, error] {
	return mapSeq("MapSeq", ctx, inputs, limit, fn, opts, true)
}

// MapSeqUnordered is [MapSeq] yielding results in the order the calls
// return rather than in input order: a slow input holds nothing back, and
// the inputs are pulled at most limit ahead. A failure's *PositionError
// tells its input's position; a value that must be matched with its input
// should carry what identifies it.
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
	checkLimit(name, limit)
	if limit == NoLimit {
		panic("task: " + name + ": limit is NoLimit; a sequence needs a limit")
	}
	o := options(opts)
	kind := kindMapSeq
	if !ordered {
		kind = kindMapSeqUnordered
	}
	return func(yield func(Out, error) bool) {
		newStream(ctx, kind, limit, fn, o, ordered, yield).run(inputs)
	}
}

// newStream prepares a range over the calls; yield is nil for ForEachSeq,
// which yields nothing and collects the failures.
func newStream[In, Out any](ctx context.Context, kind callKind, limit int, fn func(context.Context, In) (Out, error), o Option, ordered bool, yield func(Out, error) bool) *stream[In, Out] {
	window := limit
	if ordered {
		window = 2 * limit
	}
	s := &stream[In, Out]{fn: fn, ordered: ordered, limit: limit, keepGoing: o&KeepGoing != 0,
		slots: make([]seqSlot[In, Out], window), work: make(chan int, window),
		done: make(chan int, window), yield: yield}
	s.c.initKind(ctx, o, nil, kind, s)
	s.c.watchOuter()
	s.f = s.c.report()
	return s
}

// errStopped is the cause of the cancellation MapSeq sends to the running
// calls when the loop over it breaks out.
var errStopped = errors.New("task: the loop over the sequence stopped")

// stream is the state of one range over MapSeq.
type stream[In, Out any] struct {
	c         call
	fn        func(context.Context, In) (Out, error)
	ordered   bool
	keepGoing bool
	limit     int
	yield     func(Out, error) bool

	slots   []seqSlot[In, Out] // the calls in flight or ready; ordered: input i is in slots[i%len]
	work    chan int           // the slot of each call to make, for the workers; never blocks
	done    chan int           // the slot of each call that has returned; never blocks
	workers int                // workers started: at least running; one a Goexit ends starts its replacement
	free    []int              // unordered: the free slots
	head    int                // ordered: the next input to yield
	next    int                // the next input to start
	running int
	broke   bool // the loop broke out: start and yield nothing more
	fatal   bool // a panic or Goexit was met: yield nothing more; start nothing more unless keepGoing
	inYield bool // the loop body is running: if close finds it so, the body panicked or exited
	// ForEachSeq (yield nil): every outcome goes to f, and the error to err.
	inputsLeft bool   // ctx ended the call with inputs not started
	err        error  // the call's error, set by close
	f          report // the outcomes not yielded that must be raised: panics and Goexit
}

// seqSlot is one call of a stream: written by its goroutine before it sends
// on done, read by the consumer after.
type seqSlot[In, Out any] struct {
	in    In // set before its goroutine starts
	out   Out
	o     outcome
	index int
	ready bool // ordered: returned, not yet yielded
}

func (s *stream[In, Out]) run(inputs iter.Seq[In]) {
	defer s.close()
	if !s.ordered {
		s.free = make([]int, 0, s.limit)
		for i := range s.limit {
			s.free = append(s.free, i)
		}
	}
	ctxEnded := false
	for in := range inputs {
		for !s.canStart() {
			s.receive()
		}
		if s.broke || (!s.keepGoing && (s.fatal || s.c.failed.Load())) {
			break
		}
		if s.c.stopping() {
			ctxEnded = true
			break
		}
		s.start(in)
	}
	for s.running > 0 {
		s.receive()
	}
	if ctxEnded && !s.broke && !s.fatal {
		if s.yield == nil {
			s.inputsLeft = true
			return
		}
		var zero Out
		s.emit(zero, &CallError{Call: s.f.e.Call, Ctx: s.c.stopError()})
	}
}

// canStart reports whether a call may start: below the limit, and, in
// order, within the window.
func (s *stream[In, Out]) canStart() bool {
	if s.running >= s.limit {
		return false
	}
	return !s.ordered || s.next-s.head < len(s.slots)
}

func (s *stream[In, Out]) start(in In) {
	var k int
	if s.ordered {
		k = s.next % len(s.slots)
	} else {
		k = s.free[len(s.free)-1]
		s.free = s.free[:len(s.free)-1]
	}
	s.slots[k] = seqSlot[In, Out]{in: in, index: s.next}
	s.next++
	s.running++
	if s.workers < s.running {
		// Workers start as calls need them, up to limit, and stay for the
		// range: a call costs two channel operations, not a goroutine.
		s.workers++
		s.c.wg.Add(1)
		s.c.startAt(0)
	}
	s.work <- k
}

// goroutine is a worker: it makes the calls the consumer sends until the
// stream closes work, in the goroutine startAt started.
//
// If a call calls runtime.Goexit, this goroutine is unwinding (even when a
// deferred function's panic was recovered on the way, and the call ended
// as a panic): it starts a worker to take its place before it goes, as
// Map's workers do (see group.workerDone). The replacement stops at once if
// work is closed, and close waits for it too.
func (s *stream[In, Out]) goroutine(int) {
	exiting := true
	defer func() { s.c.workerDone(exiting) }()
	for k := range s.work {
		s.callSlot(k)
	}
	exiting = false
}

// call runs fn on the input of slot k.
func (s *stream[In, Out]) callSlot(k int) {
	sl := &s.slots[k]
	in := sl.in
	sl.in = *new(In) // do not keep the input alive
	defer func() {
		s.c.ended(sl.index, &sl.o)
		s.done <- k
	}()
	invoke(s.c.ctx(), site{&s.c, sl.index}, func(ctx context.Context) (Out, error) { return s.fn(ctx, in) }, &sl.out, &sl.o)
}

// receive waits for one call to return and yields what is ready.
func (s *stream[In, Out]) receive() {
	k := <-s.done
	s.running--
	if !s.ordered {
		s.take(k)
		s.free = append(s.free, k)
		return
	}
	s.slots[k].ready = true
	for {
		sl := &s.slots[s.head%len(s.slots)]
		if !sl.ready || sl.index != s.head {
			return
		}
		sl.ready = false
		s.head++
		s.take(s.head - 1)
	}
}

// take yields the outcome of input i's slot, or keeps it to be raised.
func (s *stream[In, Out]) take(k int) {
	if s.ordered {
		k %= len(s.slots)
	}
	sl := &s.slots[k]
	o := sl.o
	out := sl.out
	sl.out = *new(Out) // do not keep the value alive
	switch {
	case o.state == panicked || o.state == exited:
		s.fatal = true
		s.f.add(sl.index, o, nil)
	case s.yield == nil:
		s.f.add(sl.index, o, s.c.causeAt(sl.index))
	case s.broke || s.fatal:
		// Not yielded: kept with a panic, if one is raised.
		if o.state == failed && o.stop == own {
			s.f.add(sl.index, o, nil)
		}
	case o.state == succeeded:
		s.emit(out, nil)
	case o.stop == stopCall:
		// A cancellation this stream caused: not a result.
	default:
		var zero Out
		s.emit(zero, s.f.at(sl.index, o.err))
	}
}

// emit yields one pair, and ends the stream if the loop breaks out.
func (s *stream[In, Out]) emit(out Out, err error) {
	if s.broke || s.fatal {
		return
	}
	s.inYield = true
	ok := s.yield(out, err)
	s.inYield = false
	if !ok {
		s.broke = true
		s.c.fail(errStopped)
	}
}

// close cancels and waits for the calls still running, then raises a panic
// or a Goexit met on the way.
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
	if s.running > 0 {
		s.broke = true
		s.c.fail(errStopped)
		for s.running > 0 {
			s.receive()
		}
	}
	close(s.work)
	s.c.wg.Wait()              // every worker has gone: none outlives the loop
	s.c.fail(context.Canceled) // releases the child context, if made
	// Unordered, outcomes came in completion order: report them in input
	// order, the first panic first.
	err := s.f.err(s.c.parent)
	if s.inputsLeft {
		// No failure, yet inputs were left: ctx ended the call first.
		if err == nil {
			err = &CallError{Call: s.f.e.Call}
		}
		err.(*CallError).Ctx = s.c.stopError()
	}
	s.err = err
	s.c.callEnd(err)
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
