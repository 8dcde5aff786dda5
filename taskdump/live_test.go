//go:build go1.25

package taskdump_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tasktuple/task"
	"github.com/tasktuple/task/taskdump"
)

// TestRunningFirst: a limited group lists its running children first,
// oldest first, then those waiting in the order they will start, each by
// the name NamedErr gave it; the same list twice while nothing changes.
func TestRunningFirst(t *testing.T) {
	taskdump.Enable()
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		g, _ := task.NewGroup(context.Background())
		g.SetLimit(3)
		for i := range 10 {
			if i == 1 {
				// item-00000 is the oldest; between two ticks of the
				// registry's clock (10ms), which starts are counted in.
				time.Sleep(1005 * time.Millisecond)
			}
			g.Go(task.NamedErr(fmt.Sprintf("item-%05d", i), func(context.Context) error { <-release; return nil }))
		}
		synctest.Wait()
		names := func() []string {
			var ns []string
			for _, c := range get(t, "/?format=json").Calls[0].Children {
				ns = append(ns, c.State+" "+c.Name)
			}
			return ns
		}
		got := names()
		want := []string{"running item-00000 (children[0])", "running item-00001 (children[1])", "running item-00002 (children[2])"}
		for i := 3; i < 10; i++ {
			want = append(want, fmt.Sprintf("waiting item-%05d (children[%d])", i, i))
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("children:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if again := names(); strings.Join(again, "\n") != strings.Join(got, "\n") {
			t.Errorf("a second request lists:\n%s\nthe first:\n%s", strings.Join(again, "\n"), strings.Join(got, "\n"))
		}
		close(release)
		if err := g.Wait(); err != nil {
			t.Fatal(err)
		}
	})
}

// TestRunningFirstCut: a group of 1,000 limited to 64 lists its 64 running
// children, then 36 waiting; more counts the other 900.
func TestRunningFirstCut(t *testing.T) {
	taskdump.Enable()
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		g, _ := task.NewGroup(context.Background())
		g.SetLimit(64)
		for i := range 1000 {
			g.Go(task.NamedErr(fmt.Sprintf("item-%05d", i), func(context.Context) error { <-release; return nil }))
		}
		synctest.Wait()
		c := get(t, "/?format=json").Calls[0]
		if len(c.Children) != 100 || c.More != 900 || c.Counts.Running != 64 || c.Counts.Waiting != 936 {
			t.Fatalf("%d listed, %d more, counts %+v; want 100, 900, 64 running and 936 waiting", len(c.Children), c.More, *c.Counts)
		}
		for i, e := range c.Children {
			state := "running"
			if i >= 64 {
				state = "waiting"
			}
			if e.State != state || !strings.HasPrefix(e.Name, "item-") {
				t.Fatalf("child %d: %s %q; want %s item-…", i, e.State, e.Name, state)
			}
		}
		close(release)
		if err := g.Wait(); err != nil {
			t.Fatal(err)
		}
	})
}

// TestFilter: ?filter= keeps the functions whose name has the text,
// ignoring case, with the calls that hold them; the counts stay whole.
func TestFilter(t *testing.T) {
	taskdump.Enable()
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		g, _ := task.NewGroup(context.Background())
		g.SetLimit(4)
		for i := range 20 {
			g.Go(task.NamedErr(fmt.Sprintf("item-%05d", i), func(context.Context) error { <-release; return nil }))
		}
		synctest.Wait()
		for _, tc := range []struct {
			filter string
			want   []string
		}{
			{"ITEM-00002", []string{"item-00002 (children[2])"}},
			{"item-0001", []string{"item-00010 (children[10])", "item-00011 (children[11])", "item-00012 (children[12])", "item-00013 (children[13])", "item-00014 (children[14])", "item-00015 (children[15])", "item-00016 (children[16])", "item-00017 (children[17])", "item-00018 (children[18])", "item-00019 (children[19])"}},
			{"task.group", nil}, // the call matches: all its children
			{"nothing", nil},
		} {
			s := get(t, "/?format=json&filter="+tc.filter)
			if s.Filter != tc.filter {
				t.Errorf("filter %q echoed as %q", tc.filter, s.Filter)
			}
			switch tc.filter {
			case "nothing":
				if len(s.Calls) != 0 {
					t.Errorf("filter %q lists %d calls; want none", tc.filter, len(s.Calls))
				}
				continue
			case "task.group":
				if len(s.Calls) != 1 || len(s.Calls[0].Children) != 20 {
					t.Errorf("filter %q: %+v; want the group with its 20 children", tc.filter, s.Calls)
				}
				continue
			}
			if len(s.Calls) != 1 {
				t.Fatalf("filter %q lists %d calls; want 1", tc.filter, len(s.Calls))
			}
			c := s.Calls[0]
			var got []string
			for _, e := range c.Children {
				got = append(got, e.Name)
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") || c.Counts.Running != 4 || c.Counts.Waiting != 16 {
				t.Errorf("filter %q: %v, counts %+v; want %v, 4 running, 16 waiting", tc.filter, got, *c.Counts, tc.want)
			}
		}
		close(release)
		if err := g.Wait(); err != nil {
			t.Fatal(err)
		}
	})
}

