package shutdown

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestShutdown starts each service as a child process, loads it with
// requests and jobs, sends SIGTERM while they are in flight, and reads what
// became of each from the clients' side and from the service's journal. It
// checks that the task service completed every request and job that could
// finish within the grace period, cut only those that could not, reported
// everything it accepted, and exited within the grace period plus a bound.
// The errgroup service is run for comparison only: its figures are logged,
// not checked. With -v the test prints them as a table (docs/shutdown.md).
func TestShutdown(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGTERM on windows")
	}
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool to build the services")
	}
	dir := t.TempDir()
	build := exec.Command(gotool, "build", "-o", dir+string(filepath.Separator), "./cmd/taskservice", "./cmd/egservice")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var all []figures
	for _, s := range []struct {
		name string
		args []string
		task bool
	}{
		{name: "taskservice", task: true},
		{name: "egservice"},
		{name: "egservice", args: []string{"-basectx=false"}},
	} {
		name := strings.Join(append([]string{s.name}, s.args...), " ")
		t.Run(name, func(t *testing.T) {
			r := start(t, filepath.Join(dir, s.name), s.args...).load(t)
			if s.task {
				r.check(t)
			}
			f := r.figures(name)
			t.Log(f.table())
			all = append(all, f)
		})
	}
	if len(all) > 1 {
		var b strings.Builder
		for i, f := range all {
			if i == 0 {
				b.WriteString(f.header())
			}
			b.WriteString(f.row())
		}
		t.Logf("figures (docs/shutdown.md):\n%s", &b)
	}
}

const (
	grace   = 2 * time.Second         // the services' grace period (const grace in each)
	bound   = 1500 * time.Millisecond // how long after the grace period the task service may take to exit
	workers = 4                       // the services' jobs at once (const workers in each)
)

// The load sent before SIGTERM: one request of each duration, all at once,
// and one job of each duration, in this order (the first workers jobs are
// running at SIGTERM, the others queued). The durations are well below the
// grace period, but for one request and one job of 10 s, which cannot finish
// within it. lateJobs more jobs are submitted after SIGTERM.
var (
	requestMs = []int{500, 550, 600, 650, 700, 750, 800, 850, 900, 950, 1000, 1050, 1100, 1150, 1200, 1250, 10000}
	jobMs     = []int{10000, 1200, 1000, 800, 500, 600, 700, 800, 900, 1000, 1100, 1200}
)

const lateJobs = 4

// A process is a service running as a child process.
type process struct {
	cmd    *exec.Cmd
	addr   string
	events chan Event // the journal, as the service writes it; closed when it exits
	exited chan exit
	stderr bytes.Buffer // written by exec until the service exits

	mu      sync.Mutex   // guards journal
	journal bytes.Buffer // the lines read, for a failure
}

type exit struct {
	at  time.Time
	err error
}

// start starts the service bin and waits for its address.
func start(t *testing.T, bin string, args ...string) *process {
	p := &process{cmd: exec.Command(bin, args...), events: make(chan Event, 4096), exited: make(chan exit, 1)}
	pr, pw := io.Pipe()
	p.cmd.Stdout = pw
	p.cmd.Stderr = &p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.cmd.Process.Kill() }) // for a test that fails half-way; an error once it has exited
	t.Cleanup(func() {
		if t.Failed() {
			p.mu.Lock()
			defer p.mu.Unlock()
			t.Logf("the service's journal:\n%s", &p.journal)
		}
	})
	go func() {
		err := p.cmd.Wait()
		p.exited <- exit{time.Now(), err}
		pw.Close()
	}()
	go func() {
		defer close(p.events)
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			p.mu.Lock()
			p.journal.Write(sc.Bytes())
			p.journal.WriteByte('\n')
			p.mu.Unlock()
			var e Event
			if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
				e = Event{Kind: "service", Event: "garbage", Err: sc.Text()}
			}
			p.events <- e
		}
	}()
	select {
	case e, ok := <-p.events:
		if !ok || e.Event != "listening" {
			t.Fatalf("the service started with %+v; want its address", e)
		}
		p.addr = e.Addr
	case <-time.After(10 * time.Second):
		t.Fatal("the service did not print its address within 10s")
	}
	return p
}

// A run is what the test saw of one service: the journal, and for each
// request and job what its client got.
type run struct {
	events []Event           // the journal after the address, in order
	got    map[string]result // by request or job id
	ms     map[string]int    // the duration asked, by id
	exit   time.Duration     // from SIGTERM to the service's exit
	err    error             // of the exit
	stderr string
}

// A result is what a client got: a status code, or an error.
type result struct {
	code int
	err  error
}

