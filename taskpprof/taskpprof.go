// Package taskpprof labels the goroutines that package task starts with
// pprof labels saying which call and which argument they run, on top of
// the labels of the caller's context:
//
//	task.call = Run3 (or Map, Scope, MapSeq, Go, ...)
//	task.arg  = f2   (or inputs[7], children[3], body, fn)
//	task.name = recs (for a function given a name by task.Named)
//
// so that a goroutine profile (go tool pprof, or /debug/pprof/goroutine?debug=1)
// and a crash traceback (from Go 1.26, with GODEBUG=tracebacklabels=1; the
// default for modules on Go 1.27) tell which fan-out each goroutine belongs to.
//
// Call [Enable] once, early in main. Programs that do not import this
// package do not link runtime/pprof through package task, and pay nothing.
package taskpprof

import (
	"context"
	"runtime/pprof"
	"sync"

	"github.com/tasktuple/task/internal/probe"
)

var once sync.Once

// Enable labels, from now on, the goroutines that package task starts. It
// can be called any number of times; the first call does the work.
//
// The function that RunN runs on the caller's goroutine is labelled while
// it runs, and the caller's goroutine then gets the labels of the ctx it
// passed back.
func Enable() {
	once.Do(func() { probe.Install(labeller{}) })
}

type labeller struct{}

func (labeller) Call(ctx context.Context, call string) (context.Context, func(error)) {
	return ctx, func(error) {}
}

func (labeller) Func(ctx context.Context, call, arg string) (context.Context, func(probe.Outcome)) {
	labelled := pprof.WithLabels(ctx, pprof.Labels("task.call", call, "task.arg", arg))
	pprof.SetGoroutineLabels(labelled)
	return labelled, func(probe.Outcome) { pprof.SetGoroutineLabels(ctx) }
}

func (labeller) Named(ctx context.Context, name string) (context.Context, func()) {
	labelled := pprof.WithLabels(ctx, pprof.Labels("task.name", name))
	pprof.SetGoroutineLabels(labelled)
	return labelled, func() { pprof.SetGoroutineLabels(ctx) }
}
