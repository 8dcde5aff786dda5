package taskdump

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/tasktuple/task/internal/probe"
)

// A snapshot is the registry at one instant: what Write writes and what
// Handler serves, as JSON or as the page. It is the one walk of the
// registry.
type snapshot struct {
	Enabled bool      `json:"enabled"`          // Enable has been called
	Time    time.Time `json:"time"`             // when the snapshot was taken
	Filter  string    `json:"filter,omitempty"` // the filter asked for
	Calls   []entry   `json:"calls"`            // the calls at the top, those listed; never nil
	More    int       `json:"more"`             // the calls at the top not listed
}

// An entry is a call or a function of a snapshot.
type entry struct {
	ID        int64   `json:"id"`
	Name      string  `json:"name"`
	Call      bool    `json:"call"`
	State     string  `json:"state"`
	Seconds   float64 `json:"seconds"`
	Straggler bool    `json:"straggler,omitempty"` // functions only

	// Calls only.
	Labels        map[string]string `json:"labels,omitempty"`
	Limit         int               `json:"limit,omitempty"`
	Counts        *counts           `json:"counts,omitempty"`
	MedianSeconds *float64          `json:"medianSeconds,omitempty"`
	Stop          *stopEntry        `json:"stop,omitempty"`
	Failures      []failure         `json:"failures,omitempty"`

	Children []entry `json:"children,omitempty"`
	More     int     `json:"more,omitempty"` // the children not listed

	dur time.Duration
}

// counts are the functions of a call by state.
type counts struct {
	Running    int  `json:"running"`
	Waiting    int  `json:"waiting"`
	NotStarted *int `json:"notStarted,omitempty"`
	Succeeded  int  `json:"succeeded"`
	Failed     int  `json:"failed"`
	Canceled   int  `json:"canceled"`
}

// A stopEntry is the stop of a call, as a snapshot has it.
type stopEntry struct {
	NotStarted *int     `json:"notStarted,omitempty"`
	GraceLeft  *float64 `json:"graceLeftSeconds,omitempty"`

	graceLeft time.Duration // -1: the grace period has not started
}

// Limits of a snapshot taken for Handler.
const (
	maxChildren = 100  // the children listed per call or function, and the calls at the top
	maxEntries  = 2000 // the calls and functions listed in all
)

// Stragglers: a function running more than stragglerRatio times the
// median of its call's finished functions, once at least stragglerMin of
// them have finished, and for at least stragglerFloor.
const (
	stragglerRatio = 3
	stragglerMin   = 5
	stragglerFloor = 100 * time.Millisecond
)

// take takes a snapshot of the registry. With limited, it lists at most
// maxChildren children of each call and function, and maxEntries entries
// in all; without, everything. filter, if not empty, keeps only the
// entries whose name or labels contain it, ignoring case, with what they
// hold and what holds them.
func take(limited bool, filter string) snapshot {
	w := walker{now: probe.TicksNow(), filter: strings.ToLower(filter), budget: -1, per: math.MaxInt}
	if limited {
		w.budget, w.per = maxEntries, maxChildren
	}
	mu.Lock()
	defer mu.Unlock()
	s := snapshot{Enabled: enabled.Load(), Time: time.Now(), Filter: filter}
	s.Calls, s.More = w.calls(&root, nil, false)
	// Calls whose function ended before them (a task of Go left running)
	// are listed at the top.
	for len(w.detached) > 0 {
		d := w.detached
		w.detached = nil
		for _, c := range d {
			w.add(&s.Calls, &s.More, &item{c: c})
		}
	}
	if s.Calls == nil {
		s.Calls = []entry{}
	}
	return s
}

// A walker takes a snapshot; the caller holds mu.
type walker struct {
	busy     []running // scratch for call
	durs     []uint32  // scratch for call
	now      uint32
	filter   string
	budget   int // entries left to list; -1: no limit
	per      int // children listed per call or function
	detached []*callNode
}

