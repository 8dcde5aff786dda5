package task

import "time"

// An Option changes how a call behaves. Options are passed last, as a
// list:
//
//	task.Run2(ctx, f1, f2, task.KeepGoing, task.Settled)
//
// With no options, a call fails fast and returns zero values with a non-nil
// error. Which call takes which option:
//
//	call                    KeepGoing Settled FirstError BlockAtLimit StartAll Grace
//	RunN                    ✓         ✓       ✓                                ✓
//	AwaitN, All                       ✓
//	Map                     ✓         ✓       ✓                                ✓
//	ForEach, MapWithin      ✓                 ✓                                ✓
//	MapSeq, MapSeqUnordered ✓                                                  ✓
//	NewGroup                ✓                 ✓          ✓            ✓        ✓
//	Scope                   ✓         ✓       ✓          ✓            ✓        ✓
//
// A call given an option it does not take panics, naming the call and the
// option, and so does [StartAll] with [KeepGoing]. Of several [Grace]
// options, the last counts. The zero Option is no option: it changes
// nothing, for code where a condition chooses one. An Option prints as it
// is written at the call site: KeepGoing, Grace(2s).
type Option struct {
	s optSet
}

var (
	// KeepGoing: a failure does not cancel the other functions, and every
	// error is reported. Each function gets the caller's ctx itself (with
	// [Grace], a context that outlives it for the grace period), and so
	// do the children of a [Scope]; the children of [NewGroup] get the
	// group's context, which no failure cancels and Wait does.
	KeepGoing = Option{keepGoing}

	// Settled: the call returns every value that was produced along with
	// the error, instead of zero values. A position whose function
	// panicked or called runtime.Goexit, or whose task had not completed
	// when ctx was done, holds the zero value. Panics are still raised.
	Settled = Option{settled}

	// FirstError: the call returns, instead of a *CallError, the first
	// error a function returned as a failure of its own (not a
	// cancellation), as the function returned it: the error errgroup's
	// Wait returns (with Named, without the name). First means first in
	// time, as errgroup's; CallError.Failures and the panic raised are in
	// argument order. If no function failed but the caller's ctx stopped
	// the call, the error is the first error, in argument order, that a
	// function returned after ctx was done, or else ctx's error; if the
	// call stopped taking new work with ctx not done ([Group.Stop], or a
	// call it is nested in stopped), [ErrStopped]. Everything else is
	// unchanged: what runs, what is canceled, the values returned with
	// [Settled], and panics and Goexit, which are raised.
	FirstError = Option{firstError}

	// BlockAtLimit: at the limit of a group ([Group.SetLimit]), Go and
	// Spawn block the caller until a slot frees, as errgroup's Go does,
	// instead of queueing the child: a loop over an unbounded source keeps
	// bounded memory. A child that calls Go or Spawn at the limit then
	// blocks while it holds its slot, and a tree of such children can
	// deadlock, as with errgroup. A caller blocked when the group stops
	// taking children (a failure that cancels it, [Group.Stop], the end of
	// the caller's ctx; with [StartAll], only a stop) returns, its child
	// never started. TryGo and TrySpawn are unchanged.
	BlockAtLimit = Option{blockAtLimit}

	// StartAll: a failure cancels the group's context, as without
	// [KeepGoing], but every child given to Go or Spawn, and taken by
	// TryGo or TrySpawn, still starts, with that canceled context, as
	// errgroup's WithContext calls every function passed to Go; so do the
	// children given after the caller's ctx has ended. A stop still
	// refuses new children ([Group.Stop], the caller's ctx with [Grace]).
	StartAll = Option{startAll}
)

// An optSet is the options of a call folded into one word: the flags in
// the low bits, the grace period of Grace above graceShift.
type optSet uint64

const (
	keepGoing optSet = 1 << iota
	settled
	firstError
	blockAtLimit
	startAll
	graceFlag // in a family's options: it takes Grace
)

