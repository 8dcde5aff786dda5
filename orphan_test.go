package task

import (
	"context"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestOrphanPanicCrashes runs a program whose Go task panics and is never
// waited for: the panic must crash it once the task is collected.
func TestOrphanPanicCrashes(t *testing.T) {
	if os.Getenv("TASK_TEST_ORPHAN") == "1" {
		tk := Go(context.Background(), func(context.Context) (int, error) { panic("orphaned") })
		<-tk.Done()
		tk = nil
		for range 1000 {
			runtime.GC()
			time.Sleep(time.Millisecond)
		}
		os.Exit(0) // not crashed: the test fails
	}
	if testing.Short() {
		t.Skip("runs a subprocess")
	}
	out, err := subprocess(t, "TestOrphanPanicCrashes", "TASK_TEST_ORPHAN=1")
	if err == nil || !strings.Contains(out, "never waited for") || !strings.Contains(out, "orphaned") {
		t.Fatalf("subprocess err = %v, output:\n%s", err, out)
	}
}

// TestObservedPanicDoesNotCrash: a panic handed to a waiter is not raised
// again when the task is collected.
func TestObservedPanicDoesNotCrash(t *testing.T) {
	if os.Getenv("TASK_TEST_OBSERVED") == "1" {
		tk := Go(context.Background(), func(context.Context) (int, error) { panic("seen") })
		recoverFrom(func() { tk.Wait(context.Background()) })
		tk = nil
		for range 200 {
			runtime.GC()
			time.Sleep(time.Millisecond)
		}
		os.Exit(0)
	}
	if testing.Short() {
		t.Skip("runs a subprocess")
	}
	if out, err := subprocess(t, "TestObservedPanicDoesNotCrash", "TASK_TEST_OBSERVED=1"); err != nil {
		t.Fatalf("subprocess err = %v, output:\n%s", err, out)
	}
}

// TestOrphanPanicValue: the crash of a panic nobody waited for panics with
// a copy of the task's *PanicError that says so.
func TestOrphanPanicValue(t *testing.T) {
	tk := Go(context.Background(), func(context.Context) (int, error) { panic("orphaned") })
	<-tk.Done()
	own := tk.failure().(*PanicError)
	w := &orphanWatch{pe: own, call: "Go"}
	pe, ok := recoverFrom(func() { crashIfUnobserved(w) }).(*PanicError)
	if !ok || pe.Value != "orphaned" || string(pe.Stack) != string(own.Stack) ||
		!strings.HasPrefix(pe.Error(), "task: Go: never waited for: panic: orphaned\n") {
		t.Fatalf("crash value %#v; want the task's *PanicError, never waited for", pe)
	}
	if strings.Contains(own.Error(), "never waited for") {
		t.Errorf("the task's PanicError changed: %s", own.Error())
	}
	tk.observe() // this test looked at the panic: no crash later
}