// An item is a call or a running function that a walker may list.
type item struct {
	c      *callNode // a call, or nil
	r      running   // a function
	all    bool      // an entry above matched the filter
	median float64   // a function's: its call's median, in ticks; -1: none
}

// make is the entry of it, and whether it is kept.
func (w *walker) make(it *item) (entry, bool) {
	if it.c != nil {
		return w.call(it.c, it.all)
	}
	e, kept := w.function(it.r, it.all)
	ran := probe.Since(w.now, it.r.start)
	e.Straggler = it.median >= 0 && ran >= uint32(stragglerFloor/probe.Tick) && float64(ran) > stragglerRatio*it.median
	return e, kept
}

// add lists the entry of it in *es, if it is kept and there is room, and
// counts it in *more if it is kept and there is not.
func (w *walker) add(es *[]entry, more *int, it *item) {
	if len(*es) >= w.per || w.budget == 0 {
		if w.kept(it) {
			*more++
		}
		return
	}
	saved := w.budget
	if w.budget > 0 {
		w.budget--
	}
	e, kept := w.make(it)
	if !kept {
		w.budget = saved
		return
	}
	*es = append(*es, e)
}

// kept reports whether the entry of it is kept, listing nothing.
func (w *walker) kept(it *item) bool {
	if w.filter == "" {
		return true
	}
	saved, savedDetached := w.budget, len(w.detached)
	w.budget = 0
	_, kept := w.make(it)
	w.budget, w.detached = saved, w.detached[:savedDetached]
	return kept
}

// calls lists the calls of l, with those that a function whose done count
// is not gen made left for the top (nil gen: all of them). all says an
// entry above matched the filter.
func (w *walker) calls(l *callList, gen *uint64, all bool) (es []entry, more int) {
	for c := l.first; c != nil; c = c.next {
		if gen != nil && c.pgen != *gen {
			w.detached = append(w.detached, c)
			continue
		}
		w.add(&es, &more, &item{c: c, all: all})
	}
	return es, more
}

func (w *walker) matches(s string) bool {
	return w.filter == "" || strings.Contains(strings.ToLower(s), w.filter)
}

// A running is a function running in a slot, as read once.
type running struct {
	s     *slot
	cur   uint64
	start uint32
	pos   int
}

