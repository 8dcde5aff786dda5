//go:build go1.25

package task

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

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
		}), "task: MapSeq: limit is 0; want at least 1, or a negative limit for none"},
		{catch(func() { MapSeq[int, int](context.Background(), nil, 1, nil) }), "task: MapSeq: inputs is nil"},
	} {
		if c.got != c.want {
			t.Errorf("panic %q; want %q", c.got, c.want)
		}
	}
}

// Counted proofs of MapSeq's rules (issue 9, item 7): the limit, the reorder
// window and the lazy pull, a break out of the loop, with the test
// releasing every call itself; and regression tests of the bugs found on
// the way.

// TestMapSeqLimitCounted: never more than limit calls at once; inputs
// pulled lazily, never more than the window ahead of the next result to
// yield (MapSeq: 2×limit; MapSeqUnordered: limit); results in
// input order, or in the order the calls return; and, when the loop breaks
// out, every call has returned when the loop statement ends and nothing
// more is pulled. The test releases one running call at a time: the oldest,
// the newest (which fills the window), or one drawn from a fixed seed.
func TestMapSeqLimitCounted(t *testing.T) {
	for _, ordered := range []bool{true, false} {
		for limit := 1; limit <= 4; limit++ {
			for _, rule := range []string{"oldest", "newest", "drawn"} {
				for _, breakAfter := range []int{0, 5} {
					name := fmt.Sprintf("ordered=%v/limit=%d/release=%s/break=%d", ordered, limit, rule, breakAfter)
					t.Run(name, func(t *testing.T) {
						synctest.Test(t, func(t *testing.T) { countMapSeq(t, ordered, limit, rule, breakAfter) })
					})
				}
			}
		}
	}
}

func countMapSeq(t *testing.T, ordered bool, limit int, rule string, breakAfter int) {
	const n = 12
	window := limit
	seq := MapSeqUnordered[int, int]
	if ordered {
		window = 2 * limit
		seq = MapSeq[int, int]
	}
	var (
		mu       sync.Mutex // guards the fields below
		started  int
		yielded  int
		running  []int // inputs whose call runs, in the order they started
		peak     int
		released []int // in the order the test released them
		broke    bool
		ahead    int // the most inputs pulled ahead of the next result to yield
	)
	gates := make([]chan struct{}, n)
	for i := range gates {
		gates[i] = make(chan struct{})
	}
	inputs := func(yield func(int) bool) {
		for i := range n {
			mu.Lock()
			ahead = max(ahead, i-yielded)
			if broke || i-yielded > window {
				t.Errorf("input %d pulled with %d yielded, broken out: %v; window %d", i, yielded, broke, window)
			}
			mu.Unlock()
			if !yield(i) {
				return
			}
		}
	}
	fn := func(ctx context.Context, i int) (int, error) {
		mu.Lock()
		started++
		running = append(running, i)
		peak = max(peak, len(running))
		if len(running) > limit || started-yielded > window {
			t.Errorf("input %d started with %d running, %d started, %d yielded; limit %d, window %d",
				i, len(running), started, yielded, limit, window)
		}
		mu.Unlock()
		defer func() {
			mu.Lock()
			running = slices.DeleteFunc(running, func(j int) bool { return j == i })
			mu.Unlock()
		}()
		select {
		case <-gates[i]:
			return i * i, nil
		case <-ctx.Done(): // the loop broke out
			return 0, ctx.Err()
		}
	}
	var got []int
	done := make(chan struct{})
	go func() {
		defer close(done)
		for v, err := range seq(context.Background(), inputs, limit, fn) {
			if err != nil {
				t.Errorf("yielded %v", err)
			}
			mu.Lock()
			yielded++
			mu.Unlock()
			got = append(got, v)
			if len(got) == breakAfter {
				break
			}
		}
		mu.Lock()
		broke = true
		if len(running) > 0 {
			t.Errorf("calls %v still running when the loop statement ended", running)
		}
		mu.Unlock()
	}()
	seed := uint32(limit)
	for {
		synctest.Wait()
		select {
		case <-done:
		default:
			mu.Lock()
			if len(running) == 0 {
				mu.Unlock()
				t.Fatal("no call runs, and the loop has not ended")
			}
			var i int
			switch rule {
			case "oldest":
				i = slices.Min(running)
			case "newest":
				i = slices.Max(running)
			default:
				seed = seed*1664525 + 1013904223
				i = running[int(seed>>16)%len(running)]
			}
			released = append(released, i)
			mu.Unlock()
			close(gates[i])
			continue
		}
		break
	}
	want := make([]int, 0, n)
	if ordered {
		for i := range n {
			want = append(want, i*i)
		}
	} else {
		for _, i := range released {
			want = append(want, i*i)
		}
	}
	if breakAfter > 0 {
		want = want[:breakAfter]
	}
	if !slices.Equal(got, want) || peak != limit {
		t.Errorf("got %v, at most %d calls at once; want %v, %d at once", got, peak, want, limit)
	}
	// Releasing the newest first fills the window (in order, it takes two
	// calls running: one holding the others back).
	if rule == "newest" && (limit > 1 || !ordered) && ahead != window {
		t.Errorf("at most %d inputs pulled ahead of the next result; want the window, %d, used", ahead, window)
	}
}

