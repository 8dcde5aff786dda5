package browsertest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The fixture test serves taskdump's page (the file, as the working tree
// has it) with a JSON of its own, written to the contract of
// taskdump.Handler, so that the page is tested on its own: what it draws
// of each field, and what it asks for.

// fxSnapshot and fxEntry are the JSON of taskdump.Handler.
type fxSnapshot struct {
	Enabled bool      `json:"enabled"`
	Time    time.Time `json:"time"`
	Calls   []fxEntry `json:"calls"`
	More    int       `json:"more"`
	Filter  string    `json:"filter,omitempty"`
}

type fxEntry struct {
	ID            int64             `json:"id"`
	Name          string            `json:"name"`
	Call          bool              `json:"call"`
	State         string            `json:"state"`
	Seconds       float64           `json:"seconds"`
	Straggler     bool              `json:"straggler,omitempty"`
	Limit         int               `json:"limit,omitempty"`
	Counts        map[string]int    `json:"counts,omitempty"`
	MedianSeconds *float64          `json:"medianSeconds,omitempty"`
	Labels        map[string]string `json:"labels,omitempty"`
	Children      []fxEntry         `json:"children,omitempty"`
	More          int               `json:"more,omitempty"`
}

// fixture is what the registry would hold with the four calls of
// TestPageLive running: a group with a straggler, two labelled groups, and
// a limited group of 10,000.
func fixture() fxSnapshot {
	id := int64(0)
	next := func() int64 { id++; return id }
	counts := func(running, waiting, succeeded int) map[string]int {
		return map[string]int{"running": running, "waiting": waiting, "succeeded": succeeded, "failed": 0, "canceled": 0}
	}
	median := 0.5
	slow := fxEntry{ID: next(), Name: "task.Group", Call: true, State: "running", Seconds: 2.3,
		Counts: counts(1, 0, 5), MedianSeconds: &median,
		Children: []fxEntry{{ID: next(), Name: "slow (children[5])", State: "running", Seconds: 2.1, Straggler: true}}}
	labelled := func(request string) fxEntry {
		return fxEntry{ID: next(), Name: "task.Group", Call: true, State: "running", Seconds: 1.5,
			Counts: counts(2, 0, 0), Labels: map[string]string{"request": request},
			Children: []fxEntry{
				{ID: next(), Name: "users (children[0])", State: "running", Seconds: 1.5},
				{ID: next(), Name: "orders (children[1])", State: "running", Seconds: 1.5},
			}}
	}
	batch := fxEntry{ID: next(), Name: "task.Group", Call: true, State: "running", Seconds: 1.2, Limit: 64,
		Counts: counts(64, 9936, 0), More: 9900}
	for i := range 100 {
		e := fxEntry{ID: next(), Name: fmt.Sprintf("item-%05d (children[%d])", i, i), State: "running", Seconds: 1.2}
		if i >= 64 {
			e.State, e.Seconds = "waiting", 0
		}
		batch.Children = append(batch.Children, e)
	}
	return fxSnapshot{Enabled: true, Time: time.Date(2026, 12, 3, 15, 0, 0, 0, time.UTC),
		Calls: []fxEntry{slow, labelled("A"), labelled("B"), batch}}
}

// filtered is es with only the entries whose name or one of whose labels
// holds text (ignoring case), with everything below them, and those that
// hold them, as the contract has it.
func filtered(es []fxEntry, text string) []fxEntry {
	var out []fxEntry
	for _, e := range es {
		if matches(e, text) {
			out = append(out, e)
			continue
		}
		if kids := filtered(e.Children, text); len(kids) > 0 {
			e.Children, e.More = kids, 0
			out = append(out, e)
		}
	}
	return out
}

func matches(e fxEntry, text string) bool {
	has := func(s string) bool { return strings.Contains(strings.ToLower(s), strings.ToLower(text)) }
	if has(e.Name) {
		return true
	}
	for k, v := range e.Labels {
		if has(k) || has(v) {
			return true
		}
	}
	return false
}

// fixtureServer serves the page at /debug/tasks/, as taskdump.Handler
// does, and the fixture as its JSON; it records the filter of each fetch
// of the JSON.
type fixtureServer struct {
	*httptest.Server
	mu      sync.Mutex
	filters []string
}

func newFixtureServer(t *testing.T) *fixtureServer {
	t.Helper()
	page, err := os.ReadFile(filepath.Join("..", "taskdump", "page.html"))
	if err != nil {
		t.Fatal(err)
	}
	fs := &fixtureServer{}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/tasks/", func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Cache-Control", "no-store")
		h.Set("X-Content-Type-Options", "nosniff")
		q := r.URL.Query()
		if q.Get("format") != "json" {
			h.Set("Content-Type", "text/html; charset=utf-8")
			// handler.go's policy.
			h.Set("Content-Security-Policy", "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'")
			w.Write(page)
			return
		}
		snap := fixture()
		if f := q.Get("filter"); f != "" {
			snap.Filter = f
			snap.Calls = filtered(snap.Calls, f)
			if snap.Calls == nil {
				snap.Calls = []fxEntry{}
			}
		}
		fs.mu.Lock()
		fs.filters = append(fs.filters, q.Get("filter"))
		fs.mu.Unlock()
		h.Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(snap)
	})
	fs.Server = httptest.NewServer(mux)
	t.Cleanup(fs.Close)
	return fs
}

// lastFilter is the filter of the last fetch of the JSON.
func (fs *fixtureServer) lastFilter() string {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if len(fs.filters) == 0 {
		return "(no fetch)"
	}
	return fs.filters[len(fs.filters)-1]
}

