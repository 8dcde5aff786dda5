package probe

import (
	"context"
	"strconv"
)

// A Tracker is a Probe that follows every function of a call at a cost
// small next to the function's own (taskdump's registry): the core calls
// Start in place of Func, with the argument's name and position apart, so
// that nothing is formatted per function, and a Slot that a goroutine
// running functions one after another (a worker of Map) writes a Worker
// for them all, calling the Tracker only for a failure.
type Tracker interface {
	Probe
	// Start is Func for function i of a call, its arguments named arg
	// (Func's arg is ArgName(arg, i)). ctx is the function's context,
	// callCtx the one Call returned for the call, from which ctx derives.
	Start(ctx, callCtx context.Context, call, arg string, i int) (context.Context, Ender)
	// Worker returns a Worker for a goroutine that will run functions of
	// a call one after another, each with w.Ctx, which derives from ctx,
	// or nil. callCtx is as for Start.
	Worker(ctx, callCtx context.Context, arg string) *Worker
	// Free is called when the goroutine that w was for runs no more
	// functions.
	Free(w *Worker)
	// Queue gives the Tracker the queue of a call whose children wait for
	// a slot (a limited Group), for it to list when asked, when the first
	// child starts waiting; nil when none waits any more.
	Queue(ctx context.Context, q Queue)
}

// An Ender is told how a function that a Tracker started ended: with nil
// if it returned nil, so that a success costs no Outcome.
type Ender interface {
	End(o *Outcome)
}

// A Queue is the children of a call that wait for a slot.
type Queue interface {
	// Waiting calls yield for at most max of the children waiting, in
	// the order they will start, with the name of their argument, their
	// position and their name (task.NamedErr's, or ""), and returns how
	// many wait in all. yield must not call into the call.
	Waiting(max int, yield func(arg string, i int, name string)) int
}

// fNames and tNames are the arguments of RunN and AwaitN, so that naming
// them costs nothing.
var fNames, tNames = func() (f, t [16]string) {
	for i := range f {
		f[i], t[i] = "f"+strconv.Itoa(i+1), "t"+strconv.Itoa(i+1)
	}
	return
}()

// ArgName names position i of a call whose arguments are named by arg:
// "f2" (arg "f", from 1), "t1", "inputs[3]" (from 0), or "body" for i < 0,
// the body of a Scope. Errors, panics and the probes use it alike.
func ArgName(arg string, i int) string {
	if i < 0 {
		return "body"
	}
	if arg == "f" || arg == "t" {
		if i < len(fNames) {
			if arg == "f" {
				return fNames[i]
			}
			return tNames[i]
		}
		return arg + strconv.Itoa(i+1)
	}
	return arg + "[" + strconv.Itoa(i) + "]"
}

// A trackingChain is a chain with a Tracker among its probes: the Tracker
// is told of functions by Start, the others by Func.
type trackingChain struct {
	chain
	t Tracker
}

func (c trackingChain) Start(ctx, callCtx context.Context, call, arg string, i int) (context.Context, Ender) {
	var e chainEnder
	for _, p := range c.chain {
		if p == c.t {
			ctx, e.tracker = c.t.Start(ctx, callCtx, call, arg, i)
			e.at = len(e.ends)
		} else {
			var end func(Outcome)
			ctx, end = p.Func(ctx, call, ArgName(arg, i))
			e.ends = append(e.ends, end)
		}
	}
	return ctx, &e
}

// A chainEnder ends a function for the probes of a trackingChain, in the
// reverse of the order they started it.
type chainEnder struct {
	ends    []func(Outcome) // the other probes'
	tracker Ender
	at      int // the tracker came after ends[:at]
}

func (e *chainEnder) End(o *Outcome) {
	var out Outcome
	if o != nil {
		out = *o
	}
	for j := len(e.ends) - 1; j >= e.at; j-- {
		e.ends[j](out)
	}
	e.tracker.End(o)
	for j := e.at - 1; j >= 0; j-- {
		e.ends[j](out)
	}
}

// Worker returns nil: the probes before the Tracker give each function a
// context of its own.
func (c trackingChain) Worker(_, _ context.Context, _ string) *Worker { return nil }
func (c trackingChain) Free(*Worker)                                  {}
func (c trackingChain) Queue(ctx context.Context, q Queue)            { c.t.Queue(ctx, q) }
