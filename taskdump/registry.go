package taskdump

import (
	"context"
	"errors"
	"fmt"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/tasktuple/task/internal/probe"
)

// The registry: the calls running now, each with a slot per function
// running (or per worker of Map, or goroutine of a limited group, which
// runs its functions one after another in one slot), and under each slot
// the calls its function makes.
//
// A function's start and end write only its slot, with atomics. A slot
// whose function ended is free for the call's next function; a call's
// counts are those of its slots, and of the slots that left it, added up
// when a snapshot is taken. Locks: mu guards the tree (the lists of
// calls); a call's smu its slots and the rest of its state. The core calls
// Queue and the Stopper's methods with a Group's lock held, and they take
// only smu; a snapshot takes mu, then each call's smu in turn, and asks a
// Group for its queue holding mu only.

var (
	live   atomic.Int64 // the calls registered
	mu     sync.Mutex
	root   callList     // the calls made outside any function; guarded by mu
	lastID atomic.Int64 // the id of the last call or slot made
)

type key struct{}

// A callList is a list of calls, in the order they started.
type callList struct {
	first, last *callNode
}

func (l *callList) add(c *callNode) {
	c.prev = l.last
	if l.last != nil {
		l.last.next = c
	} else {
		l.first = c
	}
	l.last = c
}

func (l *callList) remove(c *callNode) {
	if c.prev != nil {
		c.prev.next = c.next
	} else {
		l.first = c.next
	}
	if c.next != nil {
		c.next.prev = c.prev
	} else {
		l.last = c.prev
	}
	c.prev, c.next = nil, nil
}

// A callNode is a call running now. It is the context the call's
// functions derive theirs from: the caller's, with the node as its value
// for key.
type callNode struct {
	context.Context
	id     int64
	call   string // "Map"
	labels []label
	start  uint32
	parent *slot     // the slot of the function that made the call, or nil
	pgen   uint64    // parent's Ended when the call started: which of its functions made it
	list   *callList // the list that holds the call; guarded by mu
	calls  callList  // the calls made with its context outside its functions; guarded by mu
	prev   *callNode // guarded by mu
	next   *callNode
	endFn  func(error)

	smu      sync.Mutex
	slots    *slot           // the slots, a list; guarded by smu
	nslots   int             // their number; guarded by smu
	free     []*slot         // the slots of functions that ended, for the next; guarded by smu
	busy     int             // the slots taken; guarded by smu
	left     uint64          // the functions of the slots that left; guarded by smu
	durs     [ringLen]uint32 // the durations of the last functions of the slots that left, a ring
	ndurs    int             // the durations put in durs; guarded by smu
	limit    int             // 0: no limit, or not told
	inputs   int             // the inputs of Map and ForEach; -1: the call cannot tell
	failed   int
	canceled int
	failures []failure // the first maxFailures failures
	stop     *stopState
	queue    probe.Queue
}

func (c *callNode) String() string { return contextName(c.Context) + ".WithValue(taskdump call)" }

// contextName is what a context's String says, as the context package's
// own contexts name their parents.
func contextName(ctx context.Context) string {
	if s, ok := ctx.(fmt.Stringer); ok {
		return s.String()
	}
	return fmt.Sprintf("%T", ctx)
}

func (c *callNode) Value(k any) any {
	if k == (key{}) {
		return c
	}
	return c.Context.Value(k)
}

// A label is a pprof label of a call's context.
type label struct{ k, v string }

// A stopState is the stop of a call with a grace period.
type stopState struct {
	notStarted int       // the work not started at the stop; -1: the call could not tell
	graceEnd   time.Time // when the grace period ends; zero until it starts
	cut        bool      // the grace period ended: the functions still running were canceled
}

// A failure is a function that failed, as the snapshot lists it.
type failure struct {
	Name  string `json:"name"`
	Error string `json:"error"`
}

const (
	// ringLen is how many durations of its slots that left a call keeps.
	ringLen = 32
	// maxFailures is how many failures a call keeps the text of; it
	// counts them all.
	maxFailures = 10
	// maxErrorLen is the most bytes of an error's text kept, cut at the
	// start of a character and followed by "…".
	maxErrorLen = 500
)

// A slot is a function running (or the worker that runs functions one
// after another): a probe.Worker, which the core writes as functions start
// and end. It is the functions' context: the context it was made with,
// with the slot as its value for key.
type slot struct {
	probe.Worker
	ctx    context.Context // what the slot was made with
	call   *callNode
	id     int64
	arg    string   // "inputs"; the whole name if the position is probe.NoIndex
	worker bool     // kept by a worker across its functions (probe.Tracker's Worker)
	calls  callList // the calls its functions make; guarded by mu
	prev   *slot    // in the call's list; guarded by the call's smu
	next   *slot

	// The name a snapshot last made, for the function whose cur and
	// named were these; guarded by mu.
	nameCur   uint64
	nameNamed *string
	nameStr   string
}

