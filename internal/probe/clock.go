package probe

import (
	"sync"
	"sync/atomic"
	"time"
)

// The Tracker's clock: a count of ticks of Tick, so that timing a function
// costs an atomic load where time.Now costs a read of the system's clock.
// A timer advances it every tick while someone reads it, and stops once a
// whole tick passes without a read, or when the Tracker says nothing is
// left to time (StopClock): a program whose functions neither start nor
// end wakes for nothing, a testing/synctest bubble waiting for a long time
// does not step through it tick by tick, and a bubble whose calls have
// ended leaves no timer of its own behind. The first read after a stop
// starts it again, from the system's clock.
const Tick = 10 * time.Millisecond

// clock is the ticks (the low 32 bits: wallTicks, as of the last tick)
// with clockOn and clockRead, in one word, so that a read is one load.
var clock atomic.Uint64

const (
	clockOn   = 1 << 32 // the timer advances the ticks
	clockRead = 1 << 33 // the ticks were read since the last tick
)

var (
	clockMu    sync.Mutex
	clockTimer *time.Timer // guarded by clockMu
)

// Ticks reads the clock, starting it if it has stopped. A tick may have
// passed since the value it returns.
func Ticks() uint32 {
	if v := clock.Load(); v&(clockOn|clockRead) == clockOn|clockRead {
		return uint32(v)
	}
	return ticksSlow()
}

// ticksSlow is Ticks for the first read since a tick, or since a stop.
func ticksSlow() uint32 {
	if clock.Load()&clockOn == 0 {
		startClock()
	}
	return uint32(clock.Or(clockRead))
}

// TicksNow is the clock read from the system's clock, for a reader that
// wants no tick missing.
func TicksNow() uint32 { return wallTicks() }

// wallTicks counts the ticks of the system's wall clock since 1970, cut
// to 32 bits: the ticks start on whole multiples of Tick, as the clock of
// a testing/synctest bubble does, and only differences are read (they
// hold for 497 days).
func wallTicks() uint32 { return uint32(time.Now().UnixNano() / int64(Tick)) }

func startClock() {
	clockMu.Lock()
	defer clockMu.Unlock()
	if clock.Load()&clockOn != 0 {
		return
	}
	clock.Store(uint64(wallTicks()) | clockOn | clockRead)
	clockTimer = time.AfterFunc(Tick, advance)
}

// advance is a tick: it stops the clock if nobody read it since the last,
// else it reads the system's clock and waits for the next.
func advance() {
	clockMu.Lock()
	defer clockMu.Unlock()
	if clockTimer == nil {
		return // stopped by StopClock after this tick fired
	}
	if clock.Load()&clockRead == 0 {
		clock.And(^uint64(clockOn))
		clockTimer = nil
		return
	}
	clock.Store(uint64(wallTicks()) | clockOn)
	clockTimer.Reset(Tick)
}

// StopClock stops the clock.
func StopClock() {
	clockMu.Lock()
	defer clockMu.Unlock()
	if clockTimer != nil {
		clockTimer.Stop()
		clockTimer = nil
	}
	clock.And(^uint64(clockOn))
}

// Since is the ticks from start to now, 0 if start is after now (the
// system's clock was set back).
func Since(now, start uint32) uint32 {
	if d := now - start; d < 1<<31 {
		return d
	}
	return 0
}
