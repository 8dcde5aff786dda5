//go:build go1.25

package task

import (
	"context"
	"errors"
	"iter"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// Graceful stop, in fake time: the phases of every entry point, to the
// nanosecond. In each test the caller's ctx is canceled at stopAt; the
// grace period is grace.

const (
	stopAt = 1 * time.Second
	grace  = 5 * time.Second
)

// work is a function that takes d, or gives up when its ctx is canceled,
// recording when it saw Stopping closed.
type work struct {
	stopSeen atomic.Int64 // nanoseconds since the start, when Stopping closed; 0: never
	start    time.Time
}

func (w *work) run(ctx context.Context, d time.Duration) (time.Duration, error) {
	go func() {
		select {
		case <-Stopping(ctx):
			w.stopSeen.CompareAndSwap(0, int64(time.Since(w.start)))
		case <-ctx.Done():
		}
	}()
	select {
	case <-time.After(d):
		return d, nil
	case <-ctx.Done():
		return -1, ctx.Err()
	}
}

// stopping returns a ctx that is canceled at stopAt.
func stopping(t *testing.T) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	time.AfterFunc(stopAt, cancel)
	return ctx
}

func TestGraceMap(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := &work{start: time.Now()}
		ctx := stopping(t)
		// Inputs 0 and 1 run at once (limit 2): 0 finishes within the grace
		// period, 1 does not; the others never start.
		durations := []time.Duration{3 * time.Second, 10 * time.Second, time.Second, time.Second}
		var calls atomic.Int32
		out, err := Map(ctx, durations, 2, func(ctx context.Context, d time.Duration) (time.Duration, error) {
			calls.Add(1)
			return w.run(ctx, d)
		}, Grace(grace), Settled)
		if got, want := time.Since(w.start), stopAt+grace; got != want {
			t.Errorf("Map returned at %v; want %v (the end of the grace period)", got, want)
		}
		if got := time.Duration(w.stopSeen.Load()); got != stopAt {
			t.Errorf("Stopping closed at %v; want %v", got, stopAt)
		}
		var ce *CallError
		if !errors.As(err, &ce) || calls.Load() != 2 || ce.NotStarted != 2 || len(ce.Failures) != 0 ||
			!slices.Equal(indexes(ce.Unfinished), []int{1}) || !errors.Is(err, context.Canceled) {
			t.Fatalf("Map = %v (%+v) after %d calls; want inputs[1] unfinished, 2 not started, context.Canceled", err, ce, calls.Load())
		}
		if out[0] != 3*time.Second || !errors.Is(ce.Unfinished[0].Err, context.Canceled) {
			t.Errorf("results %v, unfinished %v; want inputs[0]'s 3s kept, inputs[1] cut with context.Canceled", out, ce.Unfinished[0])
		}
	})
}

func TestGraceForEach(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := &work{start: time.Now()}
		err := ForEach(stopping(t), []time.Duration{2 * time.Second, 2 * time.Second, time.Second}, 2,
			func(ctx context.Context, d time.Duration) error { _, err := w.run(ctx, d); return err }, Grace(grace))
		var ce *CallError
		// Both running calls finish within the grace period: nothing is cut,
		// the third never starts.
		if got := time.Since(w.start); got != 2*time.Second {
			t.Errorf("ForEach returned at %v; want 2s", got)
		}
		if !errors.As(err, &ce) || ce.NotStarted != 1 || len(ce.Unfinished)+len(ce.Failures) != 0 || !errors.Is(err, context.Canceled) {
			t.Errorf("ForEach = %v; want 1 not started, context.Canceled", err)
		}
	})
}

func TestGraceRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := &work{start: time.Now()}
		f := func(d time.Duration) func(context.Context) (time.Duration, error) {
			return func(ctx context.Context) (time.Duration, error) { return w.run(ctx, d) }
		}
		a, b, err := Run2(stopping(t), f(4*time.Second), f(time.Hour), Grace(grace), Settled)
		if got := time.Since(w.start); got != stopAt+grace {
			t.Errorf("Run2 returned at %v; want %v", got, stopAt+grace)
		}
		var ce *CallError
		if a != 4*time.Second || b != -1 || !errors.As(err, &ce) || !slices.Equal(indexes(ce.Unfinished), []int{1}) || !errors.Is(err, context.Canceled) {
			t.Errorf("Run2 = %v, %v, %v; want 4s kept, f2 cut", a, b, err)
		}
	})
}

func TestGraceScope(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := &work{start: time.Now()}
		var queued *Task[time.Duration]
		_, err := Scope(stopping(t), func(ctx context.Context, g *Group) (int, error) {
			g.SetLimit(1)
			Spawn(g, func(ctx context.Context) (time.Duration, error) { return w.run(ctx, 2*time.Second) })
			queued = Spawn(g, func(ctx context.Context) (time.Duration, error) { return w.run(ctx, time.Second) })
			<-Stopping(ctx)
			if time.Since(w.start) != stopAt {
				t.Errorf("the body saw Stopping at %v; want %v", time.Since(w.start), stopAt)
			}
			// Spawned after the stop: never starts.
			g.Go(func(context.Context) error { t.Error("a child started after the stop"); return nil })
			return 0, nil
		}, Grace(grace))
		if got := time.Since(w.start); got != 2*time.Second {
			t.Errorf("Scope returned at %v; want 2s: the running child finished within the grace period", got)
		}
		var ce *CallError
		if !errors.As(err, &ce) || ce.NotStarted != 2 || len(ce.Failures) != 0 || !errors.Is(err, context.Canceled) {
			t.Errorf("Scope = %v; want 2 not started, context.Canceled", err)
		}
		if _, err := queued.Wait(context.Background()); !errors.Is(err, context.Canceled) {
			t.Errorf("the queued child's task = %v; want context.Canceled", err)
		}
	})
}

