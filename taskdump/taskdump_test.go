package taskdump_test

import (
	"context"
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
					time.Sleep(500 * time.Millisecond)
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
  f3                                       running 2s
  recs (f2)                                running 2s
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
	release, started := make(chan struct{}), make(chan struct{})
	dumped := make(chan string)
	go func() {
		task.Scope(context.Background(), func(ctx context.Context, g *task.Group) (int, error) {
			g.SetLimit(1)
			task.Spawn(g, func(context.Context) (int, error) { close(started); <-release; return 0, nil })
			task.Spawn(g, func(context.Context) (int, error) { return 0, nil })
			<-started
			var b strings.Builder
			taskdump.Write(&b)
			dumped <- b.String()
			close(release)
			return 0, nil
		})
	}()
	got := <-dumped
	if !regexp.MustCompile(`children\[1\] +waiting `).MatchString(got) || !regexp.MustCompile(`children\[0\] +running `).MatchString(got) {
		t.Errorf("dump:\n%s\nwant children[0] running and children[1] waiting", got)
	}
}
