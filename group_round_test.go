//go:build go1.25

package task

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// The rounds of a Group, clause by clause of Group.Wait's doc.

// roundStarts are the calls that begin a round, each starting one child
// that counts in ran: Go, TryGo, Spawn, TrySpawn, and SetLimit followed
// by a Go.
var roundStarts = []struct {
	name  string
	start func(g *Group, ran *atomic.Int32)
}{
	{"Go", func(g *Group, ran *atomic.Int32) {
		g.Go(func(context.Context) error { ran.Add(1); return nil })
	}},
	{"TryGo", func(g *Group, ran *atomic.Int32) {
		if !g.TryGo(func(context.Context) error { ran.Add(1); return nil }) {
			panic("TryGo = false in a group with no limit")
		}
	}},
	{"Spawn", func(g *Group, ran *atomic.Int32) {
		Spawn(g, func(context.Context) (int, error) { ran.Add(1); return 0, nil })
	}},
	{"TrySpawn", func(g *Group, ran *atomic.Int32) {
		if _, ok := TrySpawn(g, func(context.Context) (int, error) { ran.Add(1); return 0, nil }); !ok {
			panic("TrySpawn = false in a group with no limit")
		}
	}},
	{"SetLimit", func(g *Group, ran *atomic.Int32) {
		g.SetLimit(1)
		g.Go(func(context.Context) error { ran.Add(1); return nil })
	}},
}

// A call that begins a round while the round before ends (its children
// have returned, its first Wait has not yet kept its outcome) waits for
// that Wait without spinning: in a synctest bubble it is durably blocked,
// so that synctest.Wait returns. A loop of runtime.Gosched, which
// synctest does not count as blocked, would never let it return, and the
// watchdog of durably would fail the test. The first Wait is held in that
// window by the caller's ctx, which blocks while the context package asks
// it for its cancelCtxKey as Wait cancels the group's context.
func TestSynctestRoundEnd(t *testing.T) {
	for _, rs := range roundStarts {
		durably(t, rs.name, func(t *testing.T) {
			base, cancel := context.WithCancel(context.Background())
			defer cancel()
			parent := &holdingCtx{Context: base, held: make(chan struct{}), release: make(chan struct{})}
			g, _ := NewGroup(parent)
			g.Go(func(ctx context.Context) error { ctx.Done(); return nil }) // makes the context Wait cancels
			synctest.Wait()
			parent.armed.Store(true)
			first := waiters(1, g.Wait)
			<-parent.held // the round is over; its first Wait has not kept the outcome

			var ran atomic.Int32
			started := make(chan string, 1)
			go func() { started <- catch(func() { rs.start(g, &ran) }) }()
			second := waiters(1, g.Wait)
			synctest.Wait() // the spawner and the second Wait are durably blocked
			if len(started) != 0 || ran.Load() != 0 {
				t.Fatalf("%s returned while the round before was ending (ran %d)", rs.name, ran.Load())
			}
			close(parent.release)
			if msg := <-started; msg != "" {
				t.Fatalf("%s panicked: %s", rs.name, msg)
			}
			if errs := append(first(), second()...); !allNil(errs) {
				t.Fatalf("the Waits of the first round = %v; want nil, nil", errs)
			}
			if err := g.Wait(); err != nil || ran.Load() != 1 {
				t.Fatalf("the next round: Wait = %v with %d run; want nil, 1", err, ran.Load())
			}
		})
	}
}

