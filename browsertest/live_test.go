package browsertest

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime/pprof"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/tasktuple/task"
	"github.com/tasktuple/task/taskdump"
)

// TestPageLive runs, with the registry enabled, a group whose sixth
// function outlasts five that returned at once (a straggler), two groups
// made under the pprof labels request=A and request=B, and a group of
// 10,000 limited to 64, and reads taskdump.Handler's page: the 64 running
// functions of the group of 10,000 listed first, by name, then the
// waiting ones, by name; the straggler marked; the labels; the filter,
// typed and cleared, and in a link. It writes the screenshot of the
// page with all four, docs/taskdump-page.png with -update.
func TestPageLive(t *testing.T) {
	ctx := browser(t)
	taskdump.Enable()

	// The straggler: shard-0 to shard-4 return at once, shard-5 is held.
	fast, slow := make(chan struct{}), make(chan struct{})
	shards, _ := task.NewGroup(context.Background())
	for i := range 6 {
		hold := fast
		if i == 5 {
			hold = slow
		}
		shards.Go(task.NamedErr(fmt.Sprintf("shard-%d", i), func(context.Context) error { <-hold; return nil }))
	}
	close(fast)

	// Two requests' groups, told apart by their labels.
	requests := make(chan struct{})
	var labelled []*task.Group
	for _, req := range []string{"A", "B"} {
		pprof.Do(context.Background(), pprof.Labels("request", req), func(ctx context.Context) {
			g, _ := task.NewGroup(ctx)
			g.Go(task.NamedErr("users", func(context.Context) error { <-requests; return nil }))
			g.Go(task.NamedErr("orders", func(context.Context) error { <-requests; return nil }))
			labelled = append(labelled, g)
		})
	}

	// The batch: 10,000 items, 64 at a time; none returns until items is
	// closed.
	items := make(chan struct{})
	batch, _ := task.NewGroup(context.Background())
	batch.SetLimit(64)
	for i := range 10000 {
		batch.Go(task.NamedErr(fmt.Sprintf("item-%05d", i), func(context.Context) error { <-items; return nil }))
	}

	defer func() {
		close(slow)
		close(requests)
		close(items)
		for _, g := range append(labelled, shards, batch) {
			if err := g.Wait(); err != nil {
				t.Error(err)
			}
		}
	}()

	mux := http.NewServeMux()
	mux.Handle("/debug/tasks/", taskdump.Handler())
	srv := httptest.NewServer(mux)
	defer srv.Close()
	url := srv.URL + "/debug/tasks/"
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1100, 860), chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}

	isBatch := func(r pageRow) bool { return r.Call && r.Limit == "64" }
	isStraggler := func(r pageRow) bool { return r.Straggler }

	// (a) The batch: its 64 running functions listed first, then 36
	// waiting ones, every one by its name.
	v := pollPage(t, ctx, "the batch's running functions listed first", func(v pageView) bool {
		b := v.find(isBatch)
		return b >= 0 && runningFirst(v.under(b), 64, 100) == nil
	})
	kids := v.under(v.find(isBatch))
	var running, waiting []string
	for _, k := range kids {
		if k.State == "running" {
			running = append(running, k.Name)
		} else {
			waiting = append(waiting, k.Name)
		}
	}
	slices.Sort(running)
	for i, name := range running {
		if want := fmt.Sprintf("item-%05d (children[%d])", i, i); name != want {
			t.Errorf("running function %q; want the first 64 items, %q among them", name, want)
			break
		}
	}
	for i, name := range waiting {
		if want := fmt.Sprintf("item-%05d (children[%d])", 64+i, 64+i); name != want {
			t.Errorf("waiting function %d is %q; want %q: the items in the order they will start", i, name, want)
			break
		}
	}
	// The same list at the next refresh: the work did not change.
	next := pollPage(t, ctx, "a refresh", func(w pageView) bool { return w.Renders > v.Renders })
	if got, want := names(next.under(next.find(isBatch))), names(kids); !slices.Equal(got, want) {
		t.Errorf("the batch's functions changed from one refresh to the next:\n%q\n%q", want, got)
	}

	// (d) The two labelled groups, each with its functions.
	for _, req := range []string{"A", "B"} {
		i := v.find(func(r pageRow) bool { return r.Labels == `{"request":"`+req+`"}` })
		if i < 0 {
			t.Errorf("no call labelled request=%s: %s", req, v.summary())
			continue
		}
		got := names(v.under(i))
		slices.Sort(got)
		if !slices.Equal(v.Rows[i].LabelText, []string{"request=" + req}) || !slices.Equal(got, []string{"orders (children[1])", "users (children[0])"}) {
			t.Errorf("the call labelled request=%s: badges %q, functions %q; want request=%s, users and orders", req, v.Rows[i].LabelText, got, req)
		}
	}

	// (c) The straggler: shard-5, once it has run long enough; the only
	// one.
	v = pollPage(t, ctx, "the straggler marked", func(v pageView) bool { return v.find(isStraggler) >= 0 })
	s := v.Rows[v.find(isStraggler)]
	if s.Name != "shard-5 (children[5])" || s.State != "running" ||
		!strings.HasPrefix(s.Title, "running ") || !strings.Contains(s.Title, "x the median of its finished siblings") {
		t.Errorf("straggler: %+v; want shard-5 (children[5]), running, titled running …x the median of its finished siblings", s)
	}
	if n := len(slices.DeleteFunc(slices.Clone(v.Rows), func(r pageRow) bool { return !r.Straggler })); n != 1 {
		t.Errorf("%d rows marked straggler; want 1: %s", n, v.summary())
	}
	if got := names(v.under(s.Parent)); !slices.Equal(got, []string{"shard-5 (children[5])"}) {
		t.Errorf("the straggler's group lists %q; want shard-5 (children[5]) only, the others returned", got)
	}

	// (b) The filter, typed: only the matching function and the call that
	// holds it; in the address; cleared, everything again.
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS(`#filter`), "item-00007")); err != nil {
		t.Fatal(err)
	}
	v = pollPage(t, ctx, "filtered by item-00007", func(v pageView) bool { return v.Filter == "item-00007" })
	if len(v.Rows) != 2 || !isBatch(v.Rows[0]) || v.Rows[1].Name != "item-00007 (children[7])" || v.Rows[1].Parent != 0 || v.Rows[1].State != "running" {
		t.Errorf("filtered by item-00007: %s; want the batch with item-00007 (children[7]) only", v.summary())
	}
	if v.Search != "?filter=item-00007" {
		t.Errorf("filtered: the address's query is %q; want ?filter=item-00007", v.Search)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(document.getElementById('filter').select(), true)`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS(`#filter`), kb.Backspace)); err != nil {
		t.Fatal(err)
	}
	v = pollPage(t, ctx, "the filter cleared", func(w pageView) bool { return w.Box == "" && w.Filter == "" && w.Renders > v.Renders })
	if b := v.find(isBatch); len(v.under(-1)) != 4 || b < 0 || len(v.under(b)) != 100 || v.Search != "" {
		t.Errorf("the filter cleared: %s, query %q; want the four groups, the batch's 100 functions, no query", v.summary(), v.Search)
	}

	// A link with a filter, by a label's key: the two labelled groups.
	if err := chromedp.Do(ctx, chromedp.Navigate(url+"?filter=request")); err != nil {
		t.Fatal(err)
	}
	v = pollPage(t, ctx, "opened with ?filter=request", func(v pageView) bool { return v.Renders > 0 })
	if top := v.under(-1); v.Box != "request" || v.Filter != "request" || len(top) != 2 || top[0].Labels == "" || top[1].Labels == "" || len(v.Rows) != 6 {
		t.Errorf("opened with ?filter=request: %s; want the two labelled groups and their functions", v.summary())
	}

	// The screenshot: the four groups, the batch opened by a click.
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	v = pollPage(t, ctx, "the page again", func(v pageView) bool { return v.find(isBatch) >= 0 && v.find(isStraggler) >= 0 })
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`li.call[data-id="`+v.Rows[v.find(isBatch)].ID+`"] > details > summary`))); err != nil {
		t.Fatal(err)
	}
	v = pollPage(t, ctx, "the batch opened, after a redraw", func(w pageView) bool { return w.Renders > v.Renders+1 })
	if b := v.find(isBatch); b < 0 || !v.Rows[b].Open {
		t.Errorf("the batch after a click and a redraw: %s; want open", v.summary())
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	writeScreenshot(t, png)
}

func names(rows []pageRow) []string {
	var ns []string
	for _, r := range rows {
		ns = append(ns, r.Name)
	}
	return ns
}
