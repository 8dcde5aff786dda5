// Package task runs and awaits concurrent work whose results have different
// types, and gives every result back in argument order:
//
//	user, orders, err := task.Run2(ctx, loadUser, loadOrders)
//
// or, with work started earlier and elsewhere:
//
//	tu := task.Go(ctx, loadUser)
//	to := task.Go(ctx, loadOrders)
//	...
//	user, orders, err := task.Await2(ctx, tu, to)
//
// It is the Go form of .NET's `var (u, o) = await (tu, to);` with the
// semantics of Task.WhenAll under it.
//
// A [Task] holds a value and an error that become available once. [Go]
// starts a function in a new goroutine; [FromResult] and [FromError] make
// completed tasks; a [Source] completes a task from a callback or another
// goroutine. Await1 to Await16 wait for tasks of different types, Run2 to
// Run16 run functions of different types, and [WhenAll] waits for any mix
// of tasks whose values are not needed.
//
// Over many tasks of one type: [All] and [AllSeq] wait for every task of a
// slice or sequence; [WhenAny] reports the first to complete, failed or
// not; [FirstOK] returns the first success among tasks, and [RunFirstOK]
// among functions it runs, canceling the losers ([Hedge] starts them one
// after another, for hedged requests; [Quorum], [Until] and [MapWithin]
// end by other policies, below); [WhenEach] iterates over
// tasks in completion order; [Map] runs a function over a slice with at
// most a given number of calls at once. None of them starts a goroutine to
// wait, copies its input, or uses reflect.Select: they scale to 10^5 tasks
// and beyond, in time linear in the number of tasks.
//
// For a fan-out whose size is known only as it runs (a loop, a crawler, a
// tree walk), [Scope] runs a body with a [Group]; [Spawn] starts a child of
// any result type in it and returns its task, [Group.Go] a child that
// returns only an error (errgroup's Go), and [Group.SetLimit] bounds how
// many run at once. [NewGroup] makes the same group without a body, in
// errgroup's shape: Go into it, then [Group.Wait]; the zero Group is
// errgroup's zero Group. [MapSeq] streams a function over an [iter.Seq],
// yielding results in input order (or, with [MapSeqUnordered], as they
// come), with inputs pulled lazily. For work that returns only an error:
// [ForEach] and [ForEachSeq] are Map and MapSeq without results, and [Do]
// is RunN of error-only functions.
//
// # Waiting
//
// AwaitN and WhenAll wait for every task, even after one has failed, and
// return values in argument order. Any number of goroutines may wait for a
// task any number of times; all see the same value and error.
//
// RunN, Do, Map, ForEach, Scope, MapSeq, RunFirstOK and the completion
// policies return only after
// every function they started has returned: no goroutine they start
// outlives the call. A Group's Wait returns only after every child has
// returned. RunN and Do start N-1 goroutines and call the last
// function on the caller's goroutine.
//
// # Cancellation
//
// An await (Wait, AwaitN, All, AllSeq, WhenAll, WhenAny, FirstOK) cancels
// nothing. If its ctx is done before the tasks complete, it returns at once
// with the context's error (AwaitN, All and WhenAll in a *[CallError] whose
// Unfinished lists the tasks not completed, with a nil Err); the tasks keep
// running, and a later call gets their results. If every task has
// completed, their outcome is returned even when ctx is done.
//
// A call that runs functions (RunN, Do, Map, ForEach, Scope, a Group of
// NewGroup, MapSeq, MapSeqUnordered, ForEachSeq) gives them a child of ctx
// that is canceled as soon as one fails, panics or calls [runtime.Goexit]
// (fail-fast), with that failure's *[PositionError] as its
// [context.Cause], and when the call returns. After a failure no new
// function starts: Map's inputs not taken, a Scope's children waiting for
// a slot or spawned later; the error counts them (CallError.Skipped, a
// line of the message) and lists their positions
// ([CallError.NotStartedAt]). The child context
// is made only when a function first looks at it (Done, Value, or Err after
// a failure), so functions that never do cost nothing for it. With the
// [KeepGoing] option nothing is canceled, every function runs, and each
// gets ctx itself. [RunFirstOK], [Hedge] and [Quorum] give each function a
// context of its own: the losers' are canceled with [ErrLost] once one (k
// for Quorum) has succeeded, and the winners' stay alive after the call;
// a Quorum that can no longer reach k cancels the others with the failure
// that decided it as the cause.
//
// A function that gives up because its context was canceled did not fail:
// it was stopped. The rule, applied when a function returns an error:
//
//   - If the caller's ctx was done by then and the error holds ctx's error
//     or its cause (errors.Is), the function was stopped by ctx. It goes to
//     CallError.Unfinished, with what it returned, and CallError.Ctx holds
//     ctx's error joined with its cause. The message says which positions
//     had not finished and what they returned; no position that finished
//     in time is blamed; errors.Is(err, context.DeadlineExceeded) (or
//     Canceled) and the cause hold.
//   - Otherwise, if the call had canceled the function's context (after a
//     sibling's failure, or RunFirstOK's winner), or a Scope had recorded
//     a child's failure and was canceling its group, and the error holds
//     context.Canceled or the exact cause the call sent, the function was
//     stopped by the call. It goes to CallError.Canceled, with what it
//     returned, and is left out of the message: the failure that caused it
//     is there.
//   - Anything else is a failure of the function's own, even when it
//     returned after a cancellation: the same sentinel error that a sibling
//     failed with (both return ErrNotFound), a DeadlineExceeded of its own
//     timeout, or context.Canceled before anything was canceled.
//
// So no error a function returns is ever dropped: each is a failure, or
// kept in Unfinished or Canceled. The cause the call sends is the
// *PositionError of the first failure, not the error itself, which is how
// an error that wraps the cause (context.Cause(ctx)) is told apart from the
// same sentinel returned independently. A child of a Scope that never
// started because of a failure is listed in Canceled too, and its task
// fails with the cancellation and its cause.
//
// # Errors
//
// The error of a call over several functions or tasks (AwaitN, RunN, Do,
// WhenAll, All, AllSeq, Map, ForEach, ForEachSeq, Scope, FirstOK,
// RunFirstOK, Hedge) is a *[CallError].
// Its Failures hold one *[PositionError] per position that failed, in
// argument order, and its message has one line for each, naming the call
// and the argument:
//
//	task: Run3: f2: recs: 500 internal error
//	task: Map: inputs[3]: 404 not found
//
// [errors.Is] and [errors.As] reach every failure; range over
// CallError.Failures (or the error's Unwrap() []error) to visit them all.
// The error is nil only if every position succeeded, or finished anyway.
//
// By default every value is the zero value when the error is not nil; with
// the [Settled] option the values that were produced are returned along
// with the error. With the [FirstError] option, RunN, Map, ForEach,
// ForEachSeq and Scope return the first failure as its function returned
// it, as errgroup's Wait does, instead of the *CallError.
//
// # Panics and Goexit
//
// A panic in a function is never lost and never turns into success. It is
// recovered in the goroutine that ran the function, with the stack of that
// goroutine from the frame that panicked, as a *[PanicError]. Every call
// that observes it then panics in its own goroutine: Wait and TryWait with
// the task's *PanicError; AwaitN, RunN, WhenAll and the other calls over
// several positions, after every other function or task has finished, with
// the *PanicError of the first panicking position in argument order, which
// says where it happened (Call, Index, Arg) and holds every other failure
// of the call in Others, reachable with errors.Is and errors.As. So
// recover().(*task.PanicError) works, and a crash prints the panic first,
// its stack, then the rest. In RunN a panic also cancels the siblings, so
// the panic is not delayed by long-running work. panic(nil) is a panic too:
// its value is a *[runtime.PanicNilError], or nil under GODEBUG=panicnil=1,
// and it is raised all the same.
//
// A task started by [Go] whose panic is never passed to any waiter crashes
// the program, with the original value and stack, when the garbage collector
// finds the task unreachable (*[OrphanPanicError]): a panic cannot vanish
// because nobody waited.
//
// A function that calls runtime.Goexit (t.FailNow in a test does) ends its
// task with [ErrGoexit]; every call that observes it calls runtime.Goexit
// in its own goroutine, after the others have finished, as [iter.Pull] does.
// A panic outranks a Goexit: in the same call, the panic is raised and
// holds ErrGoexit at its position; a panic raised by a deferred function
// while a Goexit unwinds is raised, as it would crash the program without
// this package. When the last function of RunN, which runs on the caller's
// goroutine, calls Goexit, RunN still waits for the others, and if one of
// them panicked, the caller's goroutine panics with it instead of going on
// with the Goexit.
//
// Why re-raise rather than return an error: a panic is a bug, and as an
// error it would be swallowed by the first `if err != nil { log; continue }`.
// Why not let it crash the goroutine, as [golang.org/x/sync/errgroup] does
// since v0.16: that choice was made because Wait might never be reached and
// because a re-raised panic hides the original stack. RunN's wait is part of
// the call itself, the original stack travels in PanicError.Stack and is
// printed if the program crashes, and an unobserved panic of a Go task still
// crashes the program.
//
// # Completion policies
//
// A call ends when every function has returned (RunN, Map, All, a Scope),
// or at the first success (RunFirstOK, Hedge, FirstOK). Three policies end
// it otherwise, each a rule on top of the rules above:
//
//   - [Quorum] ends at the k-th success (the winners, in the order they
//     came), or as soon as k cannot be reached (len(fns)-k+1 failures: a
//     *CallError with every failure).
//   - [Until] ends when its predicate, called on the caller's goroutine
//     with the successes so far in completion order, returns true; it
//     returns the successes and the positions not yet returned.
//   - [MapWithin] is Map with a budget: when it ends, the calls running
//     are canceled and no input starts, and the call returns the results
//     that finished and the positions the budget left, with no error for
//     the budget's end.
//
// The policy's own cancellations are stops, not failures, and the call
// returns no error for them: once Quorum has k successes or Until's
// predicate says enough, the functions still running are canceled with
// the cause [ErrLost]; when
// MapWithin's budget ends, with [ErrBudget] (their positions are the left
// it returns). As
// everywhere, each returns only after every function it started has
// returned, and raises a panic or Goexit once they all have; names
// ([Named]) and the probes (labels, traces, the dump, spans) are those of
// RunFirstOK (Quorum, Until) and Map (MapWithin). Quorum and Until take no
// options, as RunFirstOK; MapWithin takes Map's ([KeepGoing], [FirstError],
// [Grace]: the budget's end is then a stop with a grace period, as the end
// of the caller's ctx is).
//
// # Limits
//
// Map, ForEach, MapSeq and ForEachSeq take a limit on the calls running at
// once, and [Group.SetLimit] sets one on a Scope's children; [NoLimit]
// sets none where no limit makes sense (not for a sequence). A limit of 0
// or less panics rather than meaning "no limit": a limit computed to 0
// would silently start a goroutine per input. A Scope's child spawned at
// its limit waits as a task with no goroutine, and a wait (Wait, AwaitN,
// All, AllSeq, WhenAll) on such a child starts it at once, in the waiter's
// place, so that children that wait for their own children never
// deadlock; see Group.SetLimit for exactly what is covered.
//
// # Shutting down
//
// With the [Grace] option, the end of the caller's ctx is a stop in two
// phases rather than one cancellation. First the call stops taking new
// work: Map's and ForEach's inputs not taken, MapSeq's and ForEachSeq's
// inputs not pulled and a Scope's children waiting for a slot or spawned
// later never start, and [Stopping] is closed for every function of the
// call and of the calls nested in them. The functions running keep a live
// context (it has no deadline but the caller's plus the grace period), and
// what they return is kept: values, and failures as failures. Then, once
// the grace period has passed, their context is canceled with the caller's
// cause: what they return then follows the rule of cancellations, as
// without Grace: an error that holds the caller's ctx error or cause goes
// to CallError.Unfinished, any other error is a failure. The call returns
// once every function has returned. A call started after the stop, in a
// function of the stopping call (a flush on Stopping), is not stopped by
// it: it is the function's wrap-up and runs all its work (its functions
// see Stopping closed); the end of the grace period cancels it as any
// other. Inputs and children never started are counted in
// CallError.NotStarted (a line of the message, not one per input) and
// listed by [CallError.NotStartedAt], and errors.Is(err, context.Canceled)
// (or DeadlineExceeded) and the cause hold.
//
// Fail-fast is not a shutdown: a failure cancels at once, grace or not.
// [Group.Stop] stops a Scope taking new children without canceling
// anything, for a body whose source of work has ended. Without Grace, the
// end of the caller's ctx also stops the taking of new work, and cancels
// the functions running at once; Map, ForEach and Scope with KeepGoing,
// which run every function as errgroup does, then still start them all
// (MapSeq and ForEachSeq stop pulling inputs either way).
//
// # Options
//
// [KeepGoing] and [Settled] are the counterparts of .NET's ConfigureAwait
// options. ContinueOnCapturedContext has no counterpart: Go has no
// synchronization context, and an await always resumes on the goroutine that
// called it. ForceYielding, which makes an await of a completed task yield,
// has none either: a goroutine that wants to yield calls [runtime.Gosched],
// and awaiting completed tasks is meant to cost nothing. SuppressThrowing
// is close to Settled, except that panics are never suppressed.
//
// # Bad input
//
// A nil task, function or context is a programming error: the call panics
// at once, in the caller's goroutine, naming the call and the argument, as
// in "task: Run3: f2 is nil", and starts nothing.
//
// # Seeing it run
//
// [Named] gives a function a name that errors and panics use in place of
// its position. The packages taskpprof and tasktrace, once enabled, label
// the goroutines this package starts with pprof labels (task.call,
// task.arg, task.name) and record calls and functions in execution traces;
// taskdump writes the calls running now as a tree;
// the module github.com/tasktuple/task/otel records them as OpenTelemetry
// spans. A program that does not enable them pays one atomic load per call
// and per function.
//
// # Memory model
//
// The completion of a task synchronizes before the return of every Wait,
// TryWait, AwaitN or WhenAll that observes it, and the return of each
// function of RunN synchronizes before the return of RunN, in the sense of
// [the Go memory model].
//
// # Cost
//
// AwaitN, Wait and WhenAll of tasks that have completed allocate nothing.
// The completed-task checks are inlined into AwaitN and Wait, so awaiting
// completed tasks is one call with no call inside it; AwaitN itself is not
// inlined into its caller, because a generic function that also calls its
// slow path exceeds the compiler's inlining budget (80; Wait alone costs 91
// or more in every form tried), and the checks for a nil argument cannot go.
// RunN makes one allocation for its state and one per goroutine it starts:
// N in all, when the functions do not look at their context. A function that
// does look at it adds the child context: three more allocations for the
// whole call, fewer than [golang.org/x/sync/errgroup.WithContext]. Go makes
// two (the task and its goroutine's closure). Waiting for a pending task
// with a ctx that can be canceled makes its Done channel, once per task;
// AwaitN, All and WhenAll instead register one link for the whole call.
//
// Before it blocks, RunN (and a call that waits for several pending tasks)
// yields once with [runtime.Gosched]: goroutines it has just started are
// usually still in the current P's run queue, and letting them run there is
// much cheaper than parking and being woken from another thread.
//
// [the Go memory model]: https://go.dev/ref/mem
package task
