// Package taskvet defines analyzers that report misuse of
// [github.com/tasktuple/task] and migrate fixed errgroup fan-outs to it.
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
// tests create and drop tasks on purpose.
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
// errgroupfix: migrate a fixed errgroup fan-out to task.RunN
//
// A group made by errgroup.WithContext, or a zero errgroup.Group, followed
// by two to sixteen g.Go calls whose closures only assign the results of a
// call to captured variables, and then by
//
//	if err := g.Wait(); err != nil {
//
// or err := g.Wait() and a check of err, is rewritten to
//
//	v1, v2, err := task.Run2(ctx, f1, f2)
//
// (task.KeepGoing for a zero Group, which cancels nothing). The analyzer
// reports nothing where the rewrite could change what the code does: a
// closure that does more, a group that is passed on, stored, limited or
// used again, a derived context used outside the calls, a result read
// before the wait or on the error path, or an error compared with ==. The
// rewritten code returns every failure in a *task.CallError (errors.Is and
// errors.As reach each one) and passes panics on to the caller rather than
// crashing the program.
//
// A loop of g.Go is left alone, with or without SetLimit. Into task.Map it
// is exact only in a narrow case (a zero Group, a constant limit, closures
// that store f(ctx, x) into a slice made for the results, read only after
// a successful wait); under errgroup.WithContext it is not exact at all:
// errgroup keeps calling the function for the inputs after a failure (with
// a canceled context), Map starts no new call. That rewrite is left for a
// later version rather than done where it could change what runs.
package taskvet