// TestMapSeqUnorderedPanicInInputOrder: MapSeqUnordered is MapSeq yielding
// in the order the calls return; a panic is passed on as MapSeq's is: "the
// first panic in input order, as a *PanicError holding what else was not
// yielded" (and CallError.Failures are in argument order).
//
// Bug: the stream collects the panics in the order the calls return, so
// MapSeqUnordered raises the first panic to return, and its Others are in
// that order.
func TestMapSeqUnorderedPanicInInputOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		gates := []chan struct{}{make(chan struct{}), make(chan struct{})}
		var e ending
		done := make(chan struct{})
		go func() {
			defer close(done)
			e = endingOf(func() {
				for range MapSeqUnordered(context.Background(), slices.Values([]int{0, 1}), 2, func(_ context.Context, i int) (int, error) {
					<-gates[i]
					panic(fmt.Sprint("bug ", i))
				}) {
				}
			})
		}()
		synctest.Wait()
		close(gates[1]) // inputs[1] panics first
		synctest.Wait()
		close(gates[0])
		<-done
		pe, ok := e.panicVal.(*PanicError)
		if !ok || pe.Others == nil {
			t.Fatalf("the loop ended %+v; want a *PanicError holding the other", e)
		}
		if pe.Arg != "inputs[0]" || !slices.Equal(indexes(pe.Others.Failures), []int{1}) {
			t.Errorf("recovered the panic of %s holding %v; want inputs[0]'s holding [1]", pe.Arg, indexes(pe.Others.Failures))
		}
	})
}

// TestMapSeqLoopPanicNotLost: a panic in the body of the loop over MapSeq
// goes on out of the loop after the calls have returned. A Goexit that a
// call made before does not replace it: a panic outranks a Goexit, and a
// panic is never lost (doc.go, Panics and Goexit).
//
// Bug: the stream's deferred close passes the call's Goexit on by calling
// runtime.Goexit while the loop body's panic unwinds, which ends the
// panic: the consumer's goroutine exits quietly, and the panic is lost.
// (A call's panic likewise replaces the loop body's panic, which is then
// nowhere in what is recovered; the docs say nothing of that case.)
func TestMapSeqLoopPanicNotLost(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		gate := make(chan struct{})
		e := endingOf(func() {
			for range MapSeq(context.Background(), slices.Values([]int{0, 1}), 2, func(_ context.Context, i int) (int, error) {
				if i == 1 {
					<-gate
					runtime.Goexit()
				}
				return i, nil
			}) {
				close(gate)
				synctest.Wait() // inputs[1] has called Goexit
				panic("loop body bug")
			}
		})
		if e.panicVal != "loop body bug" {
			t.Errorf("the loop ended %+v; want the loop body's panic", e)
		}
	})
}

