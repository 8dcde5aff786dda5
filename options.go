package task

import (
	"strconv"
	"time"
)

// An Option changes how a call behaves: the counterpart of .NET's
// ConfigureAwait. Options are passed last, as in
//
//	task.Run2(ctx, f1, f2, task.KeepGoing, task.Settled)
//
// They are integers in a variadic slice that does not escape, so passing
// them costs no allocation, and they combine with |. With no options, a
// call fails fast and returns zero values with a non-nil error.
type Option uint64

const (
	// KeepGoing: a failure does not cancel the other functions; each
	// function gets the caller's ctx itself (with [Grace], a context that
	// outlives it for the grace period), and every error is reported. It
	// has no effect on AwaitN, which never cancels anything.
	KeepGoing Option = 1 << iota

	// Settled: AwaitN and RunN return every value that was produced along
	// with the error, instead of zero values. A position whose function
	// panicked or called runtime.Goexit, or whose task had not completed
	// when ctx was done, holds the zero value. Panics are still raised.
	Settled

	// FirstError: the call returns, instead of a *CallError, the first
	// error a function returned as a failure of its own (not a
	// cancellation), as the function returned it: the error errgroup's
	// Wait returns (with Named, without the name). If no function failed
	// but the caller's ctx stopped the call, the error is the first
	// error, in argument order, that a function returned after ctx was
	// done, or else ctx's error; if the call stopped taking new work with
	// ctx not done ([Group.Stop], or a call it is nested in stopped),
	// [ErrStopped]. Everything else is unchanged: what runs, what is
	// canceled, the values returned with [Settled], and panics and
	// Goexit, which are raised. It is accepted by RunN, Map, ForEach,
	// ForEachSeq and Scope, for code moved from errgroup whose callers
	// compare the error itself; it has no effect on the other calls.
	FirstError

	// BlockAtLimit: at the limit of a group ([Group.SetLimit]), Go and
	// Spawn block the caller until a slot frees, as errgroup's Go does,
	// instead of queueing the child: a loop over an unbounded source (a
	// channel, a stream) keeps bounded memory. A child that calls Go or
	// Spawn at the limit then blocks while it holds its slot, and a tree of
	// such children can deadlock, as with errgroup. A caller blocked when
	// the group stops taking children (a failure that cancels it, a stop)
	// returns, its child never started. TryGo and TrySpawn are unchanged.
	// It is accepted by NewGroup and Scope, and has no effect on the
	// other calls; without it, a child at the limit waits in a queue and
	// the spawner never blocks.
	BlockAtLimit

	// StartAll: a failure cancels the group's context, as without
	// [KeepGoing], but every child given to Go or Spawn, and taken by
	// TryGo or TrySpawn (which refuse only at the limit), still starts,
	// with that canceled context: after the failure, the
	// children waiting for a slot start as slots free, and a spawner
	// blocked at the limit ([BlockAtLimit]) waits for its slot and starts
	// its child. That is what errgroup's WithContext does, which calls
	// every function passed to Go; nothing is counted in
	// CallError.Skipped. A stop still refuses new children ([Group.Stop],
	// the caller's ctx with [Grace]). It is accepted by NewGroup and
	// Scope, and has no effect on the other calls, nor with KeepGoing
	// (which starts every child too and cancels nothing).
	StartAll
)

// graceShift is where the grace period of Grace starts in an Option: the
// bits below it are flags, the bits above a duration in nanoseconds.
const graceShift = 8

// maxGrace is the longest grace period an Option holds, about two years.
const maxGrace = time.Duration(1<<(64-graceShift) - 1)

// Grace gives the functions of a call a grace period when the caller's ctx
// is done: the call stops taking new work at once, and the functions
// running keep a live context for up to d before it is canceled. It is
// accepted by RunN, Map, ForEach, MapSeq, MapSeqUnordered, ForEachSeq and
// Scope; see "Shutting down" in the package documentation. Pass it once: of
// several, the last counts. Grace panics if d is not positive or longer
// than about two years.
func Grace(d time.Duration) Option {
	if d <= 0 || d > maxGrace {
		panic("task: Grace: d is " + d.String() + "; want more than 0")
	}
	return Option(d) << graceShift
}

// grace is the grace period of o, or 0.
func (o Option) grace() time.Duration { return time.Duration(o >> graceShift) }

// String returns the option's name, or the names of a set of options
// joined with "|", as in "KeepGoing|Settled|Grace(5s)". Bits that name no
// option print as a number: "Option(0x80)".
func (o Option) String() string {
	if o == 0 {
		return "Option(0)"
	}
	var s string
	add := func(name string) {
		if s != "" {
			s += "|"
		}
		s += name
	}
	for _, x := range [...]struct {
		o    Option
		name string
	}{{KeepGoing, "KeepGoing"}, {Settled, "Settled"}, {FirstError, "FirstError"}, {BlockAtLimit, "BlockAtLimit"}, {StartAll, "StartAll"}} {
		if o&x.o != 0 {
			add(x.name)
			o &^= x.o
		}
	}
	if rest := o & (1<<graceShift - 1); rest != 0 {
		add("Option(0x" + strconv.FormatUint(uint64(rest), 16) + ")")
	}
	if d := o.grace(); d > 0 {
		add("Grace(" + d.String() + ")")
	}
	return s
}

// options folds a list of options into one set: the flags of all, the
// grace period of the last that has one.
func options(opts []Option) Option {
	var o Option
	for _, x := range opts {
		if x.grace() > 0 {
			o &= 1<<graceShift - 1
		}
		o |= x
	}
	return o
}
