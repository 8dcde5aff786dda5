// Package task runs concurrent work whose results have different types,
// and gives every result back in argument order, with every error:
//
//	user, orders, err := task.Run2(ctx, loadUser, loadOrders)
//
// # The calls
//
// Functions of different types: [Run2] to Run16 run them and wait for
// them. [Go] starts one as a [Task]; [Await2] to Await16 wait for tasks of
// different types, [Task.Wait] for one. [Promise] makes a task that a
// callback completes.
//
// Many of one type: [All] waits for every task of a slice, [WhenEach]
// yields them in completion order. [Map] and [ForEach] call a function over
// a slice, [MapSeq] and [MapSeqUnordered] over an [iter.Seq], and
// [MapWithin] keeps what finished within a budget. [Do] runs functions that
// return only an error.
//
// Work found as it goes: [NewGroup] and the zero [Group] are errgroup's
// shape ([Group.Go], [Group.Wait], [Group.SetLimit]); [Scope] runs a body
// whose group cannot outlive it; [Spawn] starts a typed child.
//
// Racing: [Hedge] keeps the first success of replicas, [Quorum] the first
// k, [Until] what its predicate accepts. With no functions, or fewer than
// Quorum's k, they call nothing and return an error that wraps
// [ErrNotEnough].
//
// Options ([KeepGoing], [Settled], [FirstError], [Grace], [BlockAtLimit],
// [StartAll]) follow the other arguments; which call takes which is the
// table in [Option]'s documentation, and a call panics on one it does not
// use.
// [Named] names a function in errors, logs and traces.
//
// # Waiting
//
// A call that runs functions returns only after every function it started
// has returned: no goroutine it starts outlives it. [Group.Wait] returns
// once every child has returned. The return of a function synchronizes
// before the return of the wait that sees it (the call that ran it, Wait,
// AwaitN, All, WhenEach), in the sense of [the Go memory model].
//
// An await (Wait, AwaitN, All, WhenEach) cancels nothing: when its ctx is
// done first, it returns at once with ctx's error, and the tasks go on. Any
// number of goroutines may wait for a task, and all see the same result.
//
// # Cancellation
//
// A call that runs functions gives them a child of ctx, canceled as soon as
// one fails, panics or calls [runtime.Goexit] (fail-fast), with that
// failure's *[PositionError] as its [context.Cause]; after it, no new
// function starts. With [KeepGoing] nothing is canceled and every function
// runs. [Hedge], [Quorum] and [Until] cancel the rest with the cause
// [ErrLost] once they have enough.
//
// A function whose error holds a cancellation it saw ([errors.Is] of the
// context's error or cause) was stopped, not failed: its error goes to
// [CallError].Unfinished (the caller's ctx) or Canceled (the call's), out
// of the message. Any other error is a failure. No error is dropped.
//
// With [Grace], the end of ctx is a graceful stop: no new work starts,
// [Stopping] is closed, and the functions running keep a live context for
// the grace period, then are canceled. [Group.Stop] makes a group take no
// new child. Work never started is counted in CallError.NotStarted and
// listed by [CallError.NotStartedAt]; errors.Is(err, [ErrStopped]) says
// a stop, not a failure, left it.
//
// # Errors and panics
//
// The error of a call over several functions or tasks is a *[CallError]:
// one *[PositionError] per failure, in argument order, each a line naming
// the call and the argument:
//
//	task: Run3: f2: recs: 500 internal error
//
// [errors.Is] and [errors.As] reach every failure. The values are zero when
// the error is not nil, unless [Settled] is given. With
// [FirstError], the error is the first failure as its function returned it,
// errgroup's error, as the zero Group's Wait returns.
//
// A panic is recovered where it happened as a *[PanicError], with the
// stack from the frame that panicked, and raised again in the waiter's
// goroutine once every other function has returned: the first panicking
// position's, with the other failures in its Others. A task of [Go] whose panic no one waits for crashes the
// program when the task is collected. A function that calls
// [runtime.Goexit] ends with [ErrGoexit], and the waiter calls
// runtime.Goexit in turn; a panic outranks it.
//
// A nil function, task or context panics at once in the caller's goroutine,
// naming the call and the argument: "task: Run3: f2 is nil".
//
// # Limits
//
// Map, ForEach, MapWithin and the streams take a limit n on the calls
// running at once, and [Group.SetLimit] sets one on a group. A negative
// limit means none, as in errgroup's SetLimit(-1); a stream needs a
// positive one. A limit of 0 panics: computed by mistake, it would
// otherwise start everything or nothing.
//
// A group's child started at the limit is queued, as a task without a
// goroutine; a wait that needs it starts it in the waiter's place, so
// children that wait for their own children never deadlock. With
// [BlockAtLimit], Go and Spawn block at the limit instead, as errgroup's
// Go does: bounded memory over an endless source.
//
// # Guides
//
// [docs/failures.md]: errors, panics, the cancellation rule.
// [docs/scope.md]: groups, limits, streams. [docs/many.md],
// [docs/policies.md]: many tasks, racing. [docs/shutdown.md]: the graceful
// stop. [docs/observability.md]: labels, traces, the dump, spans.
//
// [the Go memory model]: https://go.dev/ref/mem
// [docs/failures.md]: https://github.com/tasktuple/task/blob/main/docs/failures.md
// [docs/scope.md]: https://github.com/tasktuple/task/blob/main/docs/scope.md
// [docs/many.md]: https://github.com/tasktuple/task/blob/main/docs/many.md
// [docs/policies.md]: https://github.com/tasktuple/task/blob/main/docs/policies.md
// [docs/shutdown.md]: https://github.com/tasktuple/task/blob/main/docs/shutdown.md
// [docs/observability.md]: https://github.com/tasktuple/task/blob/main/docs/observability.md
package task
