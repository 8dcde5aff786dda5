//go:build go1.25

package taskdump_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tasktuple/task"
	"github.com/tasktuple/task/taskdump"
)

// The JSON of Handler, as a test reads it.
type snapshot struct {
	Enabled bool    `json:"enabled"`
	Time    string  `json:"time"`
	Filter  string  `json:"filter"`
	Calls   []entry `json:"calls"`
	More    int     `json:"more"`
}

type entry struct {
	ID      int64   `json:"id"`
	Name    string  `json:"name"`
	Call    bool    `json:"call"`
	State   string  `json:"state"`
	Seconds float64 `json:"seconds"`
	Limit   int     `json:"limit"`
	Counts  *counts `json:"counts"`

	Straggler     bool              `json:"straggler"`
	Labels        map[string]string `json:"labels"`
	MedianSeconds *float64          `json:"medianSeconds"`
	Stop          *struct {
		NotStarted *int     `json:"notStarted"`
		GraceLeft  *float64 `json:"graceLeftSeconds"`
	} `json:"stop"`
	Failures []struct{ Name, Error string } `json:"failures"`
	Children []entry                        `json:"children"`
	More     int                            `json:"more"`
}

type counts struct {
	Running, Waiting, Succeeded, Failed, Canceled int
	NotStarted                                    *int
}

// get serves a request for path to the handler and decodes the JSON.
func get(t *testing.T, target string) snapshot {
	t.Helper()
	rec := httptest.NewRecorder()
	taskdump.Handler().ServeHTTP(rec, httptest.NewRequest("GET", target, nil))
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("GET %s: %d, Content-Type %q", target, rec.Code, rec.Header().Get("Content-Type"))
	}
	var s snapshot
	if err := json.Unmarshal(rec.Body.Bytes(), &s); err != nil {
		t.Fatalf("GET %s: %v\n%s", target, err, rec.Body)
	}
	return s
}

// TestHandlerJSON: a Map with a limit, one input failing under KeepGoing,
// one canceled, then a stop with a grace period, as the JSON shows them.
func TestHandlerJSON(t *testing.T) {
	taskdump.Enable()
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		release := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			_, err := task.Map(ctx, []int{0, 1, 2, 3, 4, 5}, 2, task.NamedBy(func(i int) string { return fmt.Sprint("in", i) },
				func(ctx context.Context, i int) (int, error) {
					switch i {
					case 0:
						return 0, errors.New("404 not found")
					case 1:
						return 0, nil
					}
					<-release
					return 0, nil
				}), task.KeepGoing, task.Grace(5*time.Second))
			if err == nil {
				t.Error("Map = nil; want the failure of in0")
			}
		}()
		time.Sleep(time.Second)
		synctest.Wait()
		s := get(t, "/debug/tasks/?format=json")
		if !s.Enabled || len(s.Calls) != 1 || s.More != 0 {
			t.Fatalf("snapshot = %+v; want one call, enabled", s)
		}
		m := s.Calls[0]
		two := 2
		want := counts{Running: 2, Succeeded: 1, Failed: 1, NotStarted: &two}
		if m.Name != "task.Map" || !m.Call || m.State != "running" || m.Seconds != 1 || m.Limit != 2 || m.Counts == nil || !sameCounts(*m.Counts, want) {
			t.Errorf("Map = %+v, counts %+v; want task.Map running 1s, limit 2, counts %+v", m, m.Counts, want)
		}
		if len(m.Failures) != 1 || m.Failures[0].Name != "in0 (inputs[0])" || m.Failures[0].Error != "404 not found" {
			t.Errorf("failures = %+v; want in0 (inputs[0]): 404 not found", m.Failures)
		}
		if len(m.Children) != 2 || m.Children[0].Name != "in2 (inputs[2])" || m.Children[1].Name != "in3 (inputs[3])" ||
			m.Children[0].Call || m.Children[0].State != "running" || m.Children[0].Counts != nil {
			t.Errorf("children = %+v; want in2 and in3 running", m.Children)
		}
		cancel()
		time.Sleep(time.Second)
		synctest.Wait()
		m = get(t, "/debug/tasks/?format=json").Calls[0]
		if m.State != "stopping" || m.Stop == nil || m.Stop.NotStarted == nil || *m.Stop.NotStarted != 2 ||
			m.Stop.GraceLeft == nil || *m.Stop.GraceLeft != 4 {
			t.Errorf("after cancel: %+v, stop %+v; want stopping, 2 not started, 4s of grace left", m, m.Stop)
		}
		time.Sleep(5 * time.Second)
		synctest.Wait()
		m = get(t, "/debug/tasks/?format=json").Calls[0]
		if m.State != "cut" || m.Stop == nil || m.Stop.GraceLeft != nil || m.Counts.Running != 2 {
			t.Errorf("after the grace period: %+v; want cut, no grace left, 2 running", m)
		}
		close(release)
		<-done
		if s := get(t, "/debug/tasks/?format=json"); len(s.Calls) != 0 {
			t.Errorf("calls left after Map returned: %+v", s.Calls)
		}
	})
}

