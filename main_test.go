package task

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestMain fails the run if goroutines started by the tests are still
// alive once every test has finished (the synctest tests also check their
// own bubbles). It is a small stand-in for goleak, which this module does
// not depend on: the core module needs nothing but the standard library.
func TestMain(m *testing.M) {
	before := len(goroutines())
	code := m.Run()
	if code == 0 {
		deadline := time.Now().Add(5 * time.Second)
		for len(goroutines()) > before && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if gs := goroutines(); len(gs) > before {
			fmt.Fprintf(os.Stderr, "goroutine leak: %d goroutines after the tests, %d before\n\n%s\n",
				len(gs), before, strings.Join(gs, "\n\n"))
			code = 1
		}
	}
	os.Exit(code)
}

// goroutines returns the stacks of the goroutines other than the caller's
// and those the runtime (its cleanup and finalizer goroutines, which can
// show while they run), the fuzzing engine or os/signal keep, as goleak
// ignores them.
func goroutines() []string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	var out []string
	for i, g := range strings.Split(string(buf), "\n\n") {
		if i == 0 || strings.Contains(g, "os/signal.signal_recv") || strings.Contains(g, "testing.(*F).Fuzz") ||
			strings.Contains(g, "testing.runFuzzing") || strings.Contains(g, "internal/fuzz.") ||
			strings.Contains(g, "runtime.runCleanups") || strings.Contains(g, "runtime.runFinalizers") {
			continue
		}
		out = append(out, g)
	}
	return out
}

type runtimeMem struct{ mallocs, bytes uint64 }

func (m *runtimeMem) read() {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	m.mallocs, m.bytes = ms.Mallocs, ms.TotalAlloc
}
