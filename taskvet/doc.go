// Package taskvet defines analyzers that report misuse of
// [github.com/tasktuple/task] and migrate errgroup fan-outs to it.
//
// Run them with the taskvet command, alone or under go vet:
//
//	go install github.com/tasktuple/task/taskvet/cmd/taskvet@latest
//	taskvet ./...
//	go vet -vettool=$(which taskvet) ./...
//	taskvet -fix ./...    # apply the errgroup migrations
//
// Each analyzer can be turned off by name, as in -errgroupfix=false. The
// package github.com/tasktuple/task itself is not checked: its own code and
// tests (task_test too) create and drop tasks on purpose.
//
// # Analyzer losttask
//
// losttask: report a task that nothing waits for
//
// A task from task.Go or a Source whose result is dropped, assigned to _,
// or held in a local variable that no path reads again loses its error, and
// a panic in it crashes the program when the task is collected. Any use of
// the variable counts: a wait, a return, a store, passing it on. A child
// from task.Spawn or task.TrySpawn is reported only when its value is not
// struct{}: Scope waits for its children and reports their errors, so only
// the value is lost.
//
// # Analyzer awaiterr
//
// awaiterr: report a discarded error of a wait or a run
//
// The error of Wait, Await1..Await16, Run2..Run16, WhenAll, All,
// AllSeq, Map, Scope, WhenAny, FirstOK, RunFirstOK and Hedge carries every
// failure of the work it waited for; a call used as a statement or whose
// error is assigned to _ drops them. A range over MapSeq or MapSeqUnordered
// that leaves out the error drops the failures too. TryWait is not
// reported: it only probes, and the error stays for the next wait.
//
// # Analyzer selfwait
//
// selfwait: report a task whose function waits for the task itself
//
// In
//
//	var t *task.Task[int]
//	t = task.Go(ctx, func(ctx context.Context) (int, error) {
//		v, err := t.Wait(ctx) // waits for itself: never returns
//		...
//	})
//
// the function of t waits, through the captured variable, for t, which
// completes only when the function returns.
//
// # Analyzer groupescape
//
// groupescape: report a Scope's group that escapes the body
//
// A *task.Group is valid until its Scope returns. Storing it in a global, a
// field or a variable outside the body, returning it, sending it on a
// channel or handing it to a go statement lets code spawn into it after
// the Scope has returned, which panics; a Spawn on such a variable after
// the Scope call is reported too.
//
// # Analyzer badlimit
//
// badlimit: report a constant limit below 1
//
// task.Map, MapSeq, MapSeqUnordered and Group.SetLimit panic when the limit
// is below 1: unlike errgroup's SetLimit, a negative limit does not mean
// "no limit".
//
// # Analyzer errgroupfix
//
// errgroupfix: migrate errgroup fan-outs to the task package
//
// A group made by errgroup.WithContext or a zero errgroup.Group (var,
// literal or new), used only by Go, TryGo and SetLimit until one statement
// of the same block waits for it, is rewritten to the form of the task
// package that does the same on the success path:
//
//   - a fixed fan-out (g.Go calls in a row, then the wait) whose functions
//     assign results to variables declared before it: task.RunN, with
//     typed results (v1, v2, err := task.Run2(ctx, f1, f2)). A closure
//     of the usual shape becomes the function it calls; any other closure
//     (one that wraps, logs or annotates its error) becomes a function
//     that returns its result with its error, so the wrapping stays and
//     errors.As still finds it. Results read on the error path get
//     task.Settled, which leaves what each function produced, as errgroup
//     did.
//   - a fixed fan-out of error-only functions: task.Do.
//   - a range loop over a slice whose body only passes a closure to g.Go:
//     task.ForEach, with SetLimit's limit if it is a constant or known to
//     be positive (a negative constant, errgroup's "no limit", and no
//     SetLimit are task.NoLimit).
//   - anything else (other loops, statements between the calls, children
//     that spawn more): task.Scope, whose body is the same statements with
//     the same closures, each now a g.Go child of the Scope's group. A
//     wait that runs only if an error is nil (if err == nil { err =
//     g.Wait() }, after a walk that spawns) keeps that shape: the body
//     returns err as its failure, and err gets the Scope's error only if
//     it is nil.
//
// RunN, Map, ForEach and Scope get task.FirstError: they return the first
// failure as its function returned it, errgroup's error, so its message
// and what == finds stay the same. Do takes no options: its error is a
// *task.CallError, whose message names the function that failed, so
// error-only functions whose error is compared with == or type-asserted
// get a Scope instead. Every form passes panics to the caller as a
// *task.PanicError once everything has returned. The fix's message says
// what else changes.
//
// A zero Group made again by errgroup.WithContext under a condition (if
// e.Failfast { g, ctx = errgroup.WithContext(ctx) }) is fail-fast when the
// condition holds and cancels nothing when it does not: the fix keeps the
// if, which sets a variable to task.KeepGoing or 0, and passes it. A group
// made again in the same variables after the wait (g, ctx =
// errgroup.WithContext(ctx)) is a site of its own; the fix of the first
// declares the variables there (:=). When both have a fix, the two edit
// that line, and taskvet -fix applies them in two passes.
//
// After a failure, errgroup still calls every function passed to Go, with
// a canceled context; Map, ForEach and Scope start no call after a failure.
// A child that passes the derived context on is taken to honor it: not
// starting it after a failure differs only in what it would have done
// before looking at the context (a log line, a lookup), on the failure
// path. So these forms are fail-fast when every child uses the derived
// context and does nothing that code outside it may wait for: close, send
// on or receive from a channel it did not make, or call Done, Unlock or
// Release on something it did not take, as a child that defers close(ch)
// for a reader of the channel does (not started, it would leave the reader
// waiting forever). A child that begins with its call that gets the
// context and returns if it fails is fine in any case. A zero Group, or
// children that do not mention the derived context, get task.KeepGoing
// (every call runs, nothing is canceled: exact). Any other child gets no
// fix. The fixed fan-outs (RunN, Do) call every function, as errgroup
// does. With SetLimit, a task.Group queues a child at the limit instead of
// blocking the loop; a limit that may be negative (errgroup's "no limit")
// is set only when positive.
//
// No fix is offered where the rewrite could change what the code does on
// the success path: a group passed on, stored or used after the wait
// (other than made again); the derived context used after the wait; a
// return of nil (a return of an error becomes the Scope body's failure), a
// defer or a branch out of the statements a Scope body would take; a
// variable they declare used after the wait; SetLimit(0).
// Two shapes are reported without a fix, as the task package is the better
// tool but the rewrite is not mechanical: children that call g.Go under
// SetLimit (errgroup blocks them at the limit while they hold a slot), and
// recursive spawning with a hand-rolled channel limiter (written because
// SetLimit starves; a Scope's limit does not). A pipeline, whose wait runs
// in a goroutine, and goroutines bound to a component's lifetime are left
// alone.
//
// A comment //taskvet:keep-errgroup on the line that makes the group, or
// the line above, keeps a site as it is. The bench module of this
// repository, whose baselines use errgroup on purpose, is not checked.
//
// See docs/taskvet.md for the measurement on real modules.
package taskvet
