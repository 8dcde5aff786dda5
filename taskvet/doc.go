// Package taskvet defines analyzers that report misuse of
// [github.com/tasktuple/task] and migrate errgroup fan-outs to it.
//
// Run them with the taskvet command, alone or under go vet:
//
//	go install github.com/tasktuple/task/taskvet/cmd/taskvet@main
//	taskvet ./...
//	go vet -vettool=$(which taskvet) ./...
//	taskvet -fix ./...    # apply the errgroup migrations
//
// Each analyzer can be turned off by name, as in -errgroupfix=false. The
// package github.com/tasktuple/task itself is not checked: its own code and
// tests (task_test too, but for badoption) create and drop tasks on purpose.
//
// # Analyzer losttask
//
// losttask: report a task that nothing waits for
//
// A task from task.Go or task.Promise whose result is dropped, assigned to
// _, or held in a local variable that no path reads again loses its error,
// and a panic in the function of task.Go crashes the program when the task
// is collected. Any use of the variable counts: a wait, a return, a store,
// passing it on. A child from task.Spawn or task.TrySpawn is reported only
// when its value is not struct{}: Scope waits for its children and reports
// their errors, so only the value is lost.
//
// # Analyzer awaiterr
//
// awaiterr: report a discarded error of a wait or a run
//
// The error of Wait, Await2..Await16, Run2..Run16, All, Map, Scope and
// Hedge carries every failure of the work it waited for; a call used as a
// statement or whose error is assigned to _ drops them. A range over MapSeq
// or MapSeqUnordered that leaves out the error drops the failures too.
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
// completes only when the function returns. A select with a default case
// that receives from t.Done() only probes, and is not reported.
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
// badlimit: report a constant limit that panics
//
// task.Map, ForEach, MapWithin and Group.SetLimit panic on a limit of 0; a
// negative limit means no limit, as with errgroup's SetLimit. MapSeq and
// MapSeqUnordered panic on a limit below 1: a sequence needs a limit.
//
// # Analyzer badoption
//
// badoption: report an option a call does not take
//
// A call given an option it does not take panics, naming the call and the
// option: task.ForEach(ctx, in, 8, fn, task.Settled) panics with "task:
// ForEach: Settled does not apply to ForEach". NewGroup and Scope panic on
// StartAll with KeepGoing, which starts every child already. Such an
// option is reported, with the text of the panic, where it is constant: a
// variable of the package (task.Settled) or a call of task.Grace, passed
// directly or in a []task.Option{...} literal passed with "...". Every
// option the call does not take is reported, not only the first, the one
// it panics on. An option held in a variable of one's own, or returned by
// a function, is not reported; the zero Option is no option, and every
// call takes it. Which call takes which option is the table of the task
// package of the same commit as taskvet, which the doc of task.Option
// shows. Unlike the other analyzers, badoption checks the tests of the
// task package that are in package task_test, its examples among them.
//
// # Analyzer errgroupfix
//
// errgroupfix: migrate errgroup fan-outs to the task package
//
// A group made by errgroup.WithContext or a zero errgroup.Group (var,
// literal or new), used only by Go, TryGo and SetLimit until one statement
// of the same block waits for it, is rewritten to the smallest form of the
// task package that does the same:
//
//   - a fixed fan-out (g.Go calls in a row, then the wait) whose functions
//     all assign results to variables declared before it: task.RunN, with
//     typed results (v1, v2, err := task.Run2(ctx, f1, f2)). A closure
//     of the usual shape becomes the function it calls; any other closure
//     (one that wraps, logs or annotates its error) becomes a function
//     that returns its result with its error, so the wrapping stays and
//     errors.As still finds it. Results read on the error path get
//     task.Settled, which leaves what each function produced, as errgroup
//     did. A fan-out that would need a struct{} result for an error-only
//     function, or three options, stays a group in place: the smaller
//     diff.
//   - a fixed fan-out of error-only functions whose wait's error is only
//     compared with nil: task.Do.
//   - a range loop over a slice whose body only passes a closure to g.Go:
//     task.ForEach (task.Map if it stores each result at its index), with
//     SetLimit's limit if it is a constant other than 0 or known to be
//     positive (a negative limit is no limit in both; no SetLimit is -1).
//
// Where none fits, the group stays in place and becomes a task.Group:
// errgroup.WithContext(ctx) becomes task.NewGroup(ctx, task.FirstError),
// a zero errgroup.Group the zero task.Group (errgroup's zero Group), each
// g.Go(func() error {...}) g.Go(func(context.Context) error {...}) (a
// closure factory, g.Go(func(x X) func() error { return func() error
// {...} }(x)), keeps its call: its result and the literals it returns take
// the context; g.Go(f(x)), a call that returns the function, becomes
// child := f(x) and g.Go(func(context.Context) error { return child() }),
// so that f(x) still runs at the Go), and the code around the group, its
// Wait included, stays. The group is followed through the variables (var
// g, ctx = errgroup.WithContext(ctx) included), the parameters of the
// package's own unexported functions and the fields it is assigned or
// passed to, embedded ones too (struct{ *errgroup.Group; ctx
// context.Context } becomes struct{ *task.Group; ctx context.Context }):
// they change type together, or none does. A group kept in a field gets
// the fix wherever its Go and Wait are: task's Group, as errgroup's,
// begins a new round on a Go after its Wait, and the context of a group
// made by NewGroup stays canceled, as errgroup's. A group whose Go and
// Wait are in different functions (Start and Shutdown; or a Wait in a
// function literal that its function keeps for later, such as a returned
// body's BeforeClose) keeps errgroup's
// crash at a child's panic: where it is made by WithContext in an
// assignment of its own, the fix adds, after that statement, a
// context.AfterFunc on the group's context that panics with the child's
// *task.PanicError when a panic cancels it (a KeepGoing group becomes
// task.StartAll, errgroup's rule, so that a panic cancels it; a limited
// zero Group made by task.NewGroup gets a context that only the hook
// reads). Where it cannot (a zero Group that stays one has no context),
// for a Go in a loop that only a break or a return ends (for {}, over a
// channel or an iterator) whose Wait comes after the loop, and for a
// return that can run between a Go and the Wait (the children run on with
// no Wait), the message says plainly that a child's panic
// no longer crashes the program at once but is raised by the Wait, if it
// is ever called. A group made, given its children and waited for inside
// one function literal is checked in that literal.
//
// RunN, Map, ForEach and the group in place get task.FirstError: they
// return the first failure as its function returned it, errgroup's error,
// so its message and what == finds stay the same. Do takes no options: its
// error is a *task.CallError, whose message names the function that
// failed, so an error-only fan-out whose wait's error leaves the function
// (returned, stored, passed on, where a caller may compare it) stays a
// group in place. Every form raises a panic of a child in the caller (or
// Wait) as a *task.PanicError once everything has returned. The fix's
// message says what else changes.
//
// After a failure, errgroup still calls every function passed to Go, with
// a canceled context; Map, ForEach and a fail-fast task.Group start no
// call after a failure. A child that passes the derived context on is
// taken to honor it: not starting it after a failure differs only in what
// it would have done before looking at the context (a log line, a lookup),
// on the failure path. So these forms are fail-fast when every child uses
// the derived context and does nothing that code outside it may wait for:
// close, send on or receive from a channel it did not make, call Done,
// Unlock or Release (ReleaseSlot) on something it did not take, or call a
// function value it did not make (a completion callback, done(); a hook
// run for its effects, fn(ctx)), as a child that defers close(ch) for a
// reader of the channel does (not started, it would leave the reader
// waiting forever). A child that begins with its call that gets the
// context, of a declared function or method, and returns if it fails is
// fine in any case. A zero Group,
// or children that do not mention the derived context when nothing else
// reads it before the Wait, get task.KeepGoing (every call runs, nothing
// is canceled: nothing can tell). Any other group made by WithContext
// stays in place with task.StartAll, errgroup's own rule: a failure
// cancels the derived context and every child still starts. The fixed
// fan-outs (RunN, Do) call every function, as errgroup does.
//
// A Go after a Wait needs a later Wait of the same group (a Go after the
// last Wait is reported). SetLimit must come before the first Go, in the
// function that makes the group, and stays as it is: a negative limit is
// no limit in both.
// SetLimit(0), which blocks every Go of errgroup's, has no fix, and a
// limit that is 0 when the code runs panics. errgroup's Go blocks the
// spawner at the limit, so that it never holds more children than the
// limit; task's queues the child. A limited group gets task.BlockAtLimit,
// which blocks as errgroup does (a zero Group is then made by
// task.NewGroup), unless its Go calls are at most 64, as taskvet can tell
// from the code (out of any loop, or in loops over arrays and constant
// integers). Map and ForEach never hold more calls than their limit.
//
// No fix is offered where the rewrite could change what the code does: a
// group passed to a function of another package, to an exported function,
// returned, or used in another way; a Go after the last Wait, as above;
// SetLimit(0) or a SetLimit after the first Go. Each such group is
// reported, with why and what a person would change. No fix drops a
// comment: where a smaller form would, the group stays in place. The
// taskvet command also analyzes, and with -fix migrates, the files that
// import errgroup and that this build leaves out, with the GOOS, GOARCH
// or tags of a build that takes them; it lists those that no build takes
// (//go:build ignore), with the command that analyzes them.
//
// A fix imports the task package (and context, errors) only in the files
// that name it, in the section of third-party imports (standard packages
// in the standard section), never in the module's own: its path, and the
// prefixes that its .golangci.yml makes local (gci's prefix(...) sections,
// goimports' local-prefixes). With -fix, the taskvet command builds every
// package it changed and puts back as it was, saying why, one that does
// not build after the fixes.
//
// A comment //taskvet:keep-errgroup on the line that makes the group, or
// the line above, keeps a site as it is. The bench module of this
// repository, whose baselines use errgroup on purpose, is not checked.
//
// See docs/taskvet.md for the measurement on real modules.
package taskvet
