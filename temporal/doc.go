// Package wtask is the Temporal adapter of [github.com/tasktuple/task]: the
// same typed tuple-await, for fan-outs that run as Temporal workflows.
//
//	user, orders, err := wtask.Run2(ctx, loadUser.Bind(id), loadOrders.Bind(id))
//
// or, with work started earlier:
//
//	fu := loadUser.Execute(ctx, id)   // wtask.Future[User]
//	fo := loadOrders.Execute(ctx, id) // wtask.Future[[]Order]
//	...
//	user, orders, err := wtask.Await2(ctx, fu, fo)
//
// The package is named wtask (workflow task), not temporal, so that it can
// be imported next to the SDK's own package temporal.
//
// An [Activity] or a [ChildWorkflow] is a typed reference to an activity or
// a workflow that takes an I and returns an O: [NewActivity] takes the
// function itself, so the compiler checks the input and output types where
// the SDK checks them at run time. Their Execute returns a [Future], whose
// Get returns a T: no pointer to pass, no type assertion. [FromFuture] types
// a future the SDK or other code made; [NewFuture] and [Go] are the typed
// forms of workflow.NewFuture and workflow.Go. Await1 to Await16 wait for
// futures of different types, Run2 to Run16 run functions of different
// types, [All] waits for a slice of futures, and [Map] runs a function over
// many inputs with at most a given number at once. The core has no Await1,
// since a task's Wait is one; here [Future.Get] waits until the future is
// ready whatever ctx does, and [Await1] is the wait for one future that
// returns when ctx is canceled.
//
// # Rules
//
// The rules are the core's (see the package documentation of
// [github.com/tasktuple/task]), with the workflow's primitives in place of
// goroutines and context.Context:
//
//   - Results come in argument order; AwaitN and All wait for every future.
//   - RunN and Map fail fast: the first failure, in the order the workflow
//     observes results (history order), cancels the context of the others
//     (a child of ctx made with [workflow.WithCancel]). The activities,
//     child workflows and timers started with that context are canceled,
//     and the call waits for every function to return, and for the
//     activities and child workflows they started to end: no function and
//     no activity outlives the call (the drain; see "The drain" below for
//     what that asks of an activity). With [KeepGoing] nothing is
//     canceled; with [Settled] the values come back along with the error.
//   - The error is the core's *[task.CallError]: one *[task.PositionError]
//     per failure, in argument order, and a message with one line each
//     ("task: Run3: f2: ..."); [errors.As] reaches the SDK's errors, such as
//     the [temporal.ApplicationError] inside an activity's
//     [temporal.ActivityError], through it.
//   - Cancellations are told from failures as in the core, with the SDK's
//     [temporal.CanceledError] in the place of context.Canceled: a
//     CanceledError returned once the caller's ctx is canceled (the
//     workflow was canceled) goes to CallError.Unfinished, with
//     CallError.Ctx set to ctx.Err(); one returned after the call canceled
//     its functions goes to CallError.Canceled and is left out of the
//     message; anything else is a failure. A workflow context has no cause,
//     so a function that returns a CanceledError of its own after a
//     sibling's failure is counted as canceled.
//   - AwaitN and All return at once when ctx is canceled, with the futures
//     not ready in CallError.Unfinished; a future that failed with a
//     CanceledError once ctx was canceled is counted as stopped by ctx too,
//     since the futures a workflow awaits are usually the activities it
//     started with the same ctx.
//   - A zero [Future], a nil ctx or a nil function panics at once, naming
//     the call and the argument: "wtask: Run3: f2 is nil".
//   - Returned from a workflow or an activity as it is, a CallError reaches
//     the client (or the parent, or the workflow) as an ApplicationError
//     with its message only: return [ApplicationError](err) to carry its
//     positions and make it non-retryable when every failure is, and
//     rebuild it on the other side with [CallErrorOf].
//
// # The drain
//
// A function of RunN or Map that runs an activity returns when the
// activity's future is ready. By default the SDK makes the future of a
// canceled activity ready as soon as the cancellation is requested, while
// the activity runs on in its worker. So RunN and Map give their functions
// a context whose activity options have WaitForCancellation set
// ([workflow.WithWaitForCancellation]): the future of a canceled activity
// is then ready only once the activity has ended (canceled, completed,
// failed or timed out), and the call returns after that. Per activity:
//
//   - An activity hears of its cancellation in the reply to a heartbeat:
//     it must call activity.RecordHeartbeat and have a HeartbeatTimeout
//     (the SDK sends heartbeats at most every 80% of it). One that does
//     not heartbeat may never hear of it (recent SDKs and servers can also
//     deliver it to the worker directly): it then runs to its end or its
//     timeout, and the call waits that long.
//   - An activity that takes longer than its HeartbeatTimeout to clean up
//     once canceled must go on heartbeating meanwhile, through
//     context.WithoutCancel(ctx): the SDK sends no heartbeat through a
//     canceled context. Otherwise the server times it out, the call gets
//     a [temporal.TimeoutError] at its position (a failure: it is not a
//     cancellation) and returns while the clean-up runs on.
//   - A function that replaces the activity options with
//     [workflow.WithActivityOptions] replaces WaitForCancellation too: set
//     it in the options, or change single options with
//     [workflow.WithStartToCloseTimeout] and the like, which keep it.
//   - To let one activity run on after the call, start it with
//     workflow.WithWaitForCancellation(ctx, false): the call then returns
//     as soon as its cancellation is requested.
//   - A child workflow needs nothing: the SDK makes the future of a
//     canceled child ready only once the child has closed, whatever
//     ChildWorkflowOptions.WaitForCancellation says.
//   - A local activity cannot be waited for: the SDK cancels its context
//     and makes its future ready at once. One that does not return when
//     its context is done runs on in the worker after the call.
//   - Timers are canceled at once; nothing runs on.
//
// AwaitN and All start nothing and cancel nothing: the futures they wait
// for were started with the caller's own options.
//
// # Errors at the client
//
// An error that crosses from a worker (to a client, a parent workflow, or
// the workflow that ran an activity) is rebuilt from what the SDK sent. A
// *task.CallError returned as it is arrives as an ApplicationError of type
// "CallError", retryable, with its message only. [ApplicationError] turns
// it into an ApplicationError of the same type and message that carries,
// in its details, the call and every position with its error, and that is
// non-retryable when every failure is; [CallErrorOf] rebuilds the
// *task.CallError from it on the other side:
//
//	// in the workflow
//	if err != nil {
//		return Page{}, wtask.ApplicationError(err)
//	}
//
//	// at the client
//	err := c.GetWorkflow(ctx, id, "").Get(ctx, &page) // c is a client.Client
//	if ce, ok := wtask.CallErrorOf(err); ok { ... ce.Failures ... }
//
// # Determinism
//
// Every call here is deterministic by construction: it uses only
// [workflow.Go], [workflow.Await], workflow futures and the workflow
// context, never goroutines, channels, time or map iteration. RunN starts
// its functions in argument order and Map takes inputs in order, so the
// commands they issue (schedule an activity, start a child, start a timer)
// come in the same order on every run and every replay. Changing a fan-out
// (the order of the functions, an activity added or removed) changes that
// order, which is a breaking change for running workflows, as any change
// of commands is: guard it with [workflow.GetVersion], and keep replay tests
// over recorded histories (the SDK's worker.WorkflowReplayer) to catch it; this
// package's own replay tests show the failure a swapped order causes.
//
// # Panics
//
// A panic in a function of RunN or Map, or in [Go], is not recovered. The
// core recovers panics and raises them in the caller once every function has
// returned; a workflow must not, because the functions' commands would be
// sent to the server by a workflow task that then completes normally, and
// the bug would be hidden behind the wait. Left alone, the panic reaches
// the SDK's dispatcher at once, which fails the workflow task: the worker
// retries it (the default WorkflowPanicPolicy, BlockWorkflow), so a fix can
// be deployed and the workflow goes on from where it was, or, with
// FailWorkflow, the workflow fails with a [temporal.PanicError]. A panic in
// an activity is not a workflow panic: the SDK turns it into the activity's
// failure (a PanicError inside an ActivityError), which is retried by the
// activity's retry policy and then reported at its position like any other
// failure.
//
// # Memory model
//
// The SDK runs a workflow's coroutines one at a time, handing control from
// one to the next through channels. So the return of each function of RunN
// and Map synchronizes before the return of the call, and the completion of
// a future before the return of every Get, AwaitN or All that observes it,
// in the sense of [the Go memory model]: the functions may write to
// variables of the workflow without locks.
//
// # Cost
//
// AwaitN of ready futures costs what the SDK's Get costs per future plus a
// check of each future; RunN adds a coroutine per function (the SDK runs
// each on a goroutine of its own), a child context and one future to wait
// on. docs/benchmarks-temporal.md compares both with the same code written
// by hand against the SDK.
//
// # Versions
//
// The module requires go.temporal.io/sdk v1.26.0 or later, the first
// version on the API's google.golang.org/protobuf types; its tests run at
// v1.26.0, v1.38.0 and v1.51.0, and replay the same recorded histories at
// each.
//
// [the Go memory model]: https://go.dev/ref/mem
package wtask