func sameCounts(a, b counts) bool {
	an, bn := -1, -1
	if a.NotStarted != nil {
		an = *a.NotStarted
	}
	if b.NotStarted != nil {
		bn = *b.NotStarted
	}
	a.NotStarted, b.NotStarted = nil, nil
	return a == b && an == bn
}

// TestHandlerScope: a Scope's limit, its running and waiting children.
func TestHandlerScope(t *testing.T) {
	taskdump.Enable()
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			defer func() {
				if recover() == nil {
					t.Error("Scope returned; want the panic of children[1] raised again")
				}
			}()
			_, err := task.Scope(context.Background(), func(ctx context.Context, g *task.Group) (int, error) {
				g.SetLimit(2)
				g.Go(func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() })
				g.Go(func(ctx context.Context) error { <-release; panic("boom") })
				for range 4 {
					g.Go(func(context.Context) error { return nil })
				}
				<-ctx.Done()
				return 0, nil
			})
			t.Errorf("Scope = %v; want the panic of children[1] raised again", err)
		}()
		time.Sleep(time.Second)
		synctest.Wait()
		sc := get(t, "/?format=json").Calls[0]
		want := counts{Running: 3, Waiting: 4}
		if sc.Name != "task.Scope" || sc.Limit != 2 || !sameCounts(*sc.Counts, want) {
			t.Errorf("Scope = %+v, counts %+v; want limit 2, counts %+v", sc, sc.Counts, want)
		}
		close(release)
		<-done
	})
}

// TestHandlerCountsCanceled: a function that returns its context's error
// after a sibling failed counts as canceled.
func TestHandlerCountsCanceled(t *testing.T) {
	taskdump.Enable()
	synctest.Test(t, func(t *testing.T) {
		hold := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			_, _, _, err := task.Run3(context.Background(),
				func(ctx context.Context) (int, error) { <-ctx.Done(); return 0, ctx.Err() },
				func(context.Context) (int, error) { return 0, errors.New("500") },
				func(ctx context.Context) (int, error) { <-ctx.Done(); <-hold; return 0, nil })
			if err == nil || err.Error() != "task: Run3: f2: 500" {
				t.Errorf("Run3 = %v; want task: Run3: f2: 500", err)
			}
		}()
		synctest.Wait()
		c := get(t, "/?format=json").Calls[0]
		want := counts{Running: 1, Failed: 1, Canceled: 1}
		if !sameCounts(*c.Counts, want) || len(c.Failures) != 1 || c.Failures[0].Name != "f2" || c.Failures[0].Error != "500" {
			t.Errorf("Run3 = counts %+v, failures %+v; want %+v and f2: 500", c.Counts, c.Failures, want)
		}
		close(hold)
		<-done
	})
}

// TestHandlerBounded: at 10,000 children the JSON lists 100, counts the
// rest, and the counts cover them all; a request allocates no more than
// at 10 children.
func TestHandlerBounded(t *testing.T) {
	taskdump.Enable()
	small := withChildren(t, 10, func() {})
	withChildren(t, 10000, func() {
		sc := get(t, "/?format=json").Calls[0]
		want := counts{Running: 1000, Waiting: 9000, Succeeded: 1} // the body has returned
		if !sameCounts(*sc.Counts, want) || len(sc.Children) != 100 || sc.More != 9900 {
			t.Errorf("Scope: counts %+v, %d children listed, %d more; want %+v, 100 listed, 9900 more", sc.Counts, len(sc.Children), sc.More, want)
		}
	})
	large := withChildren(t, 10000, func() {})
	// 24 to 26 (json's encoder pool can be emptied by a GC during the
	// runs); without the race detector, which drops pooled items.
	if (large > 28 || small > 28) && !raceEnabled {
		t.Errorf("a request for the JSON allocates %v times at 10,000 children, %v at 10; want at most 28 at both", large, small)
	}
}

