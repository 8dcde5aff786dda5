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
// among functions it runs, canceling the losers; [WhenEach] iterates over
// tasks in completion order; [Map] runs a function over a slice with at
// most a given number of calls at once. None of them starts a goroutine to
// wait, copies its input, or uses reflect.Select: they scale to 10^5 tasks
// and beyond, in time linear in the number of tasks.
//
// # Waiting
//
// AwaitN and WhenAll wait for every task, even after one has failed, and
// return values in argument order. Any number of goroutines may wait for a
// task any number of times; all see the same value and error.
//
// RunN starts N-1 goroutines and calls the last function on the caller's
// goroutine. It returns only after every function has returned: no goroutine
// it started outlives the call.
//
// # Cancellation
//
// If the ctx of a Wait, AwaitN or WhenAll is done before the tasks complete,
// the call returns at once with the context's error; the tasks are not
// affected and keep running, and a later call gets their results. If every
// task has completed, their outcome is returned even when ctx is done.
//
// Each function of RunN (and of Map and RunFirstOK) gets a child of ctx that is canceled as soon as
// one function fails, panics or calls [runtime.Goexit] (fail-fast), with
// that failure as its [context.Cause], and that is canceled when RunN
// returns. The child is made only when a function first looks at it (Done,
// Value, or Err after a failure), so functions that never do cost nothing
// for it. With the [KeepGoing] option nothing is canceled and every function
// gets ctx itself.
//
// # Errors
//
// The error of AwaitN, RunN and WhenAll is an [errors.Join] of one
// *[PositionError] per failed position, in argument order, so [errors.Is]
// and [errors.As] reach every error and PositionError.Index tells which
// argument failed. It is nil only if every position succeeded.
//
// After a first failure in RunN, its siblings usually return
// context.Canceled or the cause: those induced cancellations are left out,
// so the error holds what actually went wrong. When the caller's ctx is
// canceled, the cancellations it caused are replaced by one context error
// after every real error: errors.Is(err, context.Canceled) (or
// DeadlineExceeded) holds and a cause given with [context.WithCancelCause]
// is reachable. A real error always outranks a cancellation.
//
// By default every value is the zero value when the error is not nil; with
// the [Settled] option the values that were produced are returned along
// with the error.
//
// # Panics and Goexit
//
// A panic in a function is never lost and never turns into success. It is
// recovered in the goroutine that ran the function, with the stack of that
// goroutine at the panic, as a *[PanicError]. Every call that observes it
// then panics in its own goroutine: Wait and TryWait with the *PanicError;
// AwaitN, RunN and WhenAll, after every other function or task has finished,
// with their joined error, which holds every PanicError and every other
// failure (recover it as an error and use errors.As). In RunN a panic also
// cancels the siblings, so the panic is not delayed by long-running work.
// panic(nil) is a panic too: its value is a *[runtime.PanicNilError], or nil
// under GODEBUG=panicnil=1, and it is raised all the same.
//
// A task started by [Go] whose panic is never passed to any waiter crashes
// the program, with the original value and stack, when the garbage collector
// finds the task unreachable (*[OrphanPanicError]): a panic cannot vanish
// because nobody waited.
//
// A function that calls runtime.Goexit (t.FailNow in a test does) ends its
// task with [ErrGoexit]; every call that observes it calls runtime.Goexit
// in its own goroutine, after the others have finished, as [iter.Pull] does.
// A panic outranks a Goexit in the same call, and the joined error then
// holds ErrGoexit at its position.
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