// graceShift is where the grace period of Grace starts in an optSet.
const graceShift = 8

// maxGrace is the longest grace period an Option holds, about two years.
const maxGrace = time.Duration(1<<(64-graceShift) - 1)

// Grace gives the functions of a call a grace period when the caller's ctx
// is done: the call stops taking new work at once, and the functions
// running keep a live context for up to d before it is canceled (see
// docs/shutdown.md). Of several, the last counts. Grace panics if d is not
// positive or is longer than about two years.
func Grace(d time.Duration) Option {
	if d <= 0 || d > maxGrace {
		panic("task: Grace: d is " + d.String() + "; want more than 0 and at most " + maxGrace.String())
	}
	return Option{optSet(d)<<graceShift | graceFlag}
}

// String returns the option as it is written at the call site:
// "KeepGoing", "Grace(2s)"; the zero Option is "Option{}".
func (o Option) String() string {
	if d := o.s.grace(); d > 0 {
		return "Grace(" + d.String() + ")"
	}
	for _, n := range optionNames {
		if o.s&n.flag != 0 {
			return n.name
		}
	}
	return "Option{}"
}

// grace is the grace period of o, or 0.
func (o optSet) grace() time.Duration { return time.Duration(o >> graceShift) }

// A family is a set of calls that take the same options.
type family uint8

const (
	famRunN family = iota
	famAwait
	famMap
	famForEach
	famStream
	famGroup
	famScope
)

// optionTable says which options each family of calls takes: the one home
// of that rule (docs/design.md shows it; TestOptionTable holds the two
// together).
var optionTable = [...]struct {
	calls string // as docs/design.md names them
	takes optSet
}{
	famRunN:    {"RunN", keepGoing | settled | firstError | graceFlag},
	famAwait:   {"AwaitN, All", settled},
	famMap:     {"Map", keepGoing | settled | firstError | graceFlag},
	famForEach: {"ForEach, MapWithin", keepGoing | firstError | graceFlag},
	famStream:  {"MapSeq, MapSeqUnordered", keepGoing | graceFlag},
	famGroup:   {"NewGroup", keepGoing | firstError | graceFlag | blockAtLimit | startAll},
	famScope:   {"Scope", keepGoing | settled | firstError | graceFlag | blockAtLimit | startAll},
}

// optionNames are the options' names, by flag, for the panics of options.
var optionNames = [...]struct {
	flag optSet
	name string
}{{keepGoing, "KeepGoing"}, {settled, "Settled"}, {firstError, "FirstError"}, {blockAtLimit, "BlockAtLimit"}, {startAll, "StartAll"}, {graceFlag, "Grace"}}

// options folds the options of a call named call, of family fam, into one
// set: the flags of all, the grace period of the last that has one. It
// panics for an option the family does not take, and StartAll with
// KeepGoing.
func options(call string, fam family, opts []Option) optSet {
	if len(opts) == 0 { // inlined: most calls take no option
		return 0
	}
	return optionsOf(call, fam, opts)
}

// optionsOf is options for at least one option.
func optionsOf(call string, fam family, opts []Option) optSet {
	var o optSet
	for _, x := range opts {
		if x.s&^optionTable[fam].takes&(1<<graceShift-1) != 0 {
			optionPanic(call, x.s&^optionTable[fam].takes)
		}
		if x.s.grace() > 0 {
			o &= 1<<graceShift - 1
		}
		o |= x.s
	}
	if o&(keepGoing|startAll) == keepGoing|startAll {
		panic("task: " + call + ": StartAll does not apply with KeepGoing, which starts every child")
	}
	return o
}

// optionPanic panics for the options in bad, which call does not take.
func optionPanic(call string, bad optSet) {
	for _, n := range optionNames {
		if bad&n.flag != 0 {
			panic("task: " + call + ": " + n.name + " does not apply to " + call)
		}
	}
}
