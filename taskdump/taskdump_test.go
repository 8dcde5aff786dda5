//go:build go1.25

package taskdump_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tasktuple/task"
	"github.com/tasktuple/task/taskdump"
)

func TestDump(t *testing.T) {
	taskdump.Enable()
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		wait := func(context.Context) (int, error) { <-release; return 0, nil }
		done := make(chan struct{})
		go func() {
			defer close(done)
			_, _, _, err := task.Run3(context.Background(),
				func(ctx context.Context) (int, error) {
					// Between two ticks of the registry's clock (10ms),
					// which the time shown counts.
					time.Sleep(505 * time.Millisecond)
					return task.Scope(ctx, func(ctx context.Context, g *task.Group) (int, error) {
						return task.Spawn(g, wait).Wait(ctx)
					})
				},
				task.Named("recs", wait),
				wait)
			if err != nil {
				t.Error(err)
			}
		}()
		time.Sleep(2 * time.Second)
		synctest.Wait()
		var b strings.Builder
		if err := taskdump.Write(&b); err != nil {
			t.Fatal(err)
		}
		want := `task.Run3                                  running 2s
  f1                                       running 2s
    task.Scope                             running 1.5s
      body                                 running 1.5s
      children[0]                          running 1.5s
  recs (f2)                                running 2s
  f3                                       running 2s
`
		if got := b.String(); got != want {
			t.Errorf("dump:\n%s\nwant:\n%s", got, want)
		}
		close(release)
		<-done
		b.Reset()
		taskdump.Write(&b)
		if b.Len() != 0 {
			t.Errorf("calls left after they returned:\n%s", b.String())
		}
	})
}

func Example() {
	taskdump.Enable()
	release := make(chan struct{})
	wait := func(context.Context) (int, error) { <-release; return 0, nil }
	done := make(chan error)
	go func() {
		_, _, err := task.Run2(context.Background(), task.Named("recs", wait), wait)
		done <- err
	}()
	for {
		var b strings.Builder
		taskdump.Write(&b)
		// The call and both functions, once the named one has its name.
		if strings.Count(b.String(), "\n") == 3 && strings.Contains(b.String(), "recs") {
			// Durations vary: print the tree without them.
			for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n") {
				os.Stdout.WriteString(strings.TrimRight(strings.Split(line, " running ")[0], " ") + "\n")
			}
			break
		}
	}
	close(release)
	if err := <-done; err != nil {
		fmt.Println(err)
	}
	// Unordered output:
	// task.Run2
	//   f2
	//   recs (f1)
}

// TestDumpQueued: a child of a limited Scope that waits for a slot is
// listed, as waiting, until it starts.
func TestDumpQueued(t *testing.T) {
	taskdump.Enable()
	release, started, done := make(chan struct{}), make(chan struct{}), make(chan struct{})
	dumped := make(chan string)
	go func() {
		defer close(done)
		_, err := task.Scope(context.Background(), func(ctx context.Context, g *task.Group) (int, error) {
			g.SetLimit(1)
			g.Go(func(context.Context) error { close(started); <-release; return nil })
			g.Go(func(context.Context) error { return nil })
			<-started
			var b strings.Builder
			taskdump.Write(&b)
			dumped <- b.String()
			close(release)
			return 0, nil
		})
		if err != nil {
			t.Error(err)
		}
	}()
	got := <-dumped
	<-done // the Scope has returned: its calls left the registry, for the next test
	if !regexp.MustCompile(`children\[1\] +waiting\n`).MatchString(got) || !regexp.MustCompile(`children\[0\] +running `).MatchString(got) {
		t.Errorf("dump:\n%s\nwant children[0] running and children[1] waiting", got)
	}
}