// load sends the load, then SIGTERM once every request has been accepted
// and workers jobs have started, then lateJobs jobs, and waits for the
// service to exit and for the clients.
func (p *process) load(t *testing.T) *run {
	r := &run{got: make(map[string]result), ms: make(map[string]int)}
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 30 * time.Second}
	defer client.CloseIdleConnections()
	var mu sync.Mutex // guards r.got while the clients run
	do := func(method, id string, ms int) result {
		url := fmt.Sprintf("http://%s/%s?id=%s&ms=%d", p.addr, map[string]string{"GET": "work", "POST": "jobs"}[method], id, ms)
		var res result
		req, err := http.NewRequest(method, url, nil)
		if err != nil {
			panic(err) // the test's own bug
		}
		resp, err := client.Do(req)
		if err != nil {
			res.err = err
		} else {
			_, res.err = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			res.code = resp.StatusCode
		}
		mu.Lock()
		r.got[id] = res
		r.ms[id] = ms
		mu.Unlock()
		return res
	}

	var clients sync.WaitGroup
	for i, ms := range requestMs {
		clients.Go(func() { do("GET", fmt.Sprintf("r%d", i), ms) })
	}
	for i, ms := range jobMs {
		id := fmt.Sprintf("j%d", i)
		if res := do("POST", id, ms); res.code != http.StatusAccepted {
			t.Fatalf("POST /jobs %s before SIGTERM: %d %v; want 202", id, res.code, res.err)
		}
	}
	accepted, started := 0, 0
	timeout := time.After(15 * time.Second)
	for accepted < len(requestMs) || started < workers {
		select {
		case e, ok := <-p.events:
			if !ok {
				t.Fatalf("the service exited before SIGTERM: %s", p.stderr.String())
			}
			r.events = append(r.events, e)
			switch {
			case e.Kind == "request" && e.Event == "accepted":
				accepted++
			case e.Kind == "job" && e.Event == "started":
				started++
			}
		case <-timeout:
			t.Fatalf("after 15s, %d requests accepted and %d jobs started; want %d and %d", accepted, started, len(requestMs), workers)
		}
	}

	signaled := time.Now()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	// The service should refuse these, or accept and report them.
	for i := range lateJobs {
		do("POST", fmt.Sprintf("late%d", i), 500)
	}
	select {
	case e := <-p.exited:
		r.exit, r.err = e.at.Sub(signaled), e.err
	case <-time.After(grace + 10*time.Second):
		t.Fatalf("the service has not exited %v after SIGTERM", grace+10*time.Second)
	}
	for e := range p.events {
		r.events = append(r.events, e)
	}
	clients.Wait()
	r.stderr = p.stderr.String()
	return r
}

// A fate is what the journal says of one request or job.
type fate struct {
	kind            string
	accepted        bool   // its handler started (request), or it was queued (job)
	startedBefore   bool   // job: started before the signal
	end             string // "completed", "cut", "notstarted", or "" if the journal does not say
	endBefore       bool   // it ended before the signal
	endErr          string
	acceptedBefore  bool // accepted before the signal
	journaledTwice  bool
	startedAfterEnd bool
	// job: started after the signal, once another job had ended after it.
	// By then the stop has long been in effect, and no job may start: the
	// slot that job freed is not for new work.
	startedAfterStop bool
}

// fates reads the journal: what became of each id, relative to the signal.
func (r *run) fates() (map[string]*fate, bool) {
	m := make(map[string]*fate)
	signaled, freed := false, false
	for _, e := range r.events {
		if e.Kind == "service" {
			signaled = signaled || e.Event == "signal"
			continue
		}
		f := m[e.ID]
		if f == nil {
			f = &fate{kind: e.Kind}
			m[e.ID] = f
		}
		switch e.Event {
		case "accepted":
			f.accepted, f.acceptedBefore = true, !signaled
		case "started":
			f.startedBefore = !signaled
			f.startedAfterEnd = f.end != ""
			f.startedAfterStop = freed
		default:
			freed = freed || (signaled && e.Kind == "job")
			if f.end != "" {
				f.journaledTwice = true
			}
			// The service journals the signal from a context.AfterFunc, which
			// may run after what the signal caused has been journaled: a cut
			// or a job not started is after the signal whatever the order of
			// the lines (nothing else cuts or stops work in these runs).
			f.end, f.endBefore, f.endErr = e.Event, !signaled && e.Event == "completed", e.Err
		}
	}
	return m, signaled
}

