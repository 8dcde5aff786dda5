package browsertest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// pageView is the whole tree on the page, as the DOM has it: every call
// and function in document order, whether its call is open or not.
type pageView struct {
	Renders int       `json:"renders"`
	Filter  string    `json:"filter"` // the filter of the JSON drawn last
	Box     string    `json:"box"`    // the text in the filter box
	Search  string    `json:"search"` // the page's location.search
	Empty   string    `json:"empty"`  // the line shown when nothing is listed
	Rows    []pageRow `json:"rows"`
}

// A pageRow is a call or a function on the page.
type pageRow struct {
	ID        string   `json:"id"`
	Name      string   `json:"name"`
	Call      bool     `json:"call"`
	State     string   `json:"state"`
	Parent    int      `json:"parent"` // the index in Rows of the node that holds it; -1 at the top
	Limit     string   `json:"limit"`
	Labels    string   `json:"labels"`    // data-labels: the JSON of the call's labels
	LabelText []string `json:"labelText"` // the label badges, key=value
	Straggler bool     `json:"straggler"` // data-straggler
	Title     string   `json:"title"`     // the straggler badge's title
	Open      bool     `json:"open"`      // a call listing functions, open
}

const readPage = `(() => {
	const nodes = [...document.querySelectorAll('#tree li.node')];
	const index = new Map(nodes.map((n, i) => [n, i]));
	const empty = document.querySelector('#tree li.empty');
	return {
		renders: +document.body.dataset.renders || 0,
		filter: document.body.dataset.filter || "",
		box: document.getElementById('filter').value,
		search: location.search,
		empty: empty ? empty.textContent : "",
		rows: nodes.map(n => {
			const up = n.parentElement.closest('li.node');
			const row = n.querySelector(':scope > details > summary > .row') || n.querySelector(':scope > .row');
			const limit = row.querySelector('[data-limit]');
			const mark = row.querySelector('.straggler');
			const details = n.querySelector(':scope > details');
			return {
				id: n.dataset.id,
				name: n.dataset.name,
				call: n.classList.contains('call'),
				state: n.dataset.state,
				parent: up ? index.get(up) : -1,
				limit: limit ? limit.dataset.limit : "",
				labels: n.dataset.labels || "",
				labelText: [...row.querySelectorAll('.label')].map(b => b.textContent),
				straggler: n.hasAttribute('data-straggler'),
				title: mark ? mark.title : "",
				open: details ? details.open : false,
			};
		}),
	};
})()`

// pollPage reads the page until ok holds, and returns what it read; it
// fails the test after a deadline. The poll reads the page: it waits for
// nothing else.
func pollPage(t *testing.T, ctx context.Context, what string, ok func(v pageView) bool) pageView {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		v, err := chromedp.Run(ctx, chromedp.Evaluate[pageView](readPage))
		if err != nil {
			t.Fatalf("%s: reading the page: %v", what, err)
		}
		if ok(v) {
			return v
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: the page never showed it; last seen: %s", what, v.summary())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// under returns the rows held by the row at index i, in order.
func (v pageView) under(i int) []pageRow {
	var rs []pageRow
	for _, r := range v.Rows {
		if r.Parent == i {
			rs = append(rs, r)
		}
	}
	return rs
}

// find returns the index of the first row that ok holds for, or -1.
func (v pageView) find(ok func(r pageRow) bool) int {
	for i, r := range v.Rows {
		if ok(r) {
			return i
		}
	}
	return -1
}

// top returns the names of the calls at the top.
func (v pageView) top() []string {
	var names []string
	for _, r := range v.under(-1) {
		names = append(names, r.Name)
	}
	return names
}

// summary is v in short, for a failure: the calls at the top and the
// number of rows.
func (v pageView) summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "filter %q, box %q, search %q; calls at the top:", v.Filter, v.Box, v.Search)
	for i, r := range v.Rows {
		if r.Parent != -1 {
			continue
		}
		kids := v.under(i)
		b.WriteString(" " + r.Name + r.Labels + "[")
		for j, k := range kids {
			if j == 4 {
				b.WriteString(" …")
				break
			}
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString(k.Name + " " + k.State)
			if k.Straggler {
				b.WriteString(" straggler")
			}
		}
		b.WriteString("]")
	}
	if v.Empty != "" {
		b.WriteString(" (" + v.Empty + ")")
	}
	return b.String()
}

// runningFirst checks the functions of a limited group as the page lists
// them: wantListed in all, the first wantRunning running, then waiting
// ones, all named item-….
func runningFirst(rows []pageRow, wantRunning, wantListed int) error {
	if len(rows) != wantListed {
		return fmt.Errorf("%d functions listed; want %d", len(rows), wantListed)
	}
	for i, r := range rows {
		want := "running"
		if i >= wantRunning {
			want = "waiting"
		}
		if r.Call || r.State != want || !strings.HasPrefix(r.Name, "item-") {
			return fmt.Errorf("function %d is %q %s; want item-… %s", i, r.Name, r.State, want)
		}
	}
	return nil
}