// TestMapSeqKeepGoingProcessesEveryInput: "MapSeq has the rules of Map", and Map with
// KeepGoing processes every input, "even when a call calls
// runtime.Goexit"; MapSeq's own comment says "With KeepGoing every input is
// processed".
//
// Disagreement: a panic or a Goexit ends the stream: no input is started
// after it, with KeepGoing too. Either the code or MapSeq's doc comment
// (which also says a panic or Goexit "stops the yields") should change.
func TestMapSeqKeepGoingProcessesEveryInput(t *testing.T) {
	for _, what := range []string{"goexit", "panic"} {
		var calls atomic.Int32
		var in iter.Seq[int] = slices.Values([]int{0, 1, 2, 3, 4})
		e := endingOf(func() {
			for range MapSeq(context.Background(), in, 1, func(_ context.Context, i int) (int, error) {
				calls.Add(1)
				if i == 1 {
					if what == "panic" {
						panic("bug")
					}
					runtime.Goexit()
				}
				return i, nil
			}, KeepGoing) {
			}
		})
		if calls.Load() != 5 || e.returned {
			t.Errorf("%s: %d inputs processed, the loop ended %+v; want 5, then the %s passed on", what, calls.Load(), e, what)
		}
	}
}

// TestMapSeqWorkersReplaced: the calls run on workers kept for the range; a
// worker that a call's runtime.Goexit ends (also when a deferred function
// panics while the Goexit unwinds, which the call records as a panic) is
// replaced, so with KeepGoing every input is still processed when every
// worker dies, at every limit, in both forms (TestMain checks that no
// worker outlives the tests).
func TestMapSeqWorkersReplaced(t *testing.T) {
	for _, ending := range []string{"goexit", "goexit then panic", "panic"} {
		for _, ordered := range []bool{true, false} {
			for limit := 1; limit <= 3; limit++ {
				var calls atomic.Int32
				seq := MapSeq[int, int]
				if !ordered {
					seq = MapSeqUnordered[int, int]
				}
				e := endingOf(func() {
					for range seq(context.Background(), slices.Values(make([]int, 20)), limit, func(ctx context.Context, _ int) (int, error) {
						if calls.Add(1)%2 == 0 {
							switch ending {
							case "goexit":
								runtime.Goexit()
							case "panic":
								panic("boom")
							}
							return goexitThenPanic(ctx)
						}
						return 0, nil
					}, KeepGoing) {
					}
				})
				passedOn := e.exited
				if ending != "goexit" {
					passedOn = e.panicVal != nil
				}
				if calls.Load() != 20 || !passedOn {
					t.Errorf("%s, ordered=%v, limit=%d: %d inputs processed, the loop ended %+v; want 20, then the %s passed on",
						ending, ordered, limit, calls.Load(), e, ending)
				}
			}
		}
	}
}

// TestMapSeqStartsEveryCall: calls that block run up to the limit at once,
// also when the inputs are handed over faster than the workers start and
// with one P: a worker that takes an input wakes another for those left,
// so that a call that blocks holds nothing back. synctest reports a stall
// as a deadlock.
func TestMapSeqStartsEveryCall(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2} {
		runtime.GOMAXPROCS(procs)
		for _, ordered := range []bool{true, false} {
			for _, limit := range []int{1, 2, 5, 8} {
				name := fmt.Sprintf("procs=%d/ordered=%v/limit=%d", procs, ordered, limit)
				synctest.Test(t, func(t *testing.T) {
					seq := MapSeqUnordered[int, int]
					if ordered {
						seq = MapSeq[int, int]
					}
					var started atomic.Int32
					all := make(chan struct{}) // closed once limit calls run
					n := 0
					for _, err := range seq(context.Background(), counting(3*limit, new(atomic.Int32)), limit, func(_ context.Context, i int) (int, error) {
						if started.Add(1) == int32(limit) {
							close(all)
						}
						<-all
						return i, nil
					}) {
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						n++
					}
					if n != 3*limit {
						t.Errorf("%s: %d results; want %d", name, n, 3*limit)
					}
				})
			}
		}
	}
}