func (s *slot) String() string              { return contextName(s.ctx) + ".WithValue(taskdump function)" }
func (s *slot) Deadline() (time.Time, bool) { return s.ctx.Deadline() }
func (s *slot) Done() <-chan struct{}       { return s.ctx.Done() }
func (s *slot) Err() error                  { return s.ctx.Err() }
func (s *slot) Value(k any) any {
	if k == (key{}) {
		return s
	}
	return s.ctx.Value(k)
}

// name is the name of the function whose cur is cur: "inputs[3]", or
// "recs (f2)" if task.Named named it.
func (s *slot) name(cur uint64) string {
	i := s.Pos(cur)
	name := s.arg
	if i != probe.NoIndex {
		name = probe.ArgName(s.arg, i)
	}
	if n := s.Name(); n != nil {
		return *n + " (" + name + ")"
	}
	return name
}

// cachedName is name for a snapshot, which holds mu: the same function
// is named once, however many snapshots list it.
func (s *slot) cachedName(cur uint64) string {
	if n := s.Name(); s.nameStr == "" || s.nameCur != cur || s.nameNamed != n {
		s.nameCur, s.nameNamed, s.nameStr = cur, n, s.name(cur)
	}
	return s.nameStr
}

// End records how the function of s ended (o nil: it returned nil), and
// frees s for its call's next function unless a worker keeps it.
func (s *slot) End(o *probe.Outcome) {
	s.Worker.End(o)
	if !s.worker {
		s.Clear()
		s.call.put(s)
	}
}

// Failed records a function of s that did not succeed.
func (s *slot) Failed(cur uint64, o *probe.Outcome) { s.call.ended(s, cur, *o) }

// ended counts a function of c that did not succeed.
func (c *callNode) ended(s *slot, cur uint64, o probe.Outcome) {
	var msg string
	failed := true
	switch {
	case o.Panicked:
		msg = "panic: " + fmt.Sprint(o.Value)
	case o.Goexit:
		msg = "runtime.Goexit called"
	case s.ctx.Err() != nil && (errors.Is(o.Err, context.Canceled) || errors.Is(o.Err, context.DeadlineExceeded)):
		failed = false
	default:
		msg = o.Err.Error()
	}
	if len(msg) > maxErrorLen {
		i := maxErrorLen
		for !utf8.RuneStart(msg[i]) {
			i--
		}
		msg = msg[:i] + "…"
	}
	c.smu.Lock()
	defer c.smu.Unlock()
	if !failed {
		c.canceled++
		return
	}
	c.failed++
	if len(c.failures) < maxFailures {
		c.failures = append(c.failures, failure{Name: s.name(cur), Error: msg})
	}
}

// take returns a slot of c for a function (or a worker) whose context is
// ctx: a free one made for the same context, or a new one.
func (c *callNode) take(ctx context.Context, arg string, worker bool) *slot {
	c.smu.Lock()
	c.busy++
	if n := len(c.free); n > 0 {
		if s := c.free[n-1]; s.ctx == ctx && s.arg == arg {
			c.free[n-1] = nil
			c.free = c.free[:n-1]
			c.smu.Unlock()
			s.worker = worker
			return s
		}
	}
	c.smu.Unlock()
	s := &slot{ctx: ctx, call: c, arg: arg, worker: worker, id: lastID.Add(1)}
	s.Ctx, s.Fail = s, s
	c.smu.Lock()
	s.next = c.slots
	if c.slots != nil {
		c.slots.prev = s
	}
	c.slots = s
	c.nslots++
	c.smu.Unlock()
	return s
}

// put frees s for the next function of c. A group of NewGroup, the one
// call that may never end (nobody waits for it), keeps no free slot while
// none of its functions runs: they leave it, adding their counts and
// durations to its, so that the registry holds nothing of its functions,
// not even their context, the group's, which must be collected for the
// panic of a group nobody waits for to crash the program.
func (c *callNode) put(s *slot) {
	c.smu.Lock()
	defer c.smu.Unlock()
	c.free = append(c.free, s)
	if c.busy--; c.busy > 0 || c.call != "Group" {
		return
	}
	for i, s := range c.free {
		c.leave(s)
		c.free[i] = nil
	}
	c.free = c.free[:0]
}

// leave takes s out of c, adding its counts and durations to c's; the
// caller holds smu.
func (c *callNode) leave(s *slot) {
	if s.prev != nil {
		s.prev.next = s.next
	} else {
		c.slots = s.next
	}
	if s.next != nil {
		s.next.prev = s.prev
	}
	s.prev, s.next = nil, nil
	c.nslots--
	c.left += s.Ended()
	var ds [probe.RingLen]uint32
	for _, d := range s.Durations(ds[:0]) {
		c.durs[c.ndurs%ringLen] = d
		c.ndurs++
	}
}

// registry is the probe that Enable installs.
type registry struct{}

// noEnd is the end of a function that the registry does not follow.
type noEnd struct{}

