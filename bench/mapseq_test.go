package bench

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
	"time"

	"github.com/sourcegraph/conc/stream"

	"github.com/tasktuple/task"
)

// Streaming: a sequence of inputs, produced one at a time as a reader of a
// file or of an API's pages would, mapped by a trivial function with at most
// streamLimit calls at once, each result handed to the consumer. Every
// implementation reads the same iter.Seq; task.Map, which takes a slice,
// collects it first, as a caller with a stream would have to.

// streamNs are the numbers of inputs measured.
var streamNs = []int{1000, 1_000_000}

const streamLimit = 8

// A streamCase is one implementation of the stream. run calls use with
// each result, in input order if ordered.
type streamCase struct {
	impl    string
	ordered bool
	run     func(ctx context.Context, inputs iter.Seq[int], limit int, fn func(context.Context, int) (int, error), use func(int)) error
}

var streamCases = []streamCase{
	{"floor", true, floorStream},
	{"pipeline", true, pipelineOrdered},
	{"pipeline-unordered", false, pipelineUnordered},
	{"conc-stream", true, concStream},
	{"task-map", true, taskMap},
	{"task-mapseq", true, taskMapSeq},
	{"task-mapseq-unordered", false, taskMapSeqUnordered},
}

// double is the trivial function of the streams.
func double(_ context.Context, in int) (int, error) { return 2 * in, nil }

// count yields 0, 1, ..., n-1.
func count(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := range n {
			if !yield(i) {
				return
			}
		}
	}
}

func taskMapSeq(ctx context.Context, inputs iter.Seq[int], limit int, fn func(context.Context, int) (int, error), use func(int)) error {
	for v, err := range task.MapSeq(ctx, inputs, limit, fn) {
		if err != nil {
			return err
		}
		use(v)
	}
	return nil
}

func taskMapSeqUnordered(ctx context.Context, inputs iter.Seq[int], limit int, fn func(context.Context, int) (int, error), use func(int)) error {
	for v, err := range task.MapSeqUnordered(ctx, inputs, limit, fn) {
		if err != nil {
			return err
		}
		use(v)
	}
	return nil
}

// taskMap collects the inputs into a slice, maps it, then hands the results
// on: the whole input and the whole output are in memory at once.
func taskMap(ctx context.Context, inputs iter.Seq[int], limit int, fn func(context.Context, int) (int, error), use func(int)) error {
	out, err := task.Map(ctx, slices.Collect(inputs), limit, fn)
	if err != nil {
		return err
	}
	for _, v := range out {
		use(v)
	}
	return nil
}

// concStream is conc's ordered stream: each task returns a callback, which
// conc calls in submission order on one goroutine.
func concStream(ctx context.Context, inputs iter.Seq[int], limit int, fn func(context.Context, int) (int, error), use func(int)) error {
	s := stream.New().WithMaxGoroutines(limit)
	var first error // written by the callbacks only, which run one at a time
	for in := range inputs {
		s.Go(func() stream.Callback {
			v, err := fn(ctx, in)
			return func() {
				switch {
				case first != nil:
				case err != nil:
					first = err
				default:
					use(v)
				}
			}
		})
	}
	s.Wait()
	return first
}

// floorWindow is the number of inputs floorStream maps between two waits:
// at 2×limit, as many as MapSeq pulls ahead, the waits make a stream of a
// function that returns at once two to three times slower; at 256 they are
// a small part of its time, and the window, its outputs, errors and the
// channel's buffer, is about 12 KiB, however long the stream.
const floorWindow = 256