// TestMapSeqHandoffStress runs many short streams whose calls return at
// once, yield or sleep, at every limit from 1 to 9, with one P and two:
// every result comes once, in order for MapSeq, and a loop that breaks out
// finds every call it started returned. Run it with -race.
func TestMapSeqHandoffStress(t *testing.T) {
	n := 2000
	if testing.Short() || raceEnabled {
		n = 300
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2} {
		runtime.GOMAXPROCS(procs)
		for _, ordered := range []bool{true, false} {
			for limit := 1; limit <= 9; limit++ {
				seq := MapSeqUnordered[int, int]
				if ordered {
					seq = MapSeq[int, int]
				}
				var running atomic.Int32
				fn := func(_ context.Context, i int) (int, error) {
					running.Add(1)
					defer running.Add(-1)
					switch i % 7 {
					case 0:
						runtime.Gosched()
					case 3:
						time.Sleep(time.Microsecond)
					}
					return 2 * i, nil
				}
				var got []int
				for v, err := range seq(context.Background(), counting(n, new(atomic.Int32)), limit, fn) {
					if err != nil {
						t.Fatal(err)
					}
					got = append(got, v)
				}
				if !ordered {
					slices.Sort(got)
				}
				for i, v := range got {
					if v != 2*i {
						t.Fatalf("procs=%d, ordered=%v, limit=%d: result %d is %d; want %d (%d results)", procs, ordered, limit, i, v, 2*i, len(got))
					}
				}
				if len(got) != n {
					t.Fatalf("procs=%d, ordered=%v, limit=%d: %d results; want %d", procs, ordered, limit, len(got), n)
				}
				k := 0
				for range seq(context.Background(), counting(n, new(atomic.Int32)), limit, fn) {
					if k++; k == n/3 {
						break
					}
				}
				if r := running.Load(); r != 0 {
					t.Fatalf("procs=%d, ordered=%v, limit=%d: %d calls running after the loop broke out", procs, ordered, limit, r)
				}
			}
		}
	}
}

// BenchmarkMapSeq maps n inputs with a function that returns its input at
// once, limit 8, with Map over a slice of the same inputs as the baseline:
// the time per input of the streaming forms against Map's (ns/task).
func BenchmarkMapSeq(b *testing.B) {
	ctx := context.Background()
	fn := func(_ context.Context, x int) (int, error) { return x, nil }
	for _, n := range []int{1_000, 1_000_000} {
		b.Run(fmt.Sprintf("impl=map/n=%d/limit=8", n), func(b *testing.B) {
			in := make([]int, n)
			perTask(b, n, func() { Map(ctx, in, 8, fn) })
		})
		for _, impl := range []struct {
			name string
			seq  func(context.Context, iter.Seq[int], int, func(context.Context, int) (int, error), ...Option) iter.Seq2[int, error]
		}{{"mapseq", MapSeq[int, int]}, {"unordered", MapSeqUnordered[int, int]}} {
			b.Run(fmt.Sprintf("impl=%s/n=%d/limit=8", impl.name, n), func(b *testing.B) {
				inputs := func(yield func(int) bool) {
					for i := range n {
						if !yield(i) {
							return
						}
					}
				}
				perTask(b, n, func() {
					for _, err := range impl.seq(ctx, inputs, 8, fn) {
						if err != nil {
							b.Fatal(err)
						}
					}
				})
			})
		}
	}
}