// check checks the promises of the task service.
func (r *run) check(t *testing.T) {
	fates, signaled := r.fates()
	if !signaled {
		t.Error("the journal has no signal")
	}
	if r.err != nil {
		t.Errorf("the service exited with %v; want 0\n%s", r.err, r.stderr)
	}
	if r.exit > grace+bound {
		t.Errorf("the service exited %v after SIGTERM; want at most %v (the grace period plus %v)", r.exit, grace+bound, bound)
	}
	for id, res := range r.got {
		f := fates[id]
		switch {
		case strings.HasPrefix(id, "r"):
			// Every request was accepted before the signal.
			if f == nil || !f.accepted || !f.acceptedBefore {
				t.Errorf("request %s was not accepted before the signal (%+v)", id, f)
				continue
			}
		case res.code == http.StatusAccepted:
		default:
			continue // a late job, refused
		}
		ms := time.Duration(r.ms[id]) * time.Millisecond
		switch {
		case f == nil || f.end == "":
			t.Errorf("%s (%v) was accepted and neither completed nor reported", id, ms)
		case f.startedAfterStop:
			t.Errorf("job %s (%v) started after the stop, in the slot of a job that ended after SIGTERM: the service took new work", id, ms)
		case f.journaledTwice || f.startedAfterEnd:
			t.Errorf("%s (%v): the journal says it ended twice, or started after its end", id, ms)
		case f.end == "cut" && ms < grace:
			t.Errorf("%s (%v) was cut: %s; want it completed, within the grace period of %v", id, ms, f.endErr, grace)
		case f.end == "cut" && !strings.Contains(f.endErr, "terminated signal received"):
			t.Errorf("%s was cut with %q; want the signal's cause", id, f.endErr)
		case f.kind == "request" && ms < grace && res.code != http.StatusOK:
			t.Errorf("request %s (%v) got %d %v; want 200", id, ms, res.code, res.err)
		case f.kind == "request" && ms >= grace && (f.end != "cut" || res.code != http.StatusServiceUnavailable):
			t.Errorf("request %s (%v) %s, got %d %v; want it cut at the end of the grace period, and 503", id, ms, f.end, res.code, res.err)
		case f.kind == "job" && f.startedBefore && ms >= grace && f.end != "cut":
			t.Errorf("job %s (%v) %s; want it cut at the end of the grace period", id, ms, f.end)
		}
	}
}

// figures are what a run did with the work in flight at SIGTERM.
type figures struct {
	name string

	requests          int // in flight at SIGTERM
	reqCompleted      int // of those: 200
	reqCut            int // journaled as cut
	reqUnreported     int // neither completed nor journaled
	reqLost           int // of those that could finish within the grace period, how many did not
	running           int // jobs running at SIGTERM
	jobCompleted      int
	jobCut            int
	jobUnreported     int
	jobLost           int // of those that could finish within the grace period, how many did not
	queued            int // jobs queued at SIGTERM
	queuedNotStarted  int // of those, journaled as not started
	queuedCut         int // of those, started after SIGTERM and cut
	late, lateRefused int // jobs submitted after SIGTERM, refused
	exit              time.Duration
}

func (r *run) figures(name string) figures {
	fates, _ := r.fates()
	f := figures{name: name, exit: r.exit}
	for id, res := range r.got {
		x := fates[id]
		if x == nil {
			x = &fate{}
		}
		short := time.Duration(r.ms[id])*time.Millisecond < grace
		switch {
		case strings.HasPrefix(id, "late"):
			f.late++
			if res.code != http.StatusAccepted {
				f.lateRefused++
			}
		case strings.HasPrefix(id, "r"):
			if !x.acceptedBefore || x.endBefore {
				continue
			}
			f.requests++
			switch {
			case res.code == http.StatusOK && x.end == "completed":
				f.reqCompleted++
			case x.end == "cut":
				f.reqCut++
			default:
				f.reqUnreported++
			}
			if short && res.code != http.StatusOK {
				f.reqLost++
			}
		case x.endBefore:
		case x.startedBefore:
			f.running++
			switch x.end {
			case "completed":
				f.jobCompleted++
			case "cut":
				f.jobCut++
			default:
				f.jobUnreported++
			}
			if short && x.end != "completed" {
				f.jobLost++
			}
		default:
			f.queued++
			switch x.end {
			case "notstarted":
				f.queuedNotStarted++
			case "cut":
				f.queuedCut++
			}
		}
	}
	return f
}

func (f figures) table() string {
	return fmt.Sprintf("in flight at SIGTERM: %d requests (%d completed, %d cut, %d unreported; %d lost that could finish within %v), "+
		"%d jobs running (%d completed, %d cut, %d unreported; %d lost that could finish within %v), "+
		"%d queued (%d reported not started, %d started and cut); after SIGTERM, %d of %d jobs refused; exit %v after SIGTERM",
		f.requests, f.reqCompleted, f.reqCut, f.reqUnreported, f.reqLost, grace,
		f.running, f.jobCompleted, f.jobCut, f.jobUnreported, f.jobLost, grace,
		f.queued, f.queuedNotStarted, f.queuedCut, f.lateRefused, f.late, f.exit.Round(time.Millisecond))
}

func (figures) header() string {
	return "| service | requests in flight | completed (200) | cut (503) | unreported | jobs running | completed | cut | jobs queued | not started | started, cut | exit after SIGTERM |\n" +
		"| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n"
}

func (f figures) row() string {
	return fmt.Sprintf("| `%s` | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %.1f s |\n",
		f.name, f.requests, f.reqCompleted, f.reqCut, f.reqUnreported,
		f.running, f.jobCompleted, f.jobCut, f.queued, f.queuedNotStarted, f.queuedCut, f.exit.Seconds())
}
