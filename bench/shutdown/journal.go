package shutdown

import (
	"encoding/json"
	"io"
	"sync"
	"time"
)

// An Event is one line of the journal: what happened to a request, a job or
// the service, as JSON.
type Event struct {
	// T is the time of the event, in milliseconds since the service
	// started.
	T float64 `json:"t"`

	// Kind is "request", "job" or "service".
	Kind string `json:"kind"`

	// ID is the request's or job's id, as the client gave it.
	ID string `json:"id,omitempty"`

	// Event is what happened. To a request: "accepted" (its handler
	// started), then "completed" or "cut". To a job: "accepted" (queued),
	// "started", then "completed" or "cut"; or "notstarted", when the
	// service stopped before it started (a real service would hand it back
	// to its broker). To the service: "listening", "signal" (SIGTERM
	// received), "exit".
	Event string `json:"event"`

	// Ms is the duration of the work of a request or job, in milliseconds.
	Ms int `json:"ms,omitempty"`

	// Err is the error of a request or job that was cut, or of the
	// service at its exit.
	Err string `json:"err,omitempty"`

	// Addr is the address the service listens on ("listening").
	Addr string `json:"addr,omitempty"`
}

// A Journal writes events as JSON lines, one Write each, in the order they
// happen. Its methods may be called from any goroutine.
type Journal struct {
	start time.Time
	mu    sync.Mutex // serializes the writes
	enc   *json.Encoder
}

// NewJournal returns a journal that writes to w.
func NewJournal(w io.Writer) *Journal {
	return &Journal{start: time.Now(), enc: json.NewEncoder(w)}
}

// Log writes e, with its time set to now.
func (j *Journal) Log(e Event) {
	j.mu.Lock()
	defer j.mu.Unlock()
	e.T = float64(time.Since(j.start).Microseconds()) / 1e3
	_ = j.enc.Encode(e) // a journal that cannot be written has no one to tell
}
