package browsertest

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/tasktuple/task"
	"github.com/tasktuple/task/taskdump"
)

// chromium is where Debian's package puts the browser.
const chromium = "/usr/bin/chromium"

var update = flag.Bool("update", false, "write the screenshot to ../docs/taskdump-page.png")

// browser starts a headless chromium, or skips the test if there is none
// and CI is unset (CI fails without it).
func browser(t *testing.T) context.Context {
	t.Helper()
	if _, err := os.Stat(chromium); err != nil {
		if os.Getenv("CI") == "" {
			t.Skipf("%s: %v: install Debian's chromium (apt-get install chromium) to run the browser test; with CI set, the test fails without it", chromium, err)
		}
		t.Fatalf("%s: %v: CI is set, and the browser test needs Debian's chromium (apt-get install chromium)", chromium, err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromium),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1000, 340),
	}
	// A hang guard: the whole browser part of a test.
	ctx, cancelTimeout := context.WithTimeout(context.Background(), 2*time.Minute)
	ctx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	ctx, cancelBrowser := chromedp.NewContext(ctx, chromedp.WithLogf(t.Logf))
	t.Cleanup(func() { cancelBrowser(); cancelAlloc(); cancelTimeout() })
	return ctx
}

// scopeView is the node of the Scope on the page, as the DOM has it.
type scopeView struct {
	Found    bool           `json:"found"`
	State    string         `json:"state"`
	Limit    string         `json:"limit"`
	Counts   map[string]int `json:"counts"`
	Stop     string         `json:"stop"`
	Names    []string       `json:"names"`
	Failures []string       `json:"failures"`
	Renders  int            `json:"renders"`
	Marker   bool           `json:"marker"` // set by the test after the first load: gone if the page reloads
}

const readScope = `(() => {
	const n = document.querySelector('li.call[data-name="task.Scope"]');
	if (!n) return {found: false, renders: +document.body.dataset.renders || 0, marker: window.__marker === 1};
	const row = n.querySelector(':scope > details > summary > .row') || n.querySelector(':scope > .row');
	const counts = {};
	row.querySelectorAll('[data-count]').forEach(b => counts[b.dataset.count] = +b.dataset.value);
	const limit = row.querySelector('[data-limit]');
	const stop = row.querySelector('[data-stop]');
	return {
		found: true,
		state: n.dataset.state,
		limit: limit ? limit.dataset.limit : "",
		counts: counts,
		stop: stop ? stop.textContent : "",
		names: [...n.querySelectorAll('li[data-name]')].map(x => x.dataset.name),
		failures: [...n.querySelectorAll(':scope > details > .failures > li')].map(x => x.textContent),
		renders: +document.body.dataset.renders,
		marker: window.__marker === 1,
	};
})()`

// waitFor polls the page until the Scope's node satisfies ok, and returns it.
func waitFor(t *testing.T, ctx context.Context, what string, ok func(v scopeView) bool) scopeView {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		v, err := chromedp.Run(ctx, chromedp.Evaluate[scopeView](readScope))
		if err != nil {
			t.Fatalf("%s: reading the page: %v", what, err)
		}
		if ok(v) {
			return v
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: the page never showed it; last seen: %+v", what, v)
		}
		time.Sleep(100 * time.Millisecond) // a poll of the page, not a wait for the fan-out
	}
}

func hasAll(names []string, want ...string) bool {
	for _, w := range want {
		found := false
		for _, n := range names {
			found = found || n == w
		}
		if !found {
			return false
		}
	}
	return true
}

