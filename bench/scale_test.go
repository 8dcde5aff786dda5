package bench

import (
	"context"
	"fmt"
	"testing"

	"github.com/tasktuple/task"
)

// scaleNs are the numbers of tasks or inputs of BenchmarkScale: the costs
// it measures must be the same at both.
var scaleNs = []int{1000, 100_000}

// BenchmarkScale measures the costs of issue 13 that must not grow with
// the number of tasks. Names are key=value: impl, n, mode.
//
// impl=task-wheneach: one op is one range over task.WhenEach of n tasks,
// to the end; allocs/op is what one range allocates. Had the compiler not
// inlined task.WhenEach into the range, that would include the loop body,
// made a closure, and the range's state, which the closure captures (go
// build -gcflags=-m: "moved to heap: #state1", "func literal escapes to
// heap"); it does inline it (the core's TestFastPathInlined). The body
// updates package variables only, so that no local of the benchmark moves
// to the heap with it.
//
//   - mode=completed: the tasks are made once, complete, before
//     the timer starts; the op is the range alone.
//   - mode=pending: each op makes n tasks with task.Promise and completes
//     the last one, so that the range has something to yield first, then
//     starts a goroutine that waits for that first yield and completes the
//     others in order while the range waits for them: every task but the
//     last is registered with the range while pending, and woken by its
//     completion. The sources, their slice, the channel and the goroutine
//     are made with the timer stopped (testing.B.StopTimer also stops the
//     count of allocations), so they are not counted. What is counted is
//     the range (WhenEach's iterator, the registrations and the waits) and
//     the completer's calls to complete, which run while the timer runs:
//     the wake-ups they make are part of what a pending range costs.
//
// impl=task-map, mode=limit8: one op is task.Map over n ints, at most 8
// calls at once, of a function that returns at once; the inputs are made
// once. ns/input is the time per op divided by n.
func BenchmarkScale(b *testing.B) {
	ctx := context.Background()
	for _, n := range scaleNs {
		b.Run(fmt.Sprintf("impl=task-wheneach/n=%d/mode=completed", n), func(b *testing.B) {
			tasks := make([]*task.Task[int], n)
			for i := range tasks {
				tasks[i] = completed(i)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				rangeWhenEach(b, ctx, tasks)
			}
		})
		b.Run(fmt.Sprintf("impl=task-wheneach/n=%d/mode=pending", n), func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				b.StopTimer()
				srcs := make([]func(int, error) bool, n)
				tasks := make([]*task.Task[int], n)
				for i := range srcs {
					tasks[i], srcs[i] = task.Promise[int]()
				}
				srcs[n-1](n-1, nil)
				first := make(chan struct{})
				go completeInOrder(first, srcs[:n-1])
				b.StartTimer()
				rangeWhenEachSignal(b, ctx, tasks, first)
			}
		})
	}
	for _, n := range scaleNs {
		b.Run(fmt.Sprintf("impl=task-map/n=%d/mode=limit8", n), func(b *testing.B) {
			inputs := make([]int, n)
			for i := range inputs {
				inputs[i] = i
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				out, err := task.Map(ctx, inputs, 8, double)
				if err != nil || len(out) != n {
					b.Fatalf("Map: %d results, err %v; want %d, nil", len(out), err, n)
				}
				sinks.int = out[n-1]
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/input")
		})
	}
}

// rangeWhenEach ranges over WhenEach of tasks to the end and checks that
// every task came.
func rangeWhenEach(b *testing.B, ctx context.Context, tasks []*task.Task[int]) {
	rangeWhenEachSignal(b, ctx, tasks, nil)
}

// The tallies of rangeWhenEachSignal's range are package variables: the
// body of a range over a function is a closure, which escapes when the
// function is not inlined, and the locals it would update would move to
// the heap with it, adding allocations of the benchmark's own to the
// range's.
var (
	whenEachYields int             // tasks the range yielded
	whenEachFirst  chan<- struct{} // closed at the first yield, if not nil
	whenEachSum    int             // of the positions yielded
)

// rangeWhenEachSignal is rangeWhenEach that closes first, if not nil, at
// the first task the range yields.
func rangeWhenEachSignal(b *testing.B, ctx context.Context, tasks []*task.Task[int], first chan<- struct{}) {
	whenEachYields, whenEachFirst, whenEachSum = 0, first, 0
	for i := range task.WhenEach(ctx, tasks) {
		if whenEachYields == 0 && whenEachFirst != nil {
			close(whenEachFirst)
		}
		whenEachYields++
		whenEachSum += i
	}
	if whenEachYields != len(tasks) {
		b.Fatalf("WhenEach yielded %d tasks; want %d", whenEachYields, len(tasks))
	}
	sinks.int = whenEachSum
}

// completeInOrder completes the tasks of srcs in order, with their
// positions, once first is closed.
func completeInOrder(first <-chan struct{}, srcs []func(int, error) bool) {
	<-first
	for i, complete := range srcs {
		complete(i, nil)
	}
}

// completed returns a task that has succeeded with v.
func completed[T any](v T) *task.Task[T] {
	t, complete := task.Promise[T]()
	complete(v, nil)
	return t
}