// TestGroupStop: a body stops its group; the running children finish, the
// queued ones never start, nothing is canceled.
func TestGroupStop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := &work{start: time.Now()}
		_, err := Scope(context.Background(), func(ctx context.Context, g *Group) (int, error) {
			g.SetLimit(1)
			g.Go(func(ctx context.Context) error {
				_, err := w.run(ctx, 3*time.Second)
				select {
				case <-Stopping(ctx):
				default:
					t.Error("Stopping is not closed after Stop")
				}
				return err
			})
			g.Go(func(ctx context.Context) error { t.Error("a queued child started after Stop"); return nil })
			g.Stop()
			return 0, nil
		}, Grace(grace))
		var ce *CallError
		if !errors.As(err, &ce) || ce.NotStarted != 1 || ce.Ctx != nil || len(ce.Failures) != 0 {
			t.Errorf("Scope = %v; want 1 not started and nothing else", err)
		}
		if got := time.Since(w.start); got != 3*time.Second {
			t.Errorf("Scope returned at %v; want 3s", got)
		}
	})
}

func TestGraceMapSeq(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := &work{start: time.Now()}
		var pulled, late atomic.Int32
		inputs := func(yield func(int) bool) {
			for i := 0; ; i++ {
				pulled.Add(1)
				if time.Since(w.start) >= stopAt {
					late.Add(1)
				}
				if !yield(i) {
					return
				}
			}
		}
		var got []int
		var last error
		for v, err := range MapSeq(stopping(t), iter.Seq[int](inputs), 2, func(ctx context.Context, i int) (int, error) {
			_, err := w.run(ctx, 3*time.Second)
			return i, err
		}, Grace(grace)) {
			if err != nil {
				last = err
				continue
			}
			got = append(got, v)
		}
		if elapsed := time.Since(w.start); elapsed != 3*time.Second {
			t.Errorf("the loop ended at %v; want 3s", elapsed)
		}
		if !slices.Equal(got, []int{0, 1}) || !errors.Is(last, context.Canceled) {
			t.Errorf("yielded %v, last error %v; want [0 1], context.Canceled", got, last)
		}
		if n := pulled.Load(); n > 2*2+1 || late.Load() != 0 {
			t.Errorf("%d inputs pulled, %d after the stop; want at most 2×limit+1, none after the stop", n, late.Load())
		}
	})
}

// TestGraceFailFast: a failure cancels at once, grace or not.
func TestGraceFailFast(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := &work{start: time.Now()}
		boom := errors.New("boom")
		_, _, err := Run2(context.Background(),
			func(ctx context.Context) (time.Duration, error) { return w.run(ctx, time.Hour) },
			func(context.Context) (int, error) { time.Sleep(time.Second); return 0, boom },
			Grace(grace))
		if got := time.Since(w.start); got != time.Second || !errors.Is(err, boom) {
			t.Errorf("Run2 = %v at %v; want boom at 1s", err, got)
		}
	})
}

// TestGraceNested: a call nested in a function of a call with Grace stops
// taking new work at the outer stop, and its functions see Stopping.
func TestGraceNested(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := &work{start: time.Now()}
		var inner atomic.Int32
		var sibling time.Duration
		_, err := Scope(stopping(t), func(ctx context.Context, g *Group) (int, error) {
			g.Go(func(ctx context.Context) error {
				return ForEach(ctx, make([]int, 10), 1, func(ctx context.Context, _ int) error {
					inner.Add(1)
					_, err := w.run(ctx, 800*time.Millisecond)
					return err
				})
			})
			// A sibling that needs 3s: the inner call's stop is not a
			// failure, so it is not canceled.
			g.Go(func(ctx context.Context) (err error) {
				sibling, err = w.run(ctx, 3*time.Second)
				return err
			})
			return 0, nil
		}, Grace(grace))
		// Inner calls at 0 and 0.8s started before the stop at 1s; the one
		// running finishes at 1.6s, and no other starts.
		if n := inner.Load(); n != 2 {
			t.Errorf("%d inner calls; want 2", n)
		}
		if got := time.Duration(w.stopSeen.Load()); got != stopAt {
			t.Errorf("the inner call saw Stopping at %v; want %v", got, stopAt)
		}
		if got := time.Since(w.start); got != 3*time.Second || sibling != 3*time.Second {
			t.Errorf("Scope returned at %v, the sibling with %v; want 3s, 3s", got, sibling)
		}
		var ce, innerErr *CallError
		if !errors.As(err, &ce) || len(ce.Failures) != 0 || len(ce.Unfinished) != 1 ||
			!errors.As(ce.Unfinished[0].Err, &innerErr) || innerErr.NotStarted != 8 || !errors.Is(err, context.Canceled) {
			t.Errorf("Scope = %v; want no failure, children[0] stopped with the inner ForEach's 8 not started", err)
		}
		if !errors.Is(ce.Unfinished[0], ErrStopped) {
			t.Errorf("the inner error does not hold ErrStopped")
		}
	})
}

func TestGraceOption(t *testing.T) {
	if got := options("Map", famMap, []Option{Grace(time.Second), Settled, Grace(2 * time.Second)}); got.grace() != 2*time.Second || got&settled == 0 {
		t.Errorf("options(Grace(1s), Settled, Grace(2s)) = %#x; want Settled and a grace of 2s", got)
	}
	for _, d := range []time.Duration{0, -time.Second, maxGrace + 1} {
		if got := panicMessage(func() { Grace(d) }); !strings.HasPrefix(got, "task: Grace: d is "+d.String()+"; want more than 0") {
			t.Errorf("Grace(%v) panics %q", d, got)
		}
	}
}
