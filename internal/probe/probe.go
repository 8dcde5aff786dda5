// Package probe is how the instrumentation packages of tasktuple
// (taskpprof, tasktrace, and the otel module) observe calls and the
// functions they run, without the core importing runtime/pprof,
// runtime/trace or OpenTelemetry: a program pays for what it installs.
//
// With nothing installed, the core's cost is one atomic load per call and
// per function, and no allocation.
package probe

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// A Probe observes calls and functions. Call runs in the caller's
// goroutine when a call starts (RunN, Map, Scope, Go, ...): the context it
// returns is the one the call's functions derive theirs from, and end is
// called when the call returns, with its error. Func runs in the goroutine
// of a function, just before it runs, with the call's context: the context
// it returns is the function's, and end is called when the function ends.
type Probe interface {
	Call(ctx context.Context, call string) (context.Context, func(err error))
	Func(ctx context.Context, call, arg string) (context.Context, func(Outcome))
	// Named is called when a function given a name by task.Named starts,
	// in its goroutine, with its context: the context it returns is the
	// function's, and end is called when it ends.
	Named(ctx context.Context, name string) (context.Context, func())
}

// An Outcome is how a function ended.
type Outcome struct {
	Err      error  // the error it returned; nil on success
	Panicked bool   // it panicked: Value and Stack are set
	Value    any    // the panic value
	Stack    []byte // the stack from the frame that panicked
	Goexit   bool   // it called runtime.Goexit
}

var (
	mu      sync.Mutex
	probes  []Probe
	active  atomic.Pointer[Probe]
	tracker atomic.Pointer[Tracker] // active's, if it is a Tracker
)

// LoadTracker returns the installed probes as a Tracker, if they are one
// (see Tracker), or nil: Load's value, without a type assertion.
func LoadTracker() Tracker {
	if t := tracker.Load(); t != nil {
		return *t
	}
	return nil
}

// Load returns the installed probes as one, or nil.
func Load() Probe {
	if p := active.Load(); p != nil {
		return *p
	}
	return nil
}

// Install adds p to the installed probes. Probes run in the order they
// were installed; their contexts chain.
func Install(p Probe) {
	mu.Lock()
	defer mu.Unlock()
	probes = append(probes, p)
	c := chain(append([]Probe(nil), probes...))
	var all Probe = c
	for _, p := range c {
		if t, ok := p.(Tracker); ok {
			all = trackingChain{c, t}
		}
	}
	if len(probes) == 1 {
		all = p
	}
	if t, ok := all.(Tracker); ok {
		tracker.Store(&t)
	}
	active.Store(&all)
}

// A Stopper is a Probe that is also told of the phases of a call with a
// grace period (task.Grace), with the context the Probe's Call returned:
//
//   - Stop, once, when the call stops taking new work: its caller's ctx is
//     done, or the body of a Scope called Group.Stop. notStarted is the
//     work it leaves not started then: the inputs of Map not taken, the
//     children of a Scope waiting for a slot (those spawned later are
//     refused too), 0 for RunN; -1 if the call cannot tell (MapSeq: the
//     rest of a sequence). It is a count at that instant: a worker of Map
//     that was taking an input as the stop came still starts it. grace is
//     the grace period if it starts with the stop, because the caller's
//     ctx is done; 0 if it does not start yet (Group.Stop: the functions
//     running go on until the caller's ctx is done).
//   - GraceStart, when the grace period starts after a Stop with grace 0.
//   - GraceEnd, when the grace period ends: the functions still running
//     are canceled.
//
// The three come in this order, from any goroutine. A call that returns
// within its grace period has no GraceEnd; the caller's ctx may end as the
// call returns, and a probe be told of its stop after its end.
type Stopper interface {
	Stop(ctx context.Context, call string, notStarted int, grace time.Duration)
	GraceStart(ctx context.Context, call string, grace time.Duration)
	GraceEnd(ctx context.Context, call string)
}

// A Limiter is a Probe that is also told of the limit of a call, with the
// context the Probe's Call returned, once the call knows it: Map and
// ForEach when they start, MapSeq and MapSeqUnordered when the range
// starts, a Scope or a Group when Group.SetLimit sets one. limit is the
// most functions that run at once (0: no limit); inputs is the number of inputs of Map and ForEach, -1 for the
// other calls, which cannot tell.
type Limiter interface {
	Limit(ctx context.Context, call string, limit, inputs int)
}

// chain runs several probes as one.
type chain []Probe

func (c chain) Limit(ctx context.Context, call string, limit, inputs int) {
	for _, p := range c {
		if l, ok := p.(Limiter); ok {
			l.Limit(ctx, call, limit, inputs)
		}
	}
}

func (c chain) Stop(ctx context.Context, call string, notStarted int, grace time.Duration) {
	for _, p := range c {
		if s, ok := p.(Stopper); ok {
			s.Stop(ctx, call, notStarted, grace)
		}
	}
}

func (c chain) GraceStart(ctx context.Context, call string, grace time.Duration) {
	for _, p := range c {
		if s, ok := p.(Stopper); ok {
			s.GraceStart(ctx, call, grace)
		}
	}
}

func (c chain) GraceEnd(ctx context.Context, call string) {
	for _, p := range c {
		if s, ok := p.(Stopper); ok {
			s.GraceEnd(ctx, call)
		}
	}
}

func (c chain) Call(ctx context.Context, call string) (context.Context, func(error)) {
	ends := make([]func(error), len(c))
	for i, p := range c {
		ctx, ends[i] = p.Call(ctx, call)
	}
	return ctx, func(err error) {
		for i := len(ends) - 1; i >= 0; i-- {
			ends[i](err)
		}
	}
}

func (c chain) Func(ctx context.Context, call, arg string) (context.Context, func(Outcome)) {
	ends := make([]func(Outcome), len(c))
	for i, p := range c {
		ctx, ends[i] = p.Func(ctx, call, arg)
	}
	return ctx, func(o Outcome) {
		for i := len(ends) - 1; i >= 0; i-- {
			ends[i](o)
		}
	}
}

func (c chain) Named(ctx context.Context, name string) (context.Context, func()) {
	ends := make([]func(), len(c))
	for i, p := range c {
		ctx, ends[i] = p.Named(ctx, name)
	}
	return ctx, func() {
		for i := len(ends) - 1; i >= 0; i-- {
			ends[i]()
		}
	}
}
