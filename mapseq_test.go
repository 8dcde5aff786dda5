package task

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

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

func TestMapSeqOrder(t *testing.T) {
	for _, ordered := range []bool{true, false} {
		synctest.Test(t, func(t *testing.T) {
			var pulled, running, peak atomic.Int32
			seq := MapSeqUnordered[int, int]
			if ordered {
				seq = MapSeq[int, int]
			}
			var got []int
			for v, err := range seq(context.Background(), counting(50, &pulled), 4, func(_ context.Context, i int) (int, error) {
				n := running.Add(1)
				for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
				}
				time.Sleep(time.Duration(50-i) * time.Millisecond) // later inputs return first
				running.Add(-1)
				return i * i, nil
			}) {
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, v)
			}
			want := make([]int, 50)
			for i := range want {
				want[i] = i * i
			}
			if !ordered {
				slices.Sort(got)
			}
			if !slices.Equal(got, want) || peak.Load() > 4 {
				t.Errorf("ordered=%v: got %v, peak %d", ordered, got, peak.Load())
			}
		})
	}
}

// TestMapSeqLazy: inputs are pulled at most 2×limit ahead of the results
// yielded (limit ahead, unordered), and breaking out cancels and waits.
func TestMapSeqLazy(t *testing.T) {
	for _, ordered := range []bool{true, false} {
		synctest.Test(t, func(t *testing.T) {
			var pulled, running atomic.Int32
			seq := MapSeqUnordered[int, int]
			ahead := int32(3)
			if ordered {
				seq, ahead = MapSeq[int, int], 6
			}
			yielded := int32(0)
			for range seq(context.Background(), counting(1000, &pulled), 3, func(ctx context.Context, i int) (int, error) {
				running.Add(1)
				defer running.Add(-1)
				switch {
				case i == 0:
					time.Sleep(time.Second) // holds back the ordered stream
				case i > 5:
					<-ctx.Done() // until the loop breaks out
					return 0, ctx.Err()
				}
				return i, nil
			}) {
				yielded++
				synctest.Wait()
				if p := pulled.Load(); p > yielded+ahead {
					t.Errorf("ordered=%v: %d pulled with %d yielded", ordered, p, yielded)
				}
				if yielded == 3 {
					break
				}
			}
			if running.Load() != 0 {
				t.Errorf("ordered=%v: %d calls still running after break", ordered, running.Load())
			}
		})
	}
}

func TestMapSeqFailures(t *testing.T) {
	boom := errors.New("boom")
	fn := func(ctx context.Context, i int) (int, error) {
		switch {
		case i == 3:
			return 0, boom
		case i > 3:
			<-ctx.Done() // canceled by the failure
			return 0, ctx.Err()
		}
		return i, nil
	}
	synctest.Test(t, func(t *testing.T) {
		var pulled atomic.Int32
		var got []string
		for v, err := range MapSeq(context.Background(), counting(100, &pulled), 2, fn) {
			got = append(got, fmt.Sprint(v, " ", err))
		}
		want := []string{"0 <nil>", "1 <nil>", "2 <nil>", "0 task: MapSeq: inputs[3]: boom"}
		if !slices.Equal(got, want) || pulled.Load() > 8 {
			t.Errorf("got %q, pulled %d; want %q", got, pulled.Load(), want)
		}
	})
	t.Run("KeepGoing", func(t *testing.T) {
		var got []error
		for _, err := range MapSeq(context.Background(), slices.Values([]int{0, 1, 2, 3}), 2, func(_ context.Context, i int) (int, error) {
			if i%2 == 1 {
				return 0, boom
			}
			return i, nil
		}, KeepGoing) {
			got = append(got, err)
		}
		var pe *PositionError
		if len(got) != 4 || got[0] != nil || !errors.As(got[3], &pe) || pe.Index != 3 {
			t.Errorf("got %v; want every input, failures with their index", got)
		}
	})
	t.Run("ctx ends", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		var last error
		n := 0
		for _, err := range MapSeq(ctx, slices.Values([]int{0, 1, 2, 3, 4, 5}), 1, func(_ context.Context, i int) (int, error) {
			if i == 1 {
				cancel()
			}
			return i, nil
		}) {
			n++
			last = err
		}
		if n != 3 || !errors.Is(last, context.Canceled) {
			t.Errorf("%d yields, last %v; want 2 results and the context error", n, last)
		}
	})
}

func TestMapSeqPanicAndGoexit(t *testing.T) {
	r := recoverFrom(func() {
		for range MapSeq(context.Background(), slices.Values([]int{0, 1, 2}), 3, func(_ context.Context, i int) (int, error) {
			if i == 1 {
				panic("bad input")
			}
			return i, nil
		}) {
		}
	})
	if pe, ok := r.(*PanicError); !ok || pe.Value != "bad input" || pe.Arg != "inputs[1]" || pe.Call != "MapSeq" {
		t.Errorf("recovered %v; want inputs[1]'s panic", r)
	}
	e := endingOf(func() {
		for range MapSeqUnordered(context.Background(), slices.Values([]int{0, 1}), 1, func(_ context.Context, i int) (int, error) {
			runtime.Goexit()
			return 0, nil
		}) {
		}
	})
	if !e.exited {
		t.Errorf("ended %+v; want the Goexit repeated", e)
	}
	for _, c := range []struct{ got, want string }{
		{catch(func() {
			MapSeq(context.Background(), slices.Values([]int{}), 0, func(context.Context, int) (int, error) { return 0, nil })
		}), "task: MapSeq: limit is 0; want at least 1"},
		{catch(func() { MapSeq[int, int](context.Background(), nil, 1, nil) }), "task: MapSeq: inputs is nil"},
	} {
		if c.got != c.want {
			t.Errorf("panic %q; want %q", c.got, c.want)
		}
	}
}

// TestMapSeqHeapFlat: memory does not grow with the number of inputs.
func TestMapSeqAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	ctx := context.Background()
	per := func(n int) float64 {
		return testing.AllocsPerRun(5, func() {
			for range MapSeq(ctx, counting(n, new(atomic.Int32)), 4, func(_ context.Context, i int) (int, error) { return i, nil }) {
			}
		}) / float64(n)
	}
	// The workers start once per range: nothing per input.
	if a := per(10000); a > 0.01 {
		t.Errorf("%.3f allocations per input; want 0", a)
	}
}