// TestPage serves taskdump.Handler with a fan-out running, loads the page
// in chromium, and reads what it renders as the fan-out changes: names,
// limit, counts by state and the failure so far; a child released shows
// without a reload; a Group.Stop with a grace period shows "stopping"
// and the grace left. It takes a screenshot (TestPageLive writes the
// one in the docs).
func TestPage(t *testing.T) {
	ctx := browser(t)
	taskdump.Enable()

	// The fan-out: a Scope limited to 3 children, KeepGoing, a grace
	// period; stock fails at once, users, orders and recs hold their
	// slots until released (orders runs a Map of its own), six more
	// wait for a slot.
	callerCtx, cancelCaller := context.WithCancel(context.Background())
	defer cancelCaller()
	users, orders, recs := make(chan struct{}), make(chan struct{}), make(chan struct{})
	stop, stopped, finish := make(chan struct{}), make(chan struct{}), make(chan struct{})
	done := make(chan error, 1)
	go func() {
		_, err := task.Scope(callerCtx, func(ctx context.Context, g *task.Group) (int, error) {
			g.SetLimit(3)
			g.Go(task.NamedErr("stock", func(context.Context) error {
				return errors.New("inventory: 503 service unavailable")
			}))
			g.Go(task.NamedErr("users", func(context.Context) error { <-users; return nil }))
			g.Go(task.NamedErr("orders", func(ctx context.Context) error {
				return task.ForEach(ctx, make([]int, 300), 25, func(context.Context, int) error { <-orders; return nil })
			}))
			g.Go(task.NamedErr("recs", func(context.Context) error { <-recs; return nil }))
			for i := range 6 {
				g.Go(task.NamedErr(fmt.Sprintf("page-%d", i), func(context.Context) error { <-finish; return nil }))
			}
			<-stop
			g.Stop()
			close(stopped)
			<-finish
			return 0, nil
		}, task.KeepGoing, task.Grace(10*time.Minute))
		done <- err
	}()

	mux := http.NewServeMux()
	mux.Handle("/debug/tasks/", taskdump.Handler())
	srv := httptest.NewServer(mux)
	defer srv.Close()
	url := srv.URL + "/debug/tasks/"

	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`li.call[data-name="task.Scope"]`))); err != nil {
		t.Fatalf("loading %s: %v", url, err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[int](`window.__marker = 1`)); err != nil {
		t.Fatal(err)
	}

	// 1. The tree: names, the limit, counts by state, the failure.
	v := waitFor(t, ctx, "the running fan-out", func(v scopeView) bool {
		return v.Found && v.Counts["failed"] == 1 && v.Counts["running"] == 4 && v.Counts["waiting"] == 6 &&
			hasAll(v.Names, "users (children[1])", "orders (children[2])", "recs (children[3])", "task.ForEach", "page-0 (children[4])")
	})
	if v.State != "running" || v.Limit != "3" || v.Stop != "" {
		t.Errorf("Scope: state %q, limit %q, stop %q; want running, limit 3, no stop", v.State, v.Limit, v.Stop)
	}
	if len(v.Failures) != 1 || v.Failures[0] != "stock (children[0]): inventory: 503 service unavailable" {
		t.Errorf("failures = %q; want stock (children[0]): inventory: 503 service unavailable", v.Failures)
	}
	forEach, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]int](`(() => { const c = {}; document.querySelectorAll('li.call[data-name="task.ForEach"] > details > summary > .row [data-count]').forEach(b => c[b.dataset.count] = +b.dataset.value); return c; })()`))
	if err != nil {
		t.Fatal(err)
	}
	if forEach["running"] != 25 || forEach["notStarted"] != 275 {
		t.Errorf("ForEach counts = %v; want 25 running, 275 not started", forEach)
	}

	// A call that lists more than 20 functions starts collapsed, with
	// their number; opened by a click, it stays open across redraws.
	const forEachDetails = `document.querySelector('li.call[data-name="task.ForEach"] > details')`
	collapsed, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => { const d = `+forEachDetails+`; return d.open + " " + d.querySelector("summary").textContent; })()`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(collapsed, "false ") || !strings.Contains(collapsed, "(25 inside)") {
		t.Errorf("ForEach: %q; want collapsed, (25 inside)", collapsed)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`li.call[data-name="task.ForEach"] > details > summary`))); err != nil {
		t.Fatal(err)
	}
	clicked := v.Renders
	waitFor(t, ctx, "a redraw after the click", func(v scopeView) bool { return v.Renders > clicked+1 })
	open, err := chromedp.Run(ctx, chromedp.Evaluate[bool](forEachDetails+`.open`))
	if err != nil || !open {
		t.Errorf("ForEach after a click and a redraw: open %v (%v); want open", open, err)
	}
	// Closed again, for the screenshot.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`li.call[data-name="task.ForEach"] > details > summary`))); err != nil {
		t.Fatal(err)
	}
	clicked = waitFor(t, ctx, "a redraw", func(scopeView) bool { return true }).Renders
	waitFor(t, ctx, "a redraw after the second click", func(v scopeView) bool { return v.Renders > clicked+1 })
	if open, err := chromedp.Run(ctx, chromedp.Evaluate[bool](forEachDetails+`.open`)); err != nil || open {
		t.Errorf("ForEach after a second click and a redraw: open %v (%v); want closed", open, err)
	}

	// 2. Live: users returns, a waiting child takes its slot; the page
	// shows it without a reload.
	before := v.Renders
	close(users)
	v = waitFor(t, ctx, "users returned", func(v scopeView) bool {
		return v.Counts["succeeded"] == 1 && v.Counts["waiting"] == 5 && !hasAll(v.Names, "users (children[1])")
	})
	if !v.Marker || v.Renders <= before {
		t.Errorf("the page reloaded (marker %v) or did not render again (%d renders, %d before)", v.Marker, v.Renders, before)
	}

	// 3. Group.Stop, then the caller's ctx done: stopping, the children
	// left not started, the grace period left.
	close(stop)
	<-stopped
	cancelCaller()
	v = waitFor(t, ctx, "the stop", func(v scopeView) bool {
		return v.State == "stopping" && strings.Contains(v.Stop, "of grace left")
	})
	if !strings.Contains(v.Stop, "no new work · 5 left not started · ") || v.Counts["waiting"] != 0 || !v.Marker {
		t.Errorf("after the stop: %+v; want stopping, 5 left not started, the grace left, nothing waiting, no reload", v)
	}

	// A screenshot, of the whole page as it is now (TestPageLive's is the
	// one in the docs).
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "taskdump-page-scope.png")
	if err := os.WriteFile(out, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s (%d bytes)", out, len(png))

	close(recs)
	close(orders)
	close(finish)
	if err := <-done; err == nil || !strings.Contains(err.Error(), "503 service unavailable") {
		t.Errorf("Scope = %v; want the failure of stock", err)
	}
}

// writeScreenshot writes png, the screenshot for the docs, to
// ../docs/taskdump-page.png with -update, else to a temporary file.
func writeScreenshot(t *testing.T, png []byte) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "taskdump-page.png")
	if *update {
		out = filepath.Join("..", "docs", "taskdump-page.png")
	}
	if err := os.WriteFile(out, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s (%d bytes)", out, len(png))
}

// TestPageLarge: at 10,000 children the page lists 100, collapsed, says
// how many more there are, and counts them all by state.
func TestPageLarge(t *testing.T) {
	ctx := browser(t)
	taskdump.Enable()
	release := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		_, err := task.Scope(context.Background(), func(ctx context.Context, g *task.Group) (int, error) {
			g.SetLimit(1000)
			for range 10000 {
				g.Go(func(context.Context) error { <-release; return nil })
			}
			<-release
			return 0, nil
		})
		done <- err
	}()
	defer func() {
		close(release)
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	mux := http.NewServeMux()
	mux.Handle("/debug/tasks/", taskdump.Handler())
	srv := httptest.NewServer(mux)
	defer srv.Close()
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/debug/tasks/")); err != nil {
		t.Fatal(err)
	}
	v := waitFor(t, ctx, "10,000 children", func(v scopeView) bool {
		return v.Found && v.Counts["running"] == 1001 && v.Counts["waiting"] == 9000
	})
	if len(v.Names) != 100 {
		t.Errorf("%d children on the page; want the 100 the JSON lists", len(v.Names))
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
		const d = document.querySelector('li.call[data-name="task.Scope"] > details');
		const more = d.querySelector(':scope > .kids > li.more');
		return d.open + " " + (more ? more.dataset.more + " " + more.textContent : "no more line");
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	if got != "false 9901 and 9,901 more functions" {
		t.Errorf("the Scope: %q; want collapsed, and 9,901 more functions", got)
	}
}
