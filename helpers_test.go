package task

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
)

// Helpers of the tests of several files.

func catch(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

func recoverFrom(f func()) (r any) {
	defer func() { r = recover() }()
	f()
	return nil
}

// ending is how a function run by endingOf ended.
type ending struct {
	returned bool
	panicVal any // set when it panicked
	exited   bool
}

// endingOf runs f in a new goroutine and reports whether it returned,
// panicked or called runtime.Goexit.
func endingOf(f func()) ending {
	var e ending
	done := make(chan struct{})
	go func() {
		defer close(done)
		normal := false
		defer func() {
			if !normal {
				if r := recover(); r != nil {
					e.panicVal = r
				} else {
					e.exited = true
				}
			}
		}()
		f()
		normal = true
		e.returned = true
	}()
	<-done
	return e
}

func subprocess(t *testing.T, test string, env ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.v")
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func failWith[T any](err error) func(context.Context) (T, error) {
	return func(context.Context) (T, error) { var zero T; return zero, err }
}

// positions lists the 0-based positions of the PositionErrors in err, and
// -1 for the context error. For a raised *PanicError, they are its own
// position and those of the other failures it holds, in order.
func positions(err error) []int {
	var ps []int
	if pe, ok := err.(*PanicError); ok {
		ps = []int{pe.Index}
		if pe.Others != nil {
			ps = append(ps, positions(pe.Others)...)
		}
		slices.Sort(ps) // the context error, -1, comes first
		return ps
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			var pe *PositionError
			if errors.As(e, &pe) {
				ps = append(ps, pe.Index)
			} else {
				ps = append(ps, -1)
			}
		}
	}
	return ps
}

func indexes(pes []*PositionError) []int {
	var is []int
	for _, pe := range pes {
		is = append(is, pe.Index)
	}
	return is
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// frame returns the function line of the i-th frame of a goroutine stack.
func frame(stack []byte, i int) string {
	lines := strings.Split(string(stack), "\n")
	if 1+2*i >= len(lines) {
		return ""
	}
	return lines[1+2*i]
}

// orders returns completion orders of n positions (0-based) to try: every
// permutation up to n = 4, else a fixed set plus seeded random ones.
func orders(n int) [][]int {
	id := make([]int, n)
	for i := range id {
		id[i] = i
	}
	if n <= 4 {
		var all [][]int
		var perm func(p []int, k int)
		perm = func(p []int, k int) {
			if k == len(p) {
				all = append(all, slices.Clone(p))
				return
			}
			for i := k; i < len(p); i++ {
				p[k], p[i] = p[i], p[k]
				perm(p, k+1)
				p[k], p[i] = p[i], p[k]
			}
		}
		perm(id, 0)
		return all
	}
	rev := slices.Clone(id)
	slices.Reverse(rev)
	out := [][]int{id, rev}
	r := rand.New(rand.NewPCG(uint64(n), 2))
	for range 4 {
		p := slices.Clone(id)
		r.Shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
		out = append(out, p)
	}
	return out
}

// indexes0 returns 0, ..., n-1.
func indexes0(n int) []int {
	is := make([]int, n)
	for i := range is {
		is[i] = i
	}
	return is
}

// sources returns n pending tasks and their sources.
func sources(n int) ([]*source[int], []*Task[int]) {
	srcs := make([]*source[int], n)
	tasks := make([]*Task[int], n)
	for i := range srcs {
		srcs[i] = newSource[int]()
		tasks[i] = srcs[i].Task()
	}
	return srcs, tasks
}

// rearm makes the tasks of completed sources pending again, so that a
// benchmark or an allocation count can wait for the same pending tasks
// many times without making new ones. Nothing may wait for them meanwhile.
func rearm(srcs []*source[int]) {
	for _, s := range srcs {
		c := &s.t.core
		c.state.Store(pending)
		c.ch = nil
		c.x.Store(nil)
	}
}

// repeat returns n copies of t.
func repeat(t *Task[int], n int) []*Task[int] {
	tasks := make([]*Task[int], n)
	for i := range tasks {
		tasks[i] = t
	}
	return tasks
}

// lettered returns a task per distinct letter of pattern and the tasks in
// the pattern's order: "aba" is a task, another, and the first again.
func lettered(pattern string) (map[byte]*source[int], []*Task[int]) {
	srcs := make(map[byte]*source[int])
	tasks := make([]*Task[int], len(pattern))
	for i := range len(pattern) {
		s, ok := srcs[pattern[i]]
		if !ok {
			s = newSource[int]()
			srcs[pattern[i]] = s
		}
		tasks[i] = s.Task()
	}
	return srcs, tasks
}

// linked reports whether any call is registered with c.
func (c *core) linked() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.links != nil
}

// fromResult is a task that has already succeeded with v.
func fromResult[T any](v T) *Task[T] {
	t, complete := Promise[T]()
	complete(v, nil)
	return t
}

// fromError is a task that has already failed with err.
func fromError[T any](err error) *Task[T] {
	if err == nil {
		panic("fromError: err is nil")
	}
	t, complete := Promise[T]()
	complete(*new(T), err)
	return t
}

// tryWait is the value and error of t if it has completed (ok true).
func tryWait[T any](t *Task[T]) (v T, err error, ok bool) {
	select {
	case <-t.Done():
		v, err = t.Wait(context.Background())
		return v, err, true
	default:
		return v, nil, false
	}
}

// A source is both sides of a Promise, kept together by tests.
type source[T any] struct {
	t        *Task[T]
	complete func(T, error) bool
}

func newSource[T any]() *source[T] {
	t, complete := Promise[T]()
	return &source[T]{t, complete}
}

func (s *source[T]) Task() *Task[T]               { return s.t }
func (s *source[T]) Complete(v T, err error) bool { return s.complete(v, err) }

// counting is a sequence of 0..n-1 that counts how many inputs were pulled.
func counting(n int, pulled *atomic.Int32) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := range n {
			pulled.Add(1)
			if !yield(i) {
				return
			}
		}
	}
}

// okInt succeeds at once.
func okInt(context.Context) (int, error) { return 1, nil }

// wantBoom checks that e is a panic with the *PanicError of "boom".
func wantBoom(t *testing.T, name string, e ending) *PanicError {
	t.Helper()
	pe, ok := e.panicVal.(*PanicError)
	if !ok || pe.Value != "boom" {
		t.Fatalf("%s: ended %+v; want a panic with the *PanicError of boom", name, e)
	}
	return pe
}

// scaleN is the number of tasks in the scale tests: 10^5, or 10^4 with
// -short.
func scaleN() int {
	if testing.Short() {
		return 10_000
	}
	return 100_000
}
