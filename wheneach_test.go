//go:build go1.25

package task

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"testing/synctest"
)

func TestWhenEachCompletionOrder(t *testing.T) {
	for _, order := range orders(5) {
		synctest.Test(t, func(t *testing.T) {
			srcs, tasks := sources(5)
			srcs[order[0]].Complete(order[0], nil) // completed before the loop
			var got []int
			done := make(chan struct{})
			go func() {
				for i, tk := range WhenEach(context.Background(), tasks) {
					if v, _, ok := tryWait(tk); !ok || v != i {
						t.Errorf("yielded task %d not complete or wrong: %v %v", i, v, ok)
					}
					got = append(got, i)
				}
				close(done)
			}()
			for _, i := range order[1:] {
				synctest.Wait()
				srcs[i].Complete(i, nil)
			}
			<-done
			if !slices.Equal(got, order) {
				t.Errorf("WhenEach order %v; want %v", got, order)
			}
		})
	}
}

func TestWhenEachBreakAndCtx(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srcs, tasks := sources(4)
		srcs[2].Complete(2, nil)
		for i := range WhenEach(context.Background(), tasks) {
			if i != 2 {
				t.Fatalf("first yield %d; want 2", i)
			}
			break
		}
		for _, tk := range tasks {
			if tk.linked() {
				t.Fatal("a link is left registered after break")
			}
		}
		ctx, cancel := context.WithCancel(context.Background())
		n := 0
		go func() { synctest.Wait(); cancel() }()
		for range WhenEach(ctx, tasks) {
			n++
		}
		if n != 1 || ctx.Err() == nil {
			t.Errorf("with ctx canceled: %d yields; want 1", n)
		}
		for _, tk := range tasks {
			if tk.linked() {
				t.Fatal("a link is left registered after ctx ended the loop")
			}
		}
		for _, s := range srcs {
			s.Complete(0, nil)
		}
	})
}

// TestWhenEachRepeated checks that WhenEach yields every position of a
// repeated task exactly once, in order, when the task completes, and in the
// order in which the tasks complete.
func TestWhenEachRepeated(t *testing.T) {
	for _, tc := range []struct {
		tasks string
		order string // the order in which the tasks complete
		want  []int
	}{
		{"ppp", "p", []int{0, 1, 2}},
		{"pqpqp", "pq", []int{0, 2, 4, 1, 3}},
		{"pqpqp", "qp", []int{1, 3, 0, 2, 4}},
		{"apbpapc", "bcpa", []int{2, 6, 1, 3, 5, 0, 4}},
		{"aaaaaaaaaaaaaaaaaaaa", "a", []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19}},
	} {
		t.Run(fmt.Sprintf("tasks=%s/order=%s", tc.tasks, tc.order), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srcs, tasks := lettered(tc.tasks)
				var got []int
				done := make(chan struct{})
				go func() {
					defer close(done)
					for i := range WhenEach(context.Background(), tasks) {
						got = append(got, i)
					}
				}()
				for _, r := range tc.order {
					synctest.Wait()
					srcs[byte(r)].Complete(0, nil)
				}
				<-done
				if !slices.Equal(got, tc.want) {
					t.Errorf("WhenEach(%s) completed in order %s yielded %v; want %v", tc.tasks, tc.order, got, tc.want)
				}
			})
		})
	}

	// Many copies, completed while WhenEach waits.
	t.Run("copies", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			n := scaleN()
			src := newSource[int]()
			seen := make([]int, n)
			count := 0
			done := make(chan struct{})
			go func() {
				defer close(done)
				for i := range WhenEach(context.Background(), repeat(src.Task(), n)) {
					seen[i]++
					count++
				}
			}()
			synctest.Wait()
			src.Complete(1, nil)
			<-done
			for i, k := range seen {
				if k != 1 {
					t.Fatalf("WhenEach over %d copies yielded position %d %d times; want once", n, i, k)
				}
			}
			if count != n {
				t.Errorf("WhenEach over %d copies yielded %d positions", n, count)
			}
		})
	})
}

// TestWhenEachRepeatedBreak checks that breaking out of WhenEach, before or
// after a repeated task completes, leaves nothing registered.
func TestWhenEachRepeatedBreak(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srcs, tasks := lettered("ppqpdqp")
		srcs['d'].Complete(0, nil)
		for i := range WhenEach(context.Background(), tasks) {
			if i != 4 {
				t.Errorf("first yield %d; want 4", i)
			}
			break
		}
		for _, tk := range tasks {
			if tk.linked() {
				t.Fatal("a link is left registered after break")
			}
		}

		var got []int
		done := make(chan struct{})
		go func() {
			defer close(done)
			for i := range WhenEach(context.Background(), tasks) {
				got = append(got, i)
				if len(got) == 3 {
					break
				}
			}
		}()
		synctest.Wait()
		srcs['p'].Complete(0, nil)
		<-done
		if want := []int{4, 0, 1}; !slices.Equal(got, want) {
			t.Errorf("WhenEach yielded %v before the break; want %v", got, want)
		}
		for _, tk := range tasks {
			if tk.linked() {
				t.Fatal("a link is left registered after break")
			}
		}
		srcs['q'].Complete(0, nil)
	})
}