// floorStream is what an expert writes by hand for this one site: limit
// workers started once, reading numbered inputs from a channel and writing
// each output and error to its index of a window; the caller's goroutine
// sends a window's inputs as it pulls them, waits for the window on one
// sync.WaitGroup, and hands its outputs on in input order before the next.
// No producer goroutine, no reordering map, no cancellation: at the first
// error, in input order, it stops pulling inputs and returns it. A slow
// call holds up its whole window, which a function that returns at once
// never does: a floor for this site, not a general design.
func floorStream(ctx context.Context, inputs iter.Seq[int], limit int, fn func(context.Context, int) (int, error), use func(int)) error {
	type job struct{ i, in int }
	w := &struct {
		wg   sync.WaitGroup // counts the window's calls that have not returned
		outs []int          // written by the workers; read after wg.Wait
		errs []error
	}{outs: make([]int, floorWindow), errs: make([]error, floorWindow)}
	jobs := make(chan job, floorWindow)
	var workers sync.WaitGroup
	for range limit {
		workers.Go(func() {
			for j := range jobs {
				w.outs[j.i], w.errs[j.i] = fn(ctx, j.in)
				w.wg.Done()
			}
		})
	}
	defer workers.Wait()
	defer close(jobs)
	// flush waits for the first k inputs of the window and hands them on.
	flush := func(k int) error {
		w.wg.Wait()
		for i, out := range w.outs[:k] {
			if err := w.errs[i]; err != nil {
				return err
			}
			use(out)
		}
		return nil
	}
	k := 0
	for in := range inputs {
		w.wg.Add(1)
		jobs <- job{k, in}
		if k++; k == floorWindow {
			if err := flush(k); err != nil {
				return err
			}
			k = 0
		}
	}
	return flush(k)
}

func pipelineOrdered(ctx context.Context, inputs iter.Seq[int], limit int, fn func(context.Context, int) (int, error), use func(int)) error {
	return pipeline(ctx, inputs, limit, fn, true, use)
}

func pipelineUnordered(ctx context.Context, inputs iter.Seq[int], limit int, fn func(context.Context, int) (int, error), use func(int)) error {
	return pipeline(ctx, inputs, limit, fn, false, use)
}

// pipeline is the channel pipeline Go programmers write by hand: a producer
// goroutine sends the numbered inputs to limit workers, which send the
// results to the consumer; in order, the consumer holds early results in a
// map until the ones before them come. The first error cancels the rest.
func pipeline(ctx context.Context, inputs iter.Seq[int], limit int, fn func(context.Context, int) (int, error), ordered bool, use func(int)) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type job struct{ i, in int }
	type result struct {
		i, out int
		err    error
	}
	jobs := make(chan job)
	results := make(chan result, limit)
	go func() {
		defer close(jobs)
		i := 0
		for in := range inputs {
			select {
			case jobs <- job{i, in}:
			case <-ctx.Done():
				return
			}
			i++
		}
	}()
	var wg sync.WaitGroup
	for range limit {
		wg.Go(func() {
			for j := range jobs {
				out, err := fn(ctx, j.in)
				results <- result{j.i, out, err}
			}
		})
	}
	go func() {
		wg.Wait()
		close(results)
	}()
	var first error
	pending := map[int]int{}
	next := 0
	for r := range results {
		switch {
		case first != nil:
			// drain
		case r.err != nil:
			first = r.err
			cancel()
		case !ordered:
			use(r.out)
		default:
			pending[r.i] = r.out
			for {
				v, ok := pending[next]
				if !ok {
					break
				}
				delete(pending, next)
				use(v)
				next++
			}
		}
	}
	return first
}

// BenchmarkStream maps a stream of n inputs with every implementation.
// Names are key=value: impl, n, limit.
func BenchmarkStream(b *testing.B) {
	ctx := context.Background()
	for _, n := range streamNs {
		for _, c := range streamCases {
			b.Run(fmt.Sprintf("impl=%s/n=%d/limit=%d", c.impl, n, streamLimit), func(b *testing.B) {
				b.ReportAllocs()
				for range b.N {
					sum := 0
					if err := c.run(ctx, count(n), streamLimit, double, func(v int) { sum += v }); err != nil {
						b.Fatal(err)
					}
					sinks.int = sum
				}
			})
		}
	}
}

