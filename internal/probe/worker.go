package probe

import (
	"context"
	"math"
	"sync/atomic"
)

// A Worker is a Tracker's record of the functions of one call that run
// one after another in a slot: on a worker of Map, or one at a time on
// the goroutines of a Group. The code that runs a function writes it
// with Begin and End, two atomic stores, with no call to the Tracker but
// for a function that did not succeed; the Tracker reads it.
type Worker struct {
	Ctx  context.Context // the functions' context, which the Tracker made
	Fail Failer          // told of the functions that did not succeed

	name atomic.Pointer[string] // the name of the function running, if task.Named gave one
	cur  atomic.Uint64          // 0: no function; else its start<<32 | its position packed (see Pos)
	big  atomic.Int64           // the position, if it does not fit in cur
	done atomic.Uint64          // the functions that ended
	ring [RingLen]atomic.Uint32
}

// A Failer is told of a function of a Worker that did not succeed, whose
// start and position are cur (see Pos).
type Failer interface {
	Failed(cur uint64, o *Outcome)
}

// RingLen is how many durations a Worker keeps: those of its last
// functions.
const RingLen = 8

// NoIndex is the position of a function named by its argument alone (the
// function of a task of Go: "fn").
const NoIndex = math.MinInt

// Positions in cur: i+2 for -1 <= i < bigPos-2, so that none is 0;
// bigPos for the others, whose position is in big.
const bigPos = math.MaxUint32

// Begin records that function i starts.
func (w *Worker) Begin(i int) {
	t := uint64(Ticks()) << 32
	if i >= -1 && int64(i) < bigPos-2 {
		w.cur.Store(t | uint64(i+2))
		return
	}
	w.big.Store(int64(i))
	w.cur.Store(t | bigPos)
}

// End records that the function running ended; o is nil if it returned
// nil, and otherwise goes to Fail first. It leaves the function listed
// as running until the next Begin or Clear: a worker begins its next
// function at once, or clears.
func (w *Worker) End(o *Outcome) {
	cur := w.cur.Load()
	if o != nil {
		w.Fail.Failed(cur, o)
	}
	n := w.done.Load()
	if d, r := Since(Ticks(), uint32(cur>>32)), &w.ring[n%RingLen]; r.Load() != d {
		r.Store(d)
	}
	if w.name.Load() != nil {
		w.name.Store(nil)
	}
	w.done.Store(n + 1)
}

// SetName names the function running.
func (w *Worker) SetName(name *string) { w.name.Store(name) }

// Name is the name of the function running, or nil.
func (w *Worker) Name() *string { return w.name.Load() }

// Clear records that no function runs.
func (w *Worker) Clear() { w.cur.Store(0) }

// Running returns the start and position of the function running, as
// cur, and whether one runs.
func (w *Worker) Running() (cur uint64, ok bool) {
	cur = w.cur.Load()
	return cur, cur != 0
}

// Start is the start, in ticks, of the function whose cur is cur.
func Start(cur uint64) uint32 { return uint32(cur >> 32) }

// Pos is the position of the function whose cur is cur.
func (w *Worker) Pos(cur uint64) int {
	if p := uint32(cur); p != bigPos {
		return int(p) - 2
	}
	return int(w.big.Load())
}

// Ended is the number of functions that ended.
func (w *Worker) Ended() uint64 { return w.done.Load() }

// Durations appends the durations, in ticks, of the last functions that
// ended, at most RingLen.
func (w *Worker) Durations(ds []uint32) []uint32 {
	for j := range min(w.done.Load(), RingLen) {
		ds = append(ds, w.ring[j].Load())
	}
	return ds
}