// dumpAt writes the dump once the fake clock of the bubble is at d since
// start, and everything has settled.
func dumpAt(t *testing.T, start time.Time, d time.Duration) string {
	t.Helper()
	time.Sleep(d - time.Since(start))
	synctest.Wait()
	var b strings.Builder
	if err := taskdump.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestDumpStop: a Map with a grace period shows, once its caller's ctx is
// done, what it still runs, what it will not start and the grace left;
// once the grace period has ended, that its functions were cut.
func TestDumpStop(t *testing.T) {
	taskdump.Enable()
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(time.Second, cancel)
		inputs := make([]int, 14)
		for i := range inputs {
			inputs[i] = i
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			_, err := task.Map(ctx, inputs, 2, func(ctx context.Context, i int) (int, error) {
				if i == 0 {
					time.Sleep(10 * time.Second) // deaf to ctx: outlives the cut
					return 0, nil
				}
				<-ctx.Done()
				return 0, ctx.Err()
			}, task.Grace(5*time.Second))
			if !errors.Is(err, context.Canceled) {
				t.Errorf("Map = %v; want context.Canceled", err)
			}
		}()
		for _, c := range []struct {
			at   time.Duration
			want string
		}{
			{500 * time.Millisecond, `task.Map                                   running 500ms
  inputs[0]                                running 500ms
  inputs[1]                                running 500ms
`},
			{1800 * time.Millisecond, `task.Map                                   running 1.8s; stopping, 2 running, 12 not started, 4.2s of grace left
  inputs[0]                                running 1.8s
  inputs[1]                                running 1.8s
`},
			{7 * time.Second, `task.Map                                   running 7s; cut, 1 running
  inputs[0]                                running 7s
`},
		} {
			if got := dumpAt(t, start, c.at); got != c.want {
				t.Errorf("dump at %v:\n%s\nwant:\n%s", c.at, got, c.want)
			}
		}
		<-done
		if got := dumpAt(t, start, 11*time.Second); got != "" {
			t.Errorf("calls left after they returned:\n%s", got)
		}
	})
}

// TestDumpGroupStop: a Scope stopped by its body shows the children it
// will not start, and no grace left until its caller's ctx is done.
func TestDumpGroupStop(t *testing.T) {
	taskdump.Enable()
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(3*time.Second, cancel)
		done := make(chan struct{})
		go func() {
			defer close(done)
			_, err := task.Scope(ctx, func(ctx context.Context, g *task.Group) (int, error) {
				g.SetLimit(1)
				first := task.Spawn(g, func(ctx context.Context) (int, error) { <-ctx.Done(); return 0, ctx.Err() })
				for range 3 {
					g.Go(func(context.Context) error { return nil })
				}
				time.Sleep(time.Second)
				g.Stop()
				return first.Wait(context.WithoutCancel(ctx))
			}, task.Grace(5*time.Second))
			if !errors.Is(err, context.Canceled) {
				t.Errorf("Scope = %v; want context.Canceled", err)
			}
		}()
		for _, c := range []struct {
			at   time.Duration
			want string
		}{
			{500 * time.Millisecond, `task.Scope                                 running 500ms
  body                                     running 500ms
  children[0]                              running 500ms
  children[1]                              waiting
  children[2]                              waiting
  children[3]                              waiting
`},
			{2 * time.Second, `task.Scope                                 running 2s; stopping, 2 running, 3 not started
  body                                     running 2s
  children[0]                              running 2s
`},
			{4 * time.Second, `task.Scope                                 running 4s; stopping, 2 running, 3 not started, 4s of grace left
  body                                     running 4s
  children[0]                              running 4s
`},
		} {
			if got := dumpAt(t, start, c.at); got != c.want {
				t.Errorf("dump at %v:\n%s\nwant:\n%s", c.at, got, c.want)
			}
		}
		<-done
		if got := dumpAt(t, start, 9*time.Second); got != "" {
			t.Errorf("calls left after they returned:\n%s", got)
		}
	})
}

// TestDumpNewGroup: a Group of NewGroup is listed as task.Group, with its
// children, from NewGroup until its Wait returns.
func TestDumpNewGroup(t *testing.T) {
	taskdump.Enable()
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		g, _ := task.NewGroup(context.Background())
		g.SetLimit(1)
		g.Go(task.NamedErr("flush", func(context.Context) error { <-release; return nil }))
		g.Go(func(context.Context) error { return nil })
		time.Sleep(time.Second)
		synctest.Wait()
		var b strings.Builder
		if err := taskdump.Write(&b); err != nil {
			t.Fatal(err)
		}
		// The running first, then the waiting.
		want := `task.Group                                 running 1s
  flush (children[0])                      running 1s
  children[1]                              waiting
`
		if got := b.String(); got != want {
			t.Errorf("dump:\n%s\nwant:\n%s", got, want)
		}
		close(release)
		if err := g.Wait(); err != nil {
			t.Fatal(err)
		}
		b.Reset()
		taskdump.Write(&b)
		if b.Len() != 0 {
			t.Errorf("calls left after Wait returned:\n%s", b.String())
		}
	})
}