// BenchmarkStreamHeap measures the heap of each implementation over a
// stream of n inputs, with two metrics:
//
//   - peak-heap-B: the most the heap's objects took during a run
//     (runtime.MemStats.HeapAlloc, read every millisecond by another
//     goroutine and once more at the end) above what they took after a
//     collection just before it, the mean over the iterations: the memory a
//     process sees, garbage awaiting the collector included, which at the
//     default GOGC may reach the collector's 4 MB minimum heap goal whatever
//     the implementation holds.
//   - held-heap-B: the most the heap's objects took right after a full
//     collection (runtime.GC), done by the consumer at every hundredth of
//     the results, above what they took before the run: the memory the
//     implementation holds while it streams, garbage left out. This is the
//     figure that must not grow with n.
//
// runtime.ReadMemStats stops the world, but it is exact: runtime/metrics'
// /memory/classes/heap/objects:bytes, which does not stop it, counts the
// small objects of a span only when the span leaves a P's cache, and
// reads 0 B for a stream of 1,000 inputs that allocates 50 KB.
//
// The two are measured in separate runs, as a collection in the middle of
// a run would lower its peak. The times are those of runs that start with
// a collection and have a sampler beside them: read BenchmarkStream's.
func BenchmarkStreamHeap(b *testing.B) {
	ctx := context.Background()
	for _, n := range streamNs {
		for _, c := range streamCases {
			b.Run(fmt.Sprintf("impl=%s/n=%d/limit=%d", c.impl, n, streamLimit), func(b *testing.B) {
				total := uint64(0)
				for range b.N {
					total += peakHeap(ctx, c, n)
				}
				b.ReportMetric(float64(total)/float64(b.N), "peak-heap-B")
				b.ReportMetric(float64(heldHeap(ctx, c, n)), "held-heap-B")
			})
		}
	}
}

// peakHeap runs c over n inputs with a heapSampler beside it, and returns
// the most the heap's objects took, above what they took before.
func peakHeap(ctx context.Context, c streamCase, n int) uint64 {
	runtime.GC()
	base := heapObjects()
	s := startHeapSampler()
	sum := 0
	if err := c.run(ctx, count(n), streamLimit, double, func(v int) { sum += v }); err != nil {
		panic(err)
	}
	sinks.int = sum
	return max(s.stop(), base) - base
}

// heldHeap runs c over n inputs, collects the garbage at every hundredth
// of the results, and returns the most the heap's objects took then, above
// what they took before.
func heldHeap(ctx context.Context, c streamCase, n int) uint64 {
	runtime.GC()
	base := heapObjects()
	held := uint64(0)
	every := max(n/100, 1)
	got := 0
	use := func(int) {
		got++
		if got%every == 0 {
			runtime.GC()
			held = max(held, heapObjects())
		}
	}
	if err := c.run(ctx, count(n), streamLimit, double, use); err != nil {
		panic(err)
	}
	return max(held, base) - base
}

// heapObjects is the memory the heap's objects take now, live or not yet
// swept.
func heapObjects() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// A heapSampler reads heapObjects on its own goroutine until stopped, and
// keeps the highest value.
type heapSampler struct {
	quit chan struct{}
	done chan struct{}
	peak atomic.Uint64
}

func startHeapSampler() *heapSampler {
	s := &heapSampler{quit: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			if v := heapObjects(); v > s.peak.Load() {
				s.peak.Store(v)
			}
			select {
			case <-s.quit:
				return
			case <-t.C:
			}
		}
	}()
	return s
}

// stop ends the sampling and returns the peak.
func (s *heapSampler) stop() uint64 {
	close(s.quit)
	<-s.done
	if v := heapObjects(); v > s.peak.Load() {
		s.peak.Store(v)
	}
	return s.peak.Load()
}

// TestStreamCases checks that every implementation hands on every result,
// in input order when it says so, and stops at the first error.
func TestStreamCases(t *testing.T) {
	ctx := context.Background()
	const n = 1000
	for _, c := range streamCases {
		var got []int
		if err := c.run(ctx, count(n), 4, double, func(v int) { got = append(got, v) }); err != nil {
			t.Fatalf("%s: %v", c.impl, err)
		}
		if !c.ordered {
			slices.Sort(got)
		}
		for i, v := range got {
			if v != 2*i {
				t.Fatalf("%s: result %d is %d; want %d (ordered: %v)", c.impl, i, v, 2*i, c.ordered)
			}
		}
		if len(got) != n {
			t.Errorf("%s: %d results; want %d", c.impl, len(got), n)
		}
		err := c.run(ctx, count(n), 4, func(ctx context.Context, in int) (int, error) {
			if in == 10 {
				return 0, errUnexpected
			}
			return in, nil
		}, func(int) {})
		if !errors.Is(err, errUnexpected) {
			t.Errorf("%s with a failing input: err = %v; want errUnexpected", c.impl, err)
		}
	}
}