func (noEnd) End(*probe.Outcome) {}

// Call registers a call, under the function whose context ctx is, if any.
func (registry) Call(ctx context.Context, call string) (context.Context, func(error)) {
	live.Add(1)
	c := &callNode{Context: ctx, call: call, start: probe.Ticks(), inputs: -1, id: lastID.Add(1)}
	pprof.ForLabels(ctx, func(k, v string) bool {
		if !strings.HasPrefix(k, "task.") { // taskpprof's own
			c.labels = append(c.labels, label{k, v})
		}
		return true
	})
	slices.SortFunc(c.labels, func(a, b label) int { return strings.Compare(a.k, b.k) })
	c.endFn = c.end
	mu.Lock()
	switch p := ctx.Value(key{}).(type) {
	case *slot:
		c.parent, c.pgen, c.list = p, p.Ended(), &p.calls
	case *callNode:
		c.list = &p.calls
	default:
		c.list = &root
	}
	c.list.add(c)
	mu.Unlock()
	return c, c.endFn
}

// end removes the call.
func (c *callNode) end(error) {
	mu.Lock()
	c.list.remove(c)
	mu.Unlock()
	if live.Add(-1) == 0 {
		// Nothing left to time: a program, or a synctest bubble, whose
		// calls have ended keeps no timer.
		probe.StopClock()
	}
}

// Func registers a function of a call by its whole name: the function of
// a task of Go ("fn").
func (r registry) Func(ctx context.Context, call, arg string) (context.Context, func(probe.Outcome)) {
	ctx, e := r.Start(ctx, ctx, call, arg, probe.NoIndex)
	return ctx, func(o probe.Outcome) {
		if o.Err == nil && !o.Panicked && !o.Goexit {
			e.End(nil)
		} else {
			e.End(&o)
		}
	}
}

// Start registers function i of a call, in a slot of its own.
func (registry) Start(ctx, callCtx context.Context, _, arg string, i int) (context.Context, probe.Ender) {
	c := callOf(callCtx)
	if c == nil {
		return ctx, noEnd{} // a call that started before Enable
	}
	s := c.take(ctx, arg, false)
	s.Begin(i)
	return s, s
}

// Worker returns a slot for a worker of the call whose context, as Call
// returned it, is callCtx.
func (registry) Worker(ctx, callCtx context.Context, arg string) *probe.Worker {
	if c := callOf(callCtx); c != nil {
		return &c.take(ctx, arg, true).Worker
	}
	return nil
}

// Free takes the slot of a worker out of its call.
func (registry) Free(w *probe.Worker) {
	s := w.Ctx.(*slot)
	s.Clear()
	s.call.put(s)
}

// Queue keeps the queue of a call, to list its waiting children, or drops
// it (q nil).
func (registry) Queue(ctx context.Context, q probe.Queue) {
	if c := callOf(ctx); c != nil {
		c.smu.Lock()
		c.queue = q
		c.smu.Unlock()
	}
}

// Named names the function whose context is ctx.
func (registry) Named(ctx context.Context, name string) (context.Context, func()) {
	if s, ok := ctx.Value(key{}).(*slot); ok {
		s.SetName(&name)
	}
	return ctx, func() {}
}

// callOf is the call whose context, as Call returned it, is ctx, or that
// of the call under another probe's context; nil if ctx is no call's.
// It never asks a context of the core for a value: a call's context
// is made when first asked.
func callOf(ctx context.Context) *callNode {
	if c, ok := ctx.(*callNode); ok {
		return c
	}
	c, _ := ctx.Value(key{}).(*callNode)
	return c
}

// Limit records the limit of a call, and its number of inputs.
func (registry) Limit(ctx context.Context, call string, limit, inputs int) {
	if c := callOf(ctx); c != nil {
		c.smu.Lock()
		c.limit, c.inputs = limit, inputs
		c.smu.Unlock()
	}
}

// Stop records that a call with a grace period stopped taking new work.
func (registry) Stop(ctx context.Context, call string, notStarted int, grace time.Duration) {
	c := callOf(ctx)
	if c == nil {
		return
	}
	s := &stopState{notStarted: notStarted}
	if grace > 0 {
		s.graceEnd = time.Now().Add(grace)
	}
	c.smu.Lock()
	c.stop = s
	c.smu.Unlock()
}

// GraceStart records the start of the grace period of a call that
// Group.Stop stopped.
func (registry) GraceStart(ctx context.Context, call string, grace time.Duration) {
	if c := callOf(ctx); c != nil {
		end := time.Now().Add(grace)
		c.smu.Lock()
		if c.stop != nil {
			c.stop.graceEnd = end
		}
		c.smu.Unlock()
	}
}

// GraceEnd records the end of the grace period of a call.
func (registry) GraceEnd(ctx context.Context, call string) {
	if c := callOf(ctx); c != nil {
		c.smu.Lock()
		if c.stop != nil {
			c.stop.cut = true
		}
		c.smu.Unlock()
	}
}
