package main

import (
	"context"
	"iter"
	"slices"
	"sync"
)

// The floors that the API sets, beside those of the work alone
// (floors.go): code written by hand that takes what the library's call
// takes and does what its docs promise of the row's work, and nothing
// else.

// groupFloorFn is floorGroup with each child's function passed as a
// value, as Group.Go takes it: the caller's closure and the goroutine's,
// two allocations a child where floorGroup, which writes the work into the
// go statement, has one.
func groupFloorFn(n int) func(context.Context) {
	in := ints(n)
	return func(ctx context.Context) {
		s := new(fnGroup)
		for _, x := range in {
			s.goFn(ctx, func(ctx context.Context) error { return nop(ctx, x) })
		}
		s.wg.Wait()
		if s.err != nil {
			panic(s.err)
		}
	}
}

type fnGroup struct {
	wg  sync.WaitGroup
	mu  sync.Mutex
	err error
}

//go:noinline
func (s *fnGroup) goFn(ctx context.Context, fn func(context.Context) error) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		if err := fn(ctx); err != nil {
			s.mu.Lock()
			if s.err == nil {
				s.err = err
			}
			s.mu.Unlock()
		}
	}()
}

// mapSeqFloor is MapSeq by hand, with the part of what its docs promise
// that the row exercises and nothing more: the inputs pulled lazily on the
// consumer's goroutine, at most limit calls at once in limit workers, at
// most 2×limit inputs pulled ahead of the next result, and the results
// yielded in input order. It has none of the rules of failures, panics and
// cancellation, which would only add to it. The
// inputs go to the workers over one channel (of limit places) and the
// results come back over another (of 2×limit); the consumer keeps the
// results that came early in a ring. Breaking out of the loop lets the
// workers finish what they hold, and waits for them.
func mapSeqFloor(n, limit int) func(context.Context) {
	seq := slices.Values(ints(n))
	return func(ctx context.Context) {
		for v, err := range floorSeq(ctx, seq, limit, ret) {
			if err != nil {
				panic(err)
			}
			sink += v
		}
	}
}

func floorSeq(ctx context.Context, inputs iter.Seq[int], limit int, fn func(context.Context, int) (int, error)) iter.Seq2[int, error] {
	type job struct{ i, x int }
	type result struct {
		i, v int
		err  error
	}
	return func(yield func(int, error) bool) {
		window := 2 * limit
		jobs := make(chan job, limit)
		results := make(chan result, window)
		var wg sync.WaitGroup
		wg.Add(limit)
		for range limit {
			go func() {
				defer wg.Done()
				for j := range jobs {
					v, err := fn(ctx, j.x)
					results <- result{j.i, v, err}
				}
			}()
		}
		ring := make([]result, window)
		ready := make([]bool, window)
		next, pulled := 0, 0
		stop := false
		// flush yields every result now in order; take receives one more
		// first. Past a flush, the next result is not in the ring: it is
		// to come, so take does not wait in vain.
		flush := func() {
			for !stop && ready[next%window] {
				r := ring[next%window]
				ready[next%window] = false
				next++
				if !yield(r.v, r.err) {
					stop = true
				}
			}
		}
		take := func() {
			r := <-results
			ring[r.i%window], ready[r.i%window] = r, true
			flush()
		}
		for x := range inputs {
			for flush(); !stop && pulled-next >= window; {
				take()
			}
			if stop {
				break
			}
			j := job{pulled, x}
			pulled++
			for sent := false; !sent; {
				select {
				case jobs <- j:
					sent = true
				case r := <-results:
					ring[r.i%window], ready[r.i%window] = r, true
				}
			}
		}
		close(jobs)
		for flush(); !stop && next < pulled; {
			take()
		}
		go func() { wg.Wait(); close(results) }()
		for range results {
		}
	}
}
