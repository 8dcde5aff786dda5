package shutdown

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"
)

// A Service is what the two example services share: the handlers, the work
// of a job, the queue and the journal. How they run it, and stop, is theirs.
type Service struct {
	Journal *Journal
	Queue   *Queue
}

// New returns a service that writes its journal to w.
func New(w io.Writer) *Service {
	return &Service{Journal: NewJournal(w), Queue: NewQueue(1024)}
}

// Handler returns the service's routes:
//
//   - GET /work?id=r1&ms=300 does 300 ms of work and answers 200, or 503
//     if the request's context is canceled first;
//   - POST /jobs?id=j1&ms=300 queues a job of 300 ms and answers 202, or
//     503 if the queue is closed or full.
func (s *Service) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /work", s.work)
	mux.HandleFunc("POST /jobs", s.submit)
	return mux
}

func (s *Service) work(w http.ResponseWriter, r *http.Request) {
	id, d, ok := params(w, r)
	if !ok {
		return
	}
	s.Journal.Log(Event{Kind: "request", ID: id, Event: "accepted", Ms: int(d.Milliseconds())})
	if err := Work(r.Context(), d); err != nil {
		s.Journal.Log(Event{Kind: "request", ID: id, Event: "cut", Err: err.Error()})
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	s.Journal.Log(Event{Kind: "request", ID: id, Event: "completed"})
	fmt.Fprintln(w, "done")
}

func (s *Service) submit(w http.ResponseWriter, r *http.Request) {
	id, d, ok := params(w, r)
	if !ok {
		return
	}
	if !s.Queue.Submit(Job{ID: id, D: d}) {
		http.Error(w, "not accepting jobs", http.StatusServiceUnavailable)
		return
	}
	s.Journal.Log(Event{Kind: "job", ID: id, Event: "accepted", Ms: int(d.Milliseconds())})
	w.WriteHeader(http.StatusAccepted)
}

// params reads the id and ms of a request, or answers 400.
func params(w http.ResponseWriter, r *http.Request) (id string, d time.Duration, ok bool) {
	id = r.FormValue("id")
	ms, err := strconv.Atoi(r.FormValue("ms"))
	if id == "" || err != nil || ms < 0 {
		http.Error(w, "want ?id=...&ms=...", http.StatusBadRequest)
		return "", 0, false
	}
	return id, time.Duration(ms) * time.Millisecond, true
}

// Process does job j, journaling its start and its end. It returns what
// [Work] returns: only a cut. (A job that failed on its own would be
// journaled and not returned: one failed job must not stop the service.)
func (s *Service) Process(ctx context.Context, j Job) error {
	s.Journal.Log(Event{Kind: "job", ID: j.ID, Event: "started"})
	if err := Work(ctx, j.D); err != nil {
		s.Journal.Log(Event{Kind: "job", ID: j.ID, Event: "cut", Err: err.Error()})
		return err
	}
	s.Journal.Log(Event{Kind: "job", ID: j.ID, Event: "completed"})
	return nil
}

// NotStarted journals that job j was taken from the queue and not started.
func (s *Service) NotStarted(j Job) {
	s.Journal.Log(Event{Kind: "job", ID: j.ID, Event: "notstarted"})
}

// StopJobs closes the queue, so that POST /jobs answers 503 from now on,
// and journals the jobs left in it as not started.
func (s *Service) StopJobs() {
	for _, j := range s.Queue.Close() {
		s.NotStarted(j)
	}
}

// Work is the work of a request or a job: it takes d, or gives up when ctx
// is canceled, returning the cancellation's cause.
func Work(ctx context.Context, d time.Duration) error {
	start := time.Now()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("cut after %v of %v: %w", time.Since(start).Round(time.Millisecond), d, context.Cause(ctx))
	}
}

// Listening journals that the service listens on addr, and, when ctx is
// done, that the signal came.
func (s *Service) Listening(ctx context.Context, addr net.Addr) {
	s.Journal.Log(Event{Kind: "service", Event: "listening", Addr: addr.String()})
	context.AfterFunc(ctx, func() { s.Journal.Log(Event{Kind: "service", Event: "signal"}) })
}

// Exit journals the end of the service, with err.
func (s *Service) Exit(err error) {
	e := Event{Kind: "service", Event: "exit"}
	if err != nil {
		e.Err = err.Error()
	}
	s.Journal.Log(e)
}
