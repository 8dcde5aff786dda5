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
// source.
//
// Handler does not enable the registry: until [Enable] is called the
// handler serves no calls, and the JSON's "enabled" is false (the page
// says to call Enable). A program that never calls Enable pays nothing
// for the registry, whether it serves Handler or not.
//
// The JSON is an object:
//
//	{"enabled": true, "time": "2026-12-01T22:00:00.5Z", "calls": [...], "more": 0}
//
// "calls" lists the calls at the top (calls made outside any function of
// another call), "more" counts those not listed. Each call and function
// is an object with:
//
//   - "id": a number that identifies it while it runs
//   - "name": "task.Map" for a call; for a function its position
//     ("inputs[3]", "f2", "children[0]", "body") or, if task.Named gave
//     it a name, "recs (f2)"
//   - "call": true for a call, false for a function
//   - "state": for a function, "running", or "waiting" for a child of a
//     Scope waiting for a slot; for a call, "running", "stopping" once it
//     has stopped taking new work (task.Grace), "cut" once its grace period
//     has ended
//   - "seconds": how long it has been running, or waiting
//   - "children", "more": for a call, its functions; for a function, the
//     calls it makes; those not listed are counted in "more" (omitted
//     when 0)
//
// and, for a call only:
//
//   - "limit": the most functions it runs at once, as Map, ForEach,
//     MapSeq and Group.SetLimit set it; omitted for no limit
//   - "counts": its functions by state: "running" (the functions running
//     now, the body of a Scope among them), "waiting" (children of a Scope
//     waiting for a slot), "notStarted" (Map and ForEach only: the inputs
//     not taken yet, which after a failure or a stop may never be),
//     "succeeded", "failed" and "canceled" (the functions that ended so
//     far; "canceled" are those that returned context.Canceled or
//     context.DeadlineExceeded, or an error wrapping one, with their
//     context done; "failed" the others that returned an error, panicked
//     or called runtime.Goexit)
//   - "failures": the first 10 functions that failed, each
//     {"name": ..., "error": ...}: the error's text, "panic: " and the
//     panic value, or "runtime.Goexit called"; a text longer than 500
//     bytes is cut before the character that crosses 500, and ends in "…"
//   - "stop", once it is stopping: "notStarted", the work it left not
//     started when it stopped (omitted for MapSeq, which cannot tell), and
//     "graceLeftSeconds", the grace period left (omitted until it starts,
//     and once it has ended)
//
// Siblings are sorted by start, then name. The JSON lists at most 100
// children of a call or function (and 100 calls at the top), those
// registered first, and at most 2,000 calls and functions in all, so that
// the cost of a request is bounded however many run: the counts, which
// the registry keeps as functions start and end, cover them all. [Write]
// writes everything.
func Handler() http.Handler { return handler{} }

type handler struct{}

func (handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	if r.URL.Query().Get("format") == "json" {
		h.Set("Content-Type", "application/json")
		b, err := json.Marshal(take(true))
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
