// Package tasktrace shows the calls of package task in execution traces
// (runtime/trace, go tool trace): each call is a trace task named after it
// ("task.Run3", "task.Scope", "task.Await2", ...), each function a region
// in its own goroutine named after the call and the argument ("Run3 f2",
// or the name given by task.Named), and the outcome of a function that did
// not succeed a log message in its region ("task.error", "task.panic",
// "task.goexit"). The trace then shows the fan-out, what each goroutine
// ran, and the await that waited for them.
//
// The graceful stop of a call with a grace period (task.Grace) is logged
// in the call's task: "task.stop" when it stops taking new work, with the
// work it leaves not started and the grace period ("12 not started, 5s of
// grace"); "task.grace_start" when the grace period starts after the stop
// (a Scope stopped by Group.Stop, whose caller's ctx is done later);
// "task.grace_end" when the grace period ends and the functions still
// running are canceled.
//
// Call [Enable] once, early in main. When no trace is being recorded the
// probe returns at once; programs that do not import this package do not
// link runtime/trace through package task.
package tasktrace

import (
	"context"
	"fmt"
	"runtime/trace"
	"strconv"
	"sync"
	"time"

	"github.com/tasktuple/task/internal/probe"
)

var once sync.Once

// Enable records, from now on, the calls of package task in execution
// traces while one is being recorded. It can be called any number of times.
func Enable() {
	once.Do(func() { probe.Install(tracer{}) })
}

type tracer struct{}

func (tracer) Call(ctx context.Context, call string) (context.Context, func(error)) {
	if !trace.IsEnabled() {
		return ctx, func(error) {}
	}
	ctx, tk := trace.NewTask(ctx, "task."+call)
	return ctx, func(err error) {
		if err != nil {
			trace.Log(ctx, "task.error", err.Error())
		}
		tk.End()
	}
}

func (tracer) Func(ctx context.Context, call, arg string) (context.Context, func(probe.Outcome)) {
	if !trace.IsEnabled() {
		return ctx, func(probe.Outcome) {}
	}
	r := trace.StartRegion(ctx, call+" "+arg)
	return ctx, func(o probe.Outcome) {
		switch {
		case o.Panicked:
			trace.Log(ctx, "task.panic", fmt.Sprint(o.Value))
		case o.Goexit:
			trace.Log(ctx, "task.goexit", "")
		case o.Err != nil:
			trace.Log(ctx, "task.error", o.Err.Error())
		}
		r.End()
	}
}

func (tracer) Named(ctx context.Context, name string) (context.Context, func()) {
	if !trace.IsEnabled() {
		return ctx, func() {}
	}
	r := trace.StartRegion(ctx, name)
	return ctx, r.End
}

// Stop logs the stop of a call with a grace period in its task.
func (tracer) Stop(ctx context.Context, call string, notStarted int, grace time.Duration) {
	if !trace.IsEnabled() {
		return
	}
	msg := ""
	if notStarted >= 0 {
		msg = strconv.Itoa(notStarted) + " not started, "
	}
	if grace > 0 {
		msg += grace.String() + " of grace"
	} else {
		msg += "the grace period starts when ctx is done"
	}
	trace.Log(ctx, "task.stop", msg)
}

// GraceStart logs the start of the grace period after the stop.
func (tracer) GraceStart(ctx context.Context, call string, grace time.Duration) {
	if trace.IsEnabled() {
		trace.Log(ctx, "task.grace_start", grace.String()+" of grace")
	}
}

// GraceEnd logs the end of the grace period.
func (tracer) GraceEnd(ctx context.Context, call string) {
	if trace.IsEnabled() {
		trace.Log(ctx, "task.grace_end", "the functions still running are canceled")
	}
}