// A call racing the end of a round, from another goroutine, while two
// Waits called before it wait for it: its child is in the round the Waits return from, or the
// first of the next, which the next Wait waits for; never lost, never a
// panic; and both Waits of the round return its outcome. For the zero
// Group and NewGroup's, every call that begins a round. Run it with -race
// too.
func TestRoundEndRace(t *testing.T) {
	errA := errors.New("a")
	for _, kind := range []string{"NewGroup", "zero"} {
		for _, rs := range roundStarts {
			if rs.name == "SetLimit" {
				continue // in a round with a child, it panics: it must come first
			}
			in, next := 0, 0
			for range 300 {
				g := new(Group)
				if kind == "NewGroup" {
					g, _ = NewGroup(context.Background(), KeepGoing)
				}
				gate := make(chan struct{})
				g.Go(func(context.Context) error { <-gate; return errA })
				var ran atomic.Int32
				started := make(chan string, 1)
				go func() {
					<-gate
					started <- catch(func() { rs.start(g, &ran) })
				}()
				var errs [2]error
				var wg sync.WaitGroup
				for i := range errs {
					wg.Go(func() { errs[i] = g.Wait() })
				}
				for !bothWaiting(g) {
					runtime.Gosched()
				}
				close(gate)
				wg.Wait()
				atWait := ran.Load()
				if msg := <-started; msg != "" {
					t.Fatalf("%s, %s: the call panicked: %s", kind, rs.name, msg)
				}
				for i, err := range errs {
					if !errors.Is(err, errA) {
						t.Fatalf("%s, %s: Wait %d of the first round = %v; want %v", kind, rs.name, i, err, errA)
					}
				}
				g.mu.Lock()
				inRound := g.round == 0 // no round began after the first
				g.mu.Unlock()
				if inRound {
					in++
				} else {
					next++
				}
				err := g.Wait()
				switch {
				case inRound && atWait != 1:
					t.Fatalf("%s, %s: the Waits of the round returned before its child ran", kind, rs.name)
				case ran.Load() != 1:
					t.Fatalf("%s, %s: %d children ran; want 1", kind, rs.name, ran.Load())
				case inRound && !errors.Is(err, errA):
					t.Fatalf("%s, %s: a Wait with no round since = %v; want the last round's %v", kind, rs.name, err, errA)
				case !inRound && err != nil:
					t.Fatalf("%s, %s: the next round's Wait = %v; want nil", kind, rs.name, err)
				}
			}
			t.Logf("%s, %s: %d in the round ending, %d began the next", kind, rs.name, in, next)
		}
	}
}

// A Stop is the group's, not the round's: after it, no round takes a
// child, as after the end of the caller's ctx. For the zero Group and
// NewGroup's, with and without Grace, a Stop in a round and a Stop
// between two.
func TestStopAcrossRounds(t *testing.T) {
	for _, kind := range []string{"NewGroup", "NewGroup with Grace", "zero"} {
		for _, between := range []bool{false, true} {
			g := new(Group)
			switch kind {
			case "NewGroup":
				g, _ = NewGroup(context.Background())
			case "NewGroup with Grace":
				g, _ = NewGroup(context.Background(), Grace(time.Hour))
			}
			name := kind + ", Stop in the round"
			if between {
				name = kind + ", Stop between rounds"
			}
			g.Go(func(context.Context) error { return nil })
			if !between {
				g.Stop()
			}
			if err := g.Wait(); err != nil {
				t.Fatalf("%s: the first Wait = %v; want nil (nothing refused)", name, err)
			}
			if between {
				g.Stop()
			}
			for round := 2; round <= 3; round++ {
				var ran atomic.Int32
				g.Go(func(context.Context) error { ran.Add(1); return nil })
				tk := Spawn(g, func(context.Context) (int, error) { ran.Add(1); return 0, nil })
				if g.TryGo(func(context.Context) error { ran.Add(1); return nil }) {
					t.Errorf("%s, round %d: TryGo = true after Stop", name, round)
				}
				err := g.Wait()
				var ce *CallError
				if !errors.Is(err, ErrStopped) || ran.Load() != 0 {
					t.Fatalf("%s, round %d: Wait = %v with %d run; want ErrStopped, none run", name, round, err, ran.Load())
				}
				if errors.As(err, &ce) && ce.NotStarted != 2 {
					t.Fatalf("%s, round %d: NotStarted %d; want 2", name, round, ce.NotStarted)
				}
				if _, err := tk.Wait(context.Background()); !errors.Is(err, ErrStopped) || !errors.Is(err, context.Canceled) {
					t.Fatalf("%s, round %d: the refused task = %v; want ErrStopped and Canceled", name, round, err)
				}
			}
		}
	}
}

// bothWaiting reports whether two Waits of g's round are waiting: the
// first has been called, and the second has made the round's end.
func bothWaiting(g *Group) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.waiting.Load() && g.end != nil
}
