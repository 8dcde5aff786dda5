//go:build go1.25

package task

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
)

// gated is a function that waits for its gate, then returns v and err; it
// records whether its context was canceled, and with what cause.
type gated struct {
	gate  chan struct{}
	v     int
	err   error
	cause atomic.Value
}

func newGated(v int, err error) *gated { return &gated{gate: make(chan struct{}), v: v, err: err} }

func (g *gated) fn(ctx context.Context) (int, error) {
	select {
	case <-g.gate:
		return g.v, g.err
	case <-ctx.Done():
		g.cause.Store(context.Cause(ctx))
		return 0, ctx.Err()
	}
}

// 2 of 3: the call has its quorum at the second success, cancels the third
// with ErrLost, and returns once it has returned, with the winners in the
// order they succeeded.
func TestQuorumReached(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a, b, c := newGated(1, nil), newGated(2, nil), newGated(3, nil)
		done := make(chan struct{})
		var vals, pos []int
		var err error
		go func() {
			vals, pos, err = Quorum(context.Background(), 2, nil, a.fn, b.fn, c.fn)
			close(done)
		}()
		close(c.gate)
		synctest.Wait()
		close(a.gate)
		<-done
		if err != nil || !slices.Equal(vals, []int{3, 1}) || !slices.Equal(pos, []int{2, 0}) {
			t.Fatalf("Quorum = %v, %v, %v; want [3 1] [2 0] nil", vals, pos, err)
		}
		if cause, _ := b.cause.Load().(error); cause != ErrLost {
			t.Fatalf("the third was canceled with %v; want ErrLost", cause)
		}
	})
}

// A quorum write of 2 of 3 fails as soon as 2 have failed, with both
// failures, and the third canceled with the failure as the cause.
func TestQuorumUnreachable(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		down := errors.New("replica down")
		a, b, c := newGated(0, down), newGated(0, down), newGated(1, nil)
		done := make(chan struct{})
		var err error
		var vals []int
		go func() {
			vals, _, err = Quorum(context.Background(), 2, nil, a.fn, b.fn, c.fn)
			close(done)
		}()
		close(a.gate)
		synctest.Wait()
		select {
		case <-done:
			t.Fatal("Quorum returned after one failure of 3")
		default:
		}
		close(b.gate)
		<-done
		var ce *CallError
		if !errors.As(err, &ce) || vals != nil || len(ce.Failures) != 2 || len(ce.Canceled) != 1 || ce.Canceled[0].Index != 2 {
			t.Fatalf("Quorum = %v, %v; want 2 failures, fns[2] canceled", vals, err)
		}
		if !strings.HasPrefix(err.Error(), "task: Quorum: fns[0]: replica down\ntask: Quorum: fns[1]: replica down") {
			t.Errorf("message %q", err)
		}
		var pe *PositionError
		if cause, _ := c.cause.Load().(error); !errors.As(cause, &pe) || !errors.Is(cause, down) {
			t.Errorf("the third was canceled with %v; want the failure", cause)
		}
	})
}

// QuorumRelease releases what succeeded and did not win: a success after
// the quorum.
func TestQuorumRelease(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var released []int
		late := func(ctx context.Context) (int, error) {
			<-ctx.Done() // canceled at the quorum, it succeeds anyway
			return 9, nil
		}
		vals, pos, err := Quorum(context.Background(), 1, func(v int) { released = append(released, v) },
			func(context.Context) (int, error) { return 1, nil }, late)
		if err != nil || !slices.Equal(vals, []int{1}) || !slices.Equal(pos, []int{0}) || !slices.Equal(released, []int{9}) {
			t.Fatalf("QuorumRelease = %v %v %v, released %v", vals, pos, err, released)
		}
	})
}

func TestQuorumPanicsAndBadInput(t *testing.T) {
	ok := func(context.Context) (int, error) { return 1, nil }
	r := recoverFrom(func() {
		Quorum(context.Background(), 1, nil, ok, func(context.Context) (int, error) { panic("torn") })
	})
	if pe, isPE := r.(*PanicError); !isPE || pe.Value != "torn" || pe.Call != "Quorum" || pe.Arg != "fns[1]" {
		t.Errorf("Quorum raised %#v", r)
	}
	var nilCtx context.Context
	for want, f := range map[string]func(){
		"task: Quorum: k is 0; want at least 1":  func() { Quorum(context.Background(), 0, nil, ok, ok) },
		"task: Quorum: k is -1; want at least 1": func() { Quorum[int](context.Background(), -1, nil) },
		"task: Quorum: fns[1] is nil":            func() { Quorum(context.Background(), 1, nil, ok, nil) },
		"task: Quorum: fns[0] is nil":            func() { Quorum[int](context.Background(), 3, nil, nil) },
		"task: Quorum: ctx is nil":               func() { Quorum(nilCtx, 1, nil, ok) },
	} {
		if msg := catch(f); msg != want {
			t.Errorf("panic %q; want %q", msg, want)
		}
	}
}

// Successes that come at once: exactly k winners, each a success, and no
// winner's context canceled.
func TestQuorumConcurrentSuccesses(t *testing.T) {
	for range 200 {
		const n, k = 8, 3
		start := make(chan struct{})
		var ctxs [n]context.Context
		fns := make([]func(context.Context) (int, error), n)
		for i := range fns {
			fns[i] = func(ctx context.Context) (int, error) {
				ctxs[i] = ctx
				<-start
				return i * 10, nil
			}
		}
		go func() { close(start) }()
		vals, pos, err := Quorum(context.Background(), k, nil, fns...)
		if err != nil || len(vals) != k || len(pos) != k {
			t.Fatalf("Quorum = %v %v %v", vals, pos, err)
		}
		seen := map[int]bool{}
		for x, p := range pos {
			if seen[p] || vals[x] != p*10 {
				t.Fatalf("winners %v with values %v", pos, vals)
			}
			seen[p] = true
			if ctxs[p].Err() != nil {
				t.Fatalf("winner %d's context canceled: %v", p, context.Cause(ctxs[p]))
			}
		}
	}
}