// withChildren runs check while a Scope limited to 1,000 runs n children
// that wait, and returns the allocations of a request for the JSON then.
func withChildren(t *testing.T, n int, check func()) (allocs float64) {
	t.Helper()
	release := make(chan struct{})
	ready := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, err := task.Scope(context.Background(), func(ctx context.Context, g *task.Group) (int, error) {
			g.SetLimit(1000)
			for range n {
				g.Go(func(context.Context) error { <-release; return nil })
			}
			close(ready)
			return 0, nil
		})
		if err != nil {
			t.Error(err)
		}
	}()
	<-ready
	// The body returns once it has spawned, and the children admitted
	// start on goroutines of their own: wait until the registry says both.
	for {
		c := get(t, "/?format=json").Calls[0].Counts
		if c.Succeeded == 1 && c.Running == min(n, 1000) {
			break
		}
		runtime.Gosched()
	}
	check()
	h := taskdump.Handler()
	req := httptest.NewRequest("GET", "/?format=json", nil)
	allocs = testing.AllocsPerRun(20, func() { h.ServeHTTP(httptest.NewRecorder(), req) })
	close(release)
	<-done
	return allocs
}

// TestHandlerPage: the page is HTML that loads nothing from elsewhere.
func TestHandlerPage(t *testing.T) {
	rec := httptest.NewRecorder()
	taskdump.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/debug/tasks/", nil))
	body := rec.Body.String()
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("GET /debug/tasks/: %d %q", rec.Code, rec.Header().Get("Content-Type"))
	}
	if csp := rec.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "connect-src 'self'") {
		t.Errorf("Content-Security-Policy = %q", csp)
	}
	for _, s := range []string{"src=", "href=\"http", "//cdn", "@import", "url("} {
		if strings.Contains(body, s) {
			t.Errorf("the page has %q: it must load nothing from elsewhere", s)
		}
	}
	if !strings.Contains(body, `fetch("?format=json"`) {
		t.Error("the page does not fetch its JSON")
	}
}

// TestHandlerNotEnabled: before Enable, the handler serves no calls and
// says it is not enabled (in a process of its own, where nothing has
// called Enable).
func TestHandlerNotEnabled(t *testing.T) {
	if os.Getenv("TASKDUMP_NOT_ENABLED") == "1" {
		started, release, done := make(chan struct{}), make(chan struct{}), make(chan error)
		go func() {
			_, _, err := task.Run2(context.Background(),
				func(context.Context) (int, error) { close(started); <-release; return 0, nil },
				func(context.Context) (int, error) { <-release; return 0, nil })
			done <- err
		}()
		<-started
		s := get(t, "/?format=json")
		if s.Enabled || len(s.Calls) != 0 || s.More != 0 {
			t.Errorf("not enabled: %+v; want enabled false, no calls", s)
		}
		close(release)
		if err := <-done; err != nil {
			t.Error(err)
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHandlerNotEnabled$", "-test.v")
	cmd.Env = append(os.Environ(), "TASKDUMP_NOT_ENABLED=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestHandlerNotEnabled") {
		t.Fatalf("%v\n%s", err, out)
	}
}

// TestHandlerFailures: a call keeps the text of its first 10 failures and
// counts them all; a long error is cut at a character; a panic and a
// Goexit are failures.
func TestHandlerFailures(t *testing.T) {
	taskdump.Enable()
	synctest.Test(t, func(t *testing.T) {
		long := strings.Repeat("x", 499) + "é and more" // é crosses 500 bytes
		release := make(chan struct{})
		done := make(chan struct{})
		inputs := make([]int, 14)
		for i := range inputs {
			inputs[i] = i
		}
		go func() {
			defer close(done)
			defer func() {
				if recover() == nil {
					t.Error("Map returned; want the panic of inputs[1] raised again")
				}
			}()
			_, err := task.Map(context.Background(), inputs, 1, func(ctx context.Context, i int) (int, error) {
				switch i {
				case 0:
					return 0, errors.New(long)
				case 1:
					panic("boom")
				case 2:
					runtime.Goexit()
				case 13:
					<-release
					return 0, nil
				}
				return 0, fmt.Errorf("fail %d", i)
			}, task.KeepGoing)
			t.Errorf("Map = %v; want the panic raised again", err)
		}()
		synctest.Wait()
		c := get(t, "/?format=json").Calls[0]
		if c.Counts.Failed != 13 || c.Counts.Running != 1 || len(c.Failures) != 10 {
			t.Fatalf("Map: counts %+v, %d failures kept; want 13 failed, 1 running, 10 kept", c.Counts, len(c.Failures))
		}
		want := []string{strings.Repeat("x", 499) + "…", "panic: boom", "runtime.Goexit called", "fail 3"}
		for i, w := range want {
			if got := c.Failures[i]; got.Name != fmt.Sprintf("inputs[%d]", i) || got.Error != w {
				t.Errorf("failures[%d] = %s: %q; want inputs[%d]: %q", i, got.Name, got.Error, i, w)
			}
		}
		close(release)
		<-done
	})
}