// call is the entry of c, and whether it is kept.
func (w *walker) call(c *callNode, all bool) (entry, bool) {
	e := entry{ID: c.id, Name: callName(c.call), Call: true, State: "running"}
	e.dur = time.Duration(probe.Since(w.now, c.start)) * probe.Tick
	e.Seconds = e.dur.Seconds()
	match := all || w.matches(e.Name)
	if len(c.labels) > 0 {
		e.Labels = make(map[string]string, len(c.labels))
		for _, l := range c.labels {
			e.Labels[l.k] = l.v
			match = match || w.matches(l.k) || w.matches(l.v)
		}
	}

	c.smu.Lock()
	// busy and durs are taken from the walker's scratch, given back at
	// the return: the calls listed below take theirs after them.
	nb, nd := len(w.busy), len(w.durs)
	defer func() { w.busy, w.durs = w.busy[:nb], w.durs[:nd] }()
	w.busy = slices.Grow(w.busy, c.nslots)
	w.durs = slices.Grow(w.durs, c.nslots*probe.RingLen+ringLen)
	busy, durs := w.busy[nb:nb], w.durs[nd:nd]
	finished := int(c.left)
	durs = append(durs, c.durs[:min(c.ndurs, ringLen)]...)
	for s := c.slots; s != nil; s = s.next {
		if cur, ok := s.Running(); ok {
			busy = append(busy, running{s, cur, probe.Start(cur), s.Pos(cur)})
		}
		finished += int(s.Ended())
		durs = s.Durations(durs)
	}
	e.Limit = c.limit
	e.Counts = &counts{
		Running:   len(busy),
		Succeeded: finished - c.failed - c.canceled,
		Failed:    c.failed,
		Canceled:  c.canceled,
	}
	if c.inputs >= 0 {
		e.Counts.NotStarted = ptr(max(0, c.inputs-finished-len(busy)))
	}
	e.Failures = slices.Clone(c.failures)
	if s := c.stop; s != nil {
		e.State = "stopping"
		if s.cut {
			e.State = "cut"
		}
		e.Stop = &stopEntry{graceLeft: -1}
		if s.notStarted >= 0 {
			e.Stop.NotStarted = ptr(s.notStarted)
		}
		if !s.graceEnd.IsZero() && !s.cut {
			e.Stop.graceLeft = max(time.Until(s.graceEnd), 0)
			e.Stop.GraceLeft = ptr(e.Stop.graceLeft.Seconds())
		}
	}
	q := c.queue
	c.smu.Unlock()
	w.busy, w.durs = w.busy[:nb+len(busy)], w.durs[:nd+len(durs)]

	// The functions running, oldest first, then those waiting.
	slices.SortFunc(busy, func(a, b running) int {
		return cmp.Or(cmp.Compare(probe.Since(w.now, b.start), probe.Since(w.now, a.start)), cmp.Compare(a.pos, b.pos), cmp.Compare(a.s.id, b.s.id))
	})
	median := -1.0
	if len(durs) >= stragglerMin {
		slices.Sort(durs)
		m := len(durs) / 2
		median = float64(durs[m])
		if len(durs)%2 == 0 {
			median = (float64(durs[m-1]) + median) / 2
		}
		e.MedianSeconds = ptr(median * probe.Tick.Seconds())
	}
	if n := min(w.per, len(busy)); n > 0 {
		if q != nil && w.per != math.MaxInt {
			n = w.per
		}
		e.Children = make([]entry, 0, n)
	}
	for _, r := range busy {
		w.add(&e.Children, &e.More, &item{r: r, all: match, median: median})
	}
	if q != nil {
		most := w.per - len(e.Children)
		if w.filter != "" {
			most = math.MaxInt
		} else if w.budget >= 0 {
			most = min(most, w.budget)
		}
		listed := 0
		e.Counts.Waiting = q.Waiting(max(most, 0), func(arg string, i int, name string) {
			fe := entry{Name: waitingName(arg, i, name), State: "waiting"}
			if !match && !w.matches(fe.Name) {
				return
			}
			if len(e.Children) >= w.per || w.budget == 0 {
				e.More++
				return
			}
			if w.budget > 0 {
				w.budget--
			}
			e.Children = append(e.Children, fe)
			listed++
		})
		if w.filter == "" {
			e.More += e.Counts.Waiting - listed
		}
	}
	cs, more := w.calls(&c.calls, nil, match)
	e.Children = append(e.Children, cs...)
	e.More += more
	return e, match || len(e.Children) > 0
}

// function is the entry of the function running in r, and whether it is
// kept.
func (w *walker) function(r running, all bool) (entry, bool) {
	s := r.s
	gen := s.Ended()
	e := entry{ID: s.id<<20 | int64(gen&(1<<20-1)), Name: s.cachedName(r.cur), State: "running"}
	e.dur = time.Duration(probe.Since(w.now, r.start)) * probe.Tick
	e.Seconds = e.dur.Seconds()
	match := all || w.matches(e.Name)
	e.Children, e.More = w.calls(&s.calls, &gen, match)
	return e, match || len(e.Children) > 0
}

// waitingName names a child waiting for a slot.
func waitingName(arg string, i int, name string) string {
	pos := probe.ArgName(arg, i)
	if name != "" {
		return name + " (" + pos + ")"
	}
	return pos
}

// callNames are the names of the calls, "task." and the call's, made once.
var callNames = map[string]string{} // guarded by mu

func callName(call string) string {
	n, ok := callNames[call]
	if !ok {
		n = "task." + call
		callNames[call] = n
	}
	return n
}

// ptr is a pointer to a copy of v.
func ptr[T any](v T) *T { return &v }