// TestPageFixture draws the fixture: the running functions of the limited
// group first, then the waiting ones, in the JSON's order; the
// straggler's mark and its title; the labels; the filter, typed, sent
// with the fetch, kept in the address, and cleared; a link with a
// filter opens filtered.
func TestPageFixture(t *testing.T) {
	ctx := browser(t)
	srv := newFixtureServer(t)
	url := srv.URL + "/debug/tasks/"
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	all := pollPage(t, ctx, "the fixture", func(v pageView) bool { return v.Renders > 0 })
	if got, want := all.top(), []string{"task.Group", "task.Group", "task.Group", "task.Group"}; !slices.Equal(got, want) {
		t.Errorf("calls at the top: %q; want %q", got, want)
	}

	// The limited group: its functions in the JSON's order, the running
	// first; collapsed, as it lists more than 20.
	batch := all.find(func(r pageRow) bool { return r.Limit == "64" })
	if batch < 0 {
		t.Fatalf("no call with limit 64: %s", all.summary())
	}
	if err := runningFirst(all.under(batch), 64, 100); err != nil {
		t.Errorf("the limited group: %v", err)
	}
	if kids := all.under(batch); kids[0].Name != "item-00000 (children[0])" || kids[64].Name != "item-00064 (children[64])" || all.Rows[batch].Open {
		t.Errorf("the limited group: open %v, function 0 %q, 64 %q; want collapsed, item-00000 (children[0]), item-00064 (children[64])",
			all.Rows[batch].Open, kids[0].Name, kids[64].Name)
	}

	// The straggler.
	s := all.find(func(r pageRow) bool { return r.Straggler })
	if s < 0 || all.Rows[s].Name != "slow (children[5])" || all.Rows[s].Title != "running 4.2x the median of its finished siblings (500ms)" {
		t.Errorf("straggler: %+v; want slow (children[5]), titled running 4.2x the median of its finished siblings (500ms)", all.Rows)
	}
	if n := len(slices.DeleteFunc(slices.Clone(all.Rows), func(r pageRow) bool { return !r.Straggler })); n != 1 {
		t.Errorf("%d rows marked straggler; want 1", n)
	}

	// The labels: two groups told apart.
	for _, req := range []string{"A", "B"} {
		i := all.find(func(r pageRow) bool { return r.Labels == `{"request":"`+req+`"}` })
		if i < 0 || !slices.Equal(all.Rows[i].LabelText, []string{"request=" + req}) || len(all.under(i)) != 2 {
			t.Errorf("no call labelled request=%s with its two functions: %s", req, all.summary())
		}
	}

	// The filter, typed: sent with the fetch, kept in the address; only
	// the matching function and the call that holds it are left.
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS(`#filter`), "item-00007")); err != nil {
		t.Fatal(err)
	}
	v := pollPage(t, ctx, "filtered", func(v pageView) bool { return v.Filter == "item-00007" })
	if len(v.Rows) != 2 || v.Rows[0].Limit != "64" || v.Rows[1].Name != "item-00007 (children[7])" || v.Rows[1].Parent != 0 || !v.Rows[0].Open {
		t.Errorf("filtered by item-00007: %s; want the limited group, open, with item-00007 (children[7]) only", v.summary())
	}
	if v.Search != "?filter=item-00007" || srv.lastFilter() != "item-00007" {
		t.Errorf("filtered: the address's query %q, the fetch's filter %q; want ?filter=item-00007 and item-00007", v.Search, srv.lastFilter())
	}
	// The next refreshes keep it.
	v = pollPage(t, ctx, "a redraw", func(w pageView) bool { return w.Renders > v.Renders })
	if len(v.Rows) != 2 || v.Filter != "item-00007" {
		t.Errorf("filtered, a redraw later: %s", v.summary())
	}

	// A filter that matches nothing says so.
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS(`#filter`), "x")); err != nil {
		t.Fatal(err)
	}
	v = pollPage(t, ctx, "filtered, nothing", func(v pageView) bool { return v.Filter == "item-00007x" })
	if len(v.Rows) != 0 || v.Empty != "no call or function matches “item-00007x”" {
		t.Errorf("filtered by item-00007x: %s; want nothing, and the line that says so", v.summary())
	}

	// Cleared: everything again, and no filter in the address.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(document.getElementById('filter').select(), true)`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS(`#filter`), kb.Backspace)); err != nil {
		t.Fatal(err)
	}
	v = pollPage(t, ctx, "the filter cleared", func(w pageView) bool { return w.Box == "" && w.Filter == "" && w.Renders > v.Renders })
	if len(v.Rows) != len(all.Rows) || v.Search != "" || srv.lastFilter() != "" {
		t.Errorf("the filter cleared: %d rows, query %q, fetch's filter %q; want %d rows, no query, no filter", len(v.Rows), v.Search, srv.lastFilter(), len(all.Rows))
	}

	// A link with a filter opens filtered: by a label's value.
	if err := chromedp.Do(ctx, chromedp.Navigate(url+"?filter=request")); err != nil {
		t.Fatal(err)
	}
	v = pollPage(t, ctx, "a link with a filter", func(v pageView) bool { return v.Renders > 0 })
	if v.Box != "request" || v.Filter != "request" || srv.lastFilter() != "request" || len(v.under(-1)) != 2 || v.Rows[0].Labels != `{"request":"A"}` {
		t.Errorf("opened with ?filter=request: %s; want the box and the fetch filtered, the two labelled groups", v.summary())
	}
}
