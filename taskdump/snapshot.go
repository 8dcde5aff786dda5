package taskdump

import (
	"cmp"
	"slices"
	"strings"
	"time"
)

// A snapshot is the registry at one instant: what Write writes and what
// Handler serves, as JSON or as the page. It is the one walk of the
// registry.
type snapshot struct {
	Enabled bool      `json:"enabled"` // Enable has been called
	Time    time.Time `json:"time"`    // when the snapshot was taken
	Calls   []entry   `json:"calls"`   // the calls at the top, those listed; never nil
	More    int       `json:"more"`    // the calls at the top not listed
}

// An entry is a call or a function of a snapshot.
type entry struct {
	ID      int64   `json:"id"`
	Name    string  `json:"name"`
	Call    bool    `json:"call"`
	State   string  `json:"state"`
	Seconds float64 `json:"seconds"`

	// Calls only.
	Limit    int        `json:"limit,omitempty"`
	Counts   *counts    `json:"counts,omitempty"`
	Stop     *stopEntry `json:"stop,omitempty"`
	Failures []failure  `json:"failures,omitempty"`

	Children []entry `json:"children,omitempty"`
	More     int     `json:"more,omitempty"` // the children not listed

	start time.Time
	dur   time.Duration
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

// take takes a snapshot of the registry. With limited, it lists at most
// maxChildren children of each node, those added first, and maxEntries
// entries in all, depth first; without, everything.
func take(limited bool) snapshot {
	mu.Lock()
	defer mu.Unlock()
	now := time.Now()
	budget := -1
	if limited {
		budget = maxEntries
	}
	s := snapshot{Enabled: enabled.Load(), Time: now}
	s.Calls, s.More = children(&root, now, &budget)
	if s.Calls == nil {
		s.Calls = []entry{}
	}
	return s
}

// children returns the entries of the children of n listed, sorted by
// start and then name, and how many are not listed. The caller holds mu.
func children(n *node, now time.Time, budget *int) ([]entry, int) {
	if n.nChildren == 0 {
		return nil, 0
	}
	most := n.nChildren
	if *budget >= 0 {
		most = min(most, maxChildren, *budget)
		*budget -= most
	}
	es := make([]entry, 0, most)
	for c := n.first; c != nil && len(es) < most; c = c.next {
		es = append(es, c.entry(now))
	}
	// The children's children after the siblings' entries, so that the
	// budget goes to the listed nodes nearest the top first.
	i := 0
	for c := n.first; c != nil && i < len(es); c = c.next {
		es[i].Children, es[i].More = children(c, now, budget)
		i++
	}
	slices.SortFunc(es, func(a, b entry) int {
		return cmp.Or(a.start.Compare(b.start), strings.Compare(a.Name, b.Name))
	})
	return es, n.nChildren - len(es)
}

// entry is the entry of n, without its children. The caller holds mu.
func (n *node) entry(now time.Time) entry {
	e := entry{ID: n.id, Name: n.name, Call: n.call != nil, State: "running", start: n.start, dur: now.Sub(n.start)}
	e.Seconds = e.dur.Seconds()
	if n.queued {
		e.State = "waiting"
	}
	c := n.call
	if c == nil {
		return e
	}
	e.Limit = c.limit
	e.Counts = &counts{
		Running:   n.nChildren - n.nQueued,
		Waiting:   n.nQueued,
		Succeeded: c.succeeded,
		Failed:    c.failed,
		Canceled:  c.canceled,
	}
	if c.inputs >= 0 {
		e.Counts.NotStarted = new(max(0, c.inputs-c.started))
	}
	e.Failures = slices.Clone(c.failures)
	if s := c.stop; s != nil {
		e.State = "stopping"
		if s.cut {
			e.State = "cut"
		}
		e.Stop = &stopEntry{graceLeft: -1}
		if s.notStarted >= 0 {
			e.Stop.NotStarted = new(s.notStarted)
		}
		if !s.graceEnd.IsZero() && !s.cut {
			e.Stop.graceLeft = max(s.graceEnd.Sub(now), 0)
			e.Stop.GraceLeft = new(e.Stop.graceLeft.Seconds())
		}
	}
	return e
}
