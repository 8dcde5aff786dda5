package task

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"testing/synctest"
)

func TestWhenAny(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srcs, tasks := sources(5)
		ctx := context.Background()
		var i int
		var err error
		done := make(chan struct{})
		go func() { i, err = WhenAny(ctx, tasks); close(done) }()
		synctest.Wait()
		srcs[3].Complete(0, posErr{3}) // a failure counts, as in .NET
		<-done
		if i != 3 || err != nil {
			t.Fatalf("WhenAny = %d, %v; want 3, nil", i, err)
		}
		for _, tk := range tasks {
			if tk.linked() {
				t.Fatal("WhenAny left a link registered")
			}
		}
		srcs[1].Complete(1, nil)
		if i, err := WhenAny(ctx, []Awaiter{tasks[0], FromResult("x"), tasks[1]}); i != 1 || err != nil {
			t.Errorf("WhenAny of mixed tasks = %d, %v; want 1 (first completed in order)", i, err)
		}
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		if i, err := WhenAny(cctx, []*Task[int]{tasks[0], tasks[2]}); i != -1 || !errors.Is(err, context.Canceled) {
			t.Errorf("WhenAny with done ctx = %d, %v", i, err)
		}
	})
}

// TestWhenAnyRepeated checks that WhenAny reports the first copy of a task
// that tasks repeats, among distinct tasks, whether the task completes
// before the call or while it waits.
func TestWhenAnyRepeated(t *testing.T) {
	for _, tc := range []struct {
		tasks    string // a letter per position; equal letters, one task
		before   string // the tasks completed before the call
		complete byte   // the task completed while WhenAny waits, if any
		want     int
	}{
		{tasks: "pppp", complete: 'p', want: 0},
		{tasks: "apbpap", complete: 'p', want: 1},
		{tasks: "apbpap", complete: 'a', want: 0},
		{tasks: "apbpap", complete: 'b', want: 2},
		{tasks: "apbpap", before: "p", want: 1},
		{tasks: "apbpap", before: "pb", want: 1},
		{tasks: "abababbbc", complete: 'c', want: 8},
	} {
		name := fmt.Sprintf("tasks=%s/before=%s/after=%c", tc.tasks, tc.before, max(tc.complete, '-'))
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srcs, tasks := lettered(tc.tasks)
				for _, r := range tc.before {
					srcs[byte(r)].Complete(0, nil)
				}
				var i int
				var err error
				done := make(chan struct{})
				go func() { i, err = WhenAny(context.Background(), tasks); close(done) }()
				if tc.complete != 0 {
					synctest.Wait()
					srcs[tc.complete].Complete(0, nil)
				}
				<-done // a hang is a deadlock in the bubble: synctest fails the test
				if i != tc.want || err != nil {
					t.Errorf("WhenAny(%s) = %d, %v; want %d, nil", tc.tasks, i, err, tc.want)
				}
				for _, tk := range tasks {
					if tk.linked() {
						t.Errorf("WhenAny(%s) left a link registered", tc.tasks)
					}
				}
				for _, s := range srcs {
					s.Complete(0, nil)
				}
			})
		})
	}
}

func TestFirstOK(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srcs, tasks := sources(4)
		var v, i int
		var err error
		done := make(chan struct{})
		go func() { v, i, err = FirstOK(context.Background(), tasks); close(done) }()
		synctest.Wait()
		srcs[0].Complete(0, posErr{0})
		srcs[2].Complete(0, posErr{2})
		synctest.Wait()
		srcs[1].Complete(11, nil)
		<-done
		if v != 11 || i != 1 || err != nil {
			t.Fatalf("FirstOK = %v, %d, %v; want 11, 1, nil", v, i, err)
		}
		if tasks[3].state.Load() != pending || tasks[3].linked() {
			t.Error("FirstOK touched a loser it did not start")
		}
		srcs[3].Complete(0, posErr{3})
		srcs2, tasks2 := sources(3)
		for k, s := range srcs2 {
			s.Complete(0, posErr{k})
		}
		_, i, err = FirstOK(context.Background(), tasks2)
		if i != -1 || !slices.Equal(positions(err), []int{0, 1, 2}) {
			t.Errorf("FirstOK all failing = %d, %v", i, err)
		}
	})
}
