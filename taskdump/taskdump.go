// Package taskdump keeps a registry of the calls of package task that are
// running, with their functions, and writes it as a tree: a thread dump of
// structured fan-outs, for a debug endpoint or a signal handler.
//
//	task.Run3                                  running 2.001s
//	  f1                                       running 2.001s
//	    task.Scope                             running 1.5s
//	      children[0]                          running 1.5s
//	  recs (f2)                                running 2.001s
//
// A call with a grace period (task.Grace) that has stopped taking new work
// says so after its running time: how many of its functions still run,
// how much work it leaves not started (inputs of Map, children of a Scope
// waiting for a slot; not said by MapSeq, which cannot tell), and the
// grace period left, once it has started (a Scope stopped by Group.Stop
// has its grace period start when its caller's ctx is done):
//
//	task.Map                                   running 1.8s; stopping, 2 running, 12 not started, 4.2s of grace left
//	  inputs[0]                                running 1.8s
//	  inputs[1]                                running 1.8s
//
// Once the grace period has ended, its functions still running were
// canceled, and those that have not returned yet are listed:
//
//	task.Map                                   running 7s; cut, 1 running
//	  inputs[0]                                running 7s
//
// [Handler] serves the same registry as a page that follows the calls
// live in a browser, and as JSON, with each call's limit, its functions
// counted by state, its failures so far, and its pprof labels.
//
// A child of a limited group waiting for a slot is listed after the
// functions running, as waiting, under its position or the name
// task.NamedErr gave it. A function that has run more than 3 times the
// median time of its call's finished functions (once 5 have finished),
// and for at least 100ms, is marked a straggler (the work a hedge would
// have helped):
//
//	task.Group                                 running 4s
//	  fetch shard-7 (children[7])              running 4s; straggler
//	  item-00064 (children[64])                waiting
//
// Call [Enable] once, early in main. Programs that do not enable it pay
// nothing for it. Once enabled, the registry follows each function in a
// slot of its call, which the function's start and end write with two
// atomic stores: a goroutine that runs a call's functions one after
// another (a worker of Map, ForEach and MapWithin, a goroutine of a
// limited group) keeps one slot for them all; any other function has a
// slot of its own, one allocation. A slot leaves its call when its
// functions end, adding its counts to the call's: the registry keeps
// nothing of a function that has ended. Times are counted in ticks of
// 10ms of a clock that a timer advances while functions start and end,
// and that stops a tick after they stop: a function's start and end may
// be counted up to a tick early.
package taskdump

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/tasktuple/task/internal/probe"
)

var (
	once    sync.Once
	enabled atomic.Bool // Enable has run
)

// Enable starts recording the calls that start from now on.
func Enable() {
	once.Do(func() {
		probe.Install(registry{})
		enabled.Store(true)
	})
}

// Write writes the calls running now, as a tree: each call with its
// functions, each function with the calls it runs, and how long each has
// been running. It writes every call and function; [Handler] lists fewer
// at a time.
func Write(w io.Writer) error {
	var b strings.Builder
	var write func(es []entry, depth int)
	write = func(es []entry, depth int) {
		for _, e := range es {
			label := strings.Repeat("  ", depth) + e.Name
			if e.State == "waiting" {
				fmt.Fprintf(&b, "%-42s waiting\n", label)
				continue
			}
			fmt.Fprintf(&b, "%-42s running %v", label, e.dur)
			if e.Straggler {
				b.WriteString("; straggler")
			}
			if e.Stop != nil {
				b.WriteString("; ")
				e.writeStop(&b)
			}
			b.WriteByte('\n')
			write(e.Children, depth+1)
		}
	}
	write(take(false, "").Calls, 0)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeStop writes the state of e, a call that stopped: "stopping, 3
// running, 12 not started, 4.2s of grace left", or once the grace period
// has ended "cut, 1 running". The functions running are those of e still
// registered, waiting children of a Scope left out.
func (e *entry) writeStop(b *strings.Builder) {
	fmt.Fprintf(b, "%s, %d running", e.State, e.Counts.Running)
	if e.State == "cut" {
		return
	}
	if n := e.Stop.NotStarted; n != nil {
		fmt.Fprintf(b, ", %d not started", *n)
	}
	if d := e.Stop.graceLeft; d >= 0 {
		fmt.Fprintf(b, ", %v of grace left", d)
	}
}
