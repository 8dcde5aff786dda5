package taskdump

import (
	_ "embed"
	"encoding/json"
	"net/http"
)

// page is the HTML page of Handler: its script and style are inline, and
// it loads nothing but the JSON of the same handler.
//
//go:embed page.html
var page []byte

// Handler returns an HTTP handler that serves the calls running now, for a
// debug endpoint, mounted as net/http/pprof's handlers are:
//
//	taskdump.Enable()
//	http.Handle("/debug/tasks/", taskdump.Handler())
//
// A request with the query format=json (/debug/tasks/?format=json) gets
// the calls as JSON; any other request gets an HTML page that shows them
// as a tree and fetches that JSON again a second after each response, so
// that it follows the calls without a reload. The page loads nothing else: its script and
// style are in it, and its Content-Security-Policy allows no other
// source. A query filter=TEXT (the page's filter box sets it) keeps only
// the calls and functions whose name, or one of whose labels (key or
// value), contains TEXT, ignoring case, with everything below them and
// the calls and functions that hold them; a call's counts stay whole.
//
// Handler does not enable the registry: until [Enable] is called the
// handler serves no calls, and the JSON's "enabled" is false (the page
// says to call Enable). A program that never calls Enable pays nothing
// for the registry, whether it serves Handler or not.
//
// The JSON is an object:
//
//	{"enabled": true, "time": "2026-12-01T22:00:00.5Z", "filter": "fetch", "calls": [...], "more": 0}
//
// "filter" is the filter asked for (omitted when none), "calls" lists the
// calls at the top (calls made outside any function of another call),
// "more" counts those not listed. Each call and function is an object
// with:
//
//   - "id": a number that identifies it while it runs (0 for a child
//     waiting for a slot)
//   - "name": for a call, "task." and its function's name: "task.Run3",
//     "task.Await2", "task.Map", "task.ForEach", "task.MapWithin",
//     "task.MapSeq", "task.MapSeqUnordered", "task.Do", "task.Hedge",
//     "task.Quorum", "task.Until", "task.Scope", "task.Group" (a group of
//     NewGroup, or a zero Group), "task.Go" (a task); for a function its
//     position ("inputs[3]", "f2", "children[0]", "body", "fn" for the
//     function of a task) or, if task.Named, NamedErr or NamedBy gave it
//     a name, "recs (f2)"
//   - "call": true for a call, false for a function
//   - "state": for a function, "running", or "waiting" for a child of a
//     limited group waiting for a slot; for a call, "running", "stopping"
//     once it has stopped taking new work (task.Grace), "cut" once its
//     grace period has ended
//   - "seconds": how long it has been running (0 for a waiting child: the
//     registry does not time the wait)
//   - "straggler": true for a function running more than 3 times its
//     call's "medianSeconds", and for at least 0.1 seconds (omitted
//     otherwise)
//   - "children", "more": for a call, its functions, then the calls made
//     with its context outside them (a NewGroup's context); for a
//     function, the calls it makes; those not listed are counted in "more"
//     (omitted when 0)
//
// and, for a call only:
//
//   - "labels": the pprof labels of the context it was given (see
//     runtime/pprof.Do and pprof.WithLabels), as an object, omitted when
//     none: what tells two requests' calls apart; taskpprof's own labels,
//     whose keys start with "task.", are left out
//   - "limit": the most functions it runs at once, as Map, ForEach,
//     MapSeq and Group.SetLimit set it; omitted for no limit
//   - "counts": its functions by state: "running" (the functions running
//     now, the body of a Scope among them), "waiting" (children of a
//     limited group waiting for a slot), "notStarted" (Map and ForEach
//     only: the inputs not taken yet, which after a failure or a stop may
//     never be), "succeeded", "failed" and "canceled" (the functions that
//     ended so far; "canceled" are those that returned context.Canceled
//     or context.DeadlineExceeded, or an error wrapping one, with their
//     context done; "failed" the others that returned an error, panicked
//     or called runtime.Goexit)
//   - "medianSeconds": the median time of its functions that ended, over
//     a sample of them (the last 8 of each goroutine that runs them one
//     after another, or of each slot reused for them, and the last 32 of
//     those no longer kept), once at least 5 are counted; omitted before
//   - "failures": the first 10 functions that failed, each
//     {"name": ..., "error": ...}: the error's text, "panic: " and the
//     panic value, or "runtime.Goexit called"; a text longer than 500
//     bytes is cut before the character that crosses 500, and ends in "…"
//   - "stop", once it is stopping: "notStarted", the work it left not
//     started when it stopped (omitted for MapSeq, which cannot tell), and
//     "graceLeftSeconds", the grace period left (omitted until it starts,
//     and once it has ended)
//
// A call lists the functions running first, the oldest first (then by
// position), then the children waiting for a slot, in the order they
// will start; calls are listed in the order they started. The JSON lists
// at most 100 children of a call or function (and 100 calls at the top)
// and at most 2,000 calls and functions in all, so that the cost of a
// request is bounded however many run: the counts cover them all. The
// same list comes back from one request to the next while the work does
// not change. [Write] writes everything.
func Handler() http.Handler { return handler{} }

type handler struct{}

func (handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	if q := r.URL.Query(); q.Get("format") == "json" {
		h.Set("Content-Type", "application/json")
		b, err := json.Marshal(take(true, q.Get("filter")))
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Write(append(b, '\n'))
		return
	}
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'")
	w.Write(page)
}