// TestStraggler: a function running more than 3 times the median of its
// finished siblings, 5 of them, and for at least 100ms, is marked.
func TestStraggler(t *testing.T) {
	taskdump.Enable()
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		g, _ := task.NewGroup(context.Background())
		g.Go(task.NamedErr("slow", func(context.Context) error { <-release; return nil }))
		for range 5 {
			// Between two ticks of the registry's clock (10ms): 2 ticks.
			g.Go(func(context.Context) error { time.Sleep(25 * time.Millisecond); return nil })
		}
		straggler := func() (bool, *float64) {
			c := get(t, "/?format=json").Calls[0]
			for _, e := range c.Children {
				if e.Name == "slow (children[0])" {
					return e.Straggler, c.MedianSeconds
				}
			}
			t.Fatalf("slow is not listed: %+v", c.Children)
			return false, nil
		}
		time.Sleep(15 * time.Millisecond)
		synctest.Wait()
		if s, m := straggler(); s || m != nil {
			t.Errorf("at 15ms, before any finished: straggler %v, median %v; want false, none", s, m)
		}
		time.Sleep(80 * time.Millisecond) // 95ms: 4.5 times the median, under 100ms
		synctest.Wait()
		if s, m := straggler(); s || m == nil || *m != 0.02 {
			t.Errorf("at 95ms: straggler %v, median %s; want false, 0.02", s, seconds(m))
		}
		time.Sleep(30 * time.Millisecond)
		synctest.Wait()
		if s, _ := straggler(); !s {
			t.Errorf("at 125ms, 6 times the median: not marked a straggler")
		}
		var b strings.Builder
		taskdump.Write(&b)
		if !strings.Contains(b.String(), "slow (children[0])                       running 120ms; straggler\n") {
			t.Errorf("the dump does not mark slow a straggler:\n%s", b.String())
		}
		close(release)
		if err := g.Wait(); err != nil {
			t.Fatal(err)
		}
	})
}

// TestLabels: two calls made under different pprof labels are told apart.
func TestLabels(t *testing.T) {
	taskdump.Enable()
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		var groups []*task.Group
		for _, req := range []string{"A", "B"} {
			pprof.Do(context.Background(), pprof.Labels("request", req, "handler", "search"), func(ctx context.Context) {
				g, _ := task.NewGroup(ctx)
				g.Go(func(context.Context) error { <-release; return nil })
				groups = append(groups, g)
			})
		}
		synctest.Wait()
		s := get(t, "/?format=json")
		if len(s.Calls) != 2 || s.Calls[0].Labels["request"] != "A" || s.Calls[1].Labels["request"] != "B" || s.Calls[1].Labels["handler"] != "search" {
			t.Errorf("calls %+v; want two with request A and B", s.Calls)
		}
		if f := get(t, "/?format=json&filter=b"); len(f.Calls) != 1 || f.Calls[0].Labels["request"] != "B" {
			t.Errorf("filter b: %+v; want the call of request B", f.Calls)
		}
		close(release)
		for _, g := range groups {
			if err := g.Wait(); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// TestMapWorkerNames: the inputs of a Map running now, by position, and
// NamedBy's names.
func TestMapWorkerNames(t *testing.T) {
	taskdump.Enable()
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			if _, err := task.Map(context.Background(), []string{"a", "b", "c"}, 2, task.NamedBy(func(s string) string { return "user " + s },
				func(_ context.Context, s string) (int, error) { <-release; return 0, nil })); err != nil {
				t.Error(err)
			}
		}()
		synctest.Wait()
		c := get(t, "/?format=json").Calls[0]
		var got []string
		for _, e := range c.Children {
			got = append(got, e.Name)
		}
		if strings.Join(got, ",") != "user a (inputs[0]),user b (inputs[1])" || c.Counts.Running != 2 || *c.Counts.NotStarted != 1 {
			t.Errorf("Map lists %v, counts %+v; want user a (inputs[0]), user b (inputs[1]), 2 running, 1 not started", got, *c.Counts)
		}
		close(release)
		<-done
	})
}

func seconds(p *float64) string {
	if p == nil {
		return "none"
	}
	return fmt.Sprint(*p)
}

// TestWorkerOutcomes: a limited group's goroutine runs its queued children
// in one slot; a Goexit, a failure and a panic among them end as they do
// with the registry off, and the registry is empty after.
func TestWorkerOutcomes(t *testing.T) {
	taskdump.Enable()
	var ran atomic.Int32
	count := func(context.Context) error { ran.Add(1); return nil }
	g, _ := task.NewGroup(context.Background(), task.KeepGoing)
	g.SetLimit(1)
	g.Go(task.NamedErr("first", count))
	g.Go(func(context.Context) error { runtime.Goexit(); return nil })
	g.Go(func(context.Context) error { return errors.New("x") })
	g.Go(task.NamedErr("last", count))
	returned := make(chan bool)
	go func() {
		ok := false
		defer func() { returned <- ok }()
		g.Wait() // raises the child's Goexit in this goroutine
		ok = true
	}()
	if <-returned || ran.Load() != 2 {
		t.Errorf("Wait returned or %d of 2 children ran; want its Goexit, every child run", ran.Load())
	}

	g, _ = task.NewGroup(context.Background())
	g.SetLimit(1)
	g.Go(func(context.Context) error { return nil })
	g.Go(func(context.Context) error { panic("boom") })
	func() {
		defer func() {
			pe, ok := recover().(*task.PanicError)
			if !ok || pe.Value != "boom" || !strings.Contains(string(pe.Stack), "TestWorkerOutcomes.func") {
				t.Errorf("Wait raised %v; want the PanicError of boom, its stack from the test", pe)
			}
		}()
		g.Wait()
	}()
	if s := get(t, "/?format=json"); len(s.Calls) != 0 {
		t.Errorf("calls left after Wait: %+v", s.Calls)
	}
}
