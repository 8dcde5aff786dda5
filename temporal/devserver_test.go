package wtask_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tasktuple/task/temporal/example/shop"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/temporalproto"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
)

// CI starts `temporal server start-dev` and passes its address with
// -devserver (see .ci/run); without it TestDevServer is skipped.
var (
	devServer = flag.String("devserver", os.Getenv("WTASK_DEVSERVER"), "host:port of a Temporal dev server for TestDevServer (default $WTASK_DEVSERVER)")
	record    = flag.Bool("record", false, "TestDevServer writes the histories of its runs to testdata, for the replay tests")
)

// TestDevServer runs the example's workflow and the tests' workflows end to
// end against a real Temporal server, with a real worker, checks their
// results, and replays the histories the server kept with the current
// code. With -record it writes the histories of Page, Fanout, Drain and
// Failure to testdata.
//
// Drain pins the drain (doc.go, "The drain") where the SDK's test
// environment cannot: when each drain workflow has ended, Cleanup, which
// takes cleanupTime to stop once canceled, has returned if Run2 waited for
// it (an activity with the context Run2 gives, an activity of a child
// workflow), and is still running if it did not (WaitForCancellation
// cleared, a local activity). Failure pins what a client gets from a
// workflow that returns wtask.ApplicationError: the CallError that
// CallErrorOf rebuilds, and a run that is not retried when every failure
// is non-retryable (and is when one is retryable).
func TestDevServer(t *testing.T) {
	if *devServer == "" {
		t.Skip("no -devserver (or $WTASK_DEVSERVER): start `temporal server start-dev` and pass its address")
	}
	c, err := client.Dial(client.Options{HostPort: *devServer, Logger: quiet, Identity: "TestDevServer"})
	if err != nil {
		t.Fatalf("dial %s: %v", *devServer, err)
	}
	defer c.Close()

	// Two workers, since the example and the tests have activities of the
	// same names: the example's, as its own worker registers them, and the
	// tests' for the others.
	queue := fmt.Sprintf("wtask-e2e-%d", time.Now().UnixNano())
	wp := worker.New(c, queue+"-page", worker.Options{})
	shop.Register(wp)
	// Heartbeats at most every 100ms (not 80% of the HeartbeatTimeout):
	// Cleanup hears of its cancellation at once, and its heartbeats keep
	// well within the timeout on a loaded machine.
	wt := worker.New(c, queue, worker.Options{MaxHeartbeatThrottleInterval: 100 * time.Millisecond})
	registerTestWorkflows(wt, fanout)
	done := &marks{}
	wt.RegisterActivity(&Activities{started: &marks{}, ended: done})
	for _, w := range []worker.Worker{wp, wt} {
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		defer w.Stop()
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	retry := &temporal.RetryPolicy{MaximumAttempts: 2, InitialInterval: 100 * time.Millisecond}
	runs := map[string]client.WorkflowRun{}
	first := map[string]string{} // run IDs: Get follows a run's retries
	for _, r := range []struct {
		name, workflow string
		in             any
	}{
		{"Page", "Page", 7},
		{"Fanout", "Fanout", 7},
		{"Drain", "Drain", "wait"},
		{"Drain-nowait", "Drain", "nowait"},
		{"Drain-local", "Drain", "local"},
		{"Drain-child", "Drain", "child"},
		{"Failure", "Failure", false},
		{"Failure-retryable", "Failure", true},
	} {
		opts := client.StartWorkflowOptions{ID: queue + "-" + r.name, TaskQueue: queue}
		switch r.workflow {
		case "Page":
			opts.TaskQueue = queue + "-page"
		case "Failure":
			opts.RetryPolicy = retry
		}
		run, err := c.ExecuteWorkflow(ctx, opts, r.workflow, r.in)
		if err != nil {
			t.Fatalf("start %s: %v", r.name, err)
		}
		runs[r.name], first[r.name] = run, run.GetRunID()
	}

	var lines []string
	if err := runs["Page"].Get(ctx, &lines); err != nil {
		t.Fatalf("Page: %v", err)
	}
	report := strings.Join(lines, "\n")
	t.Logf("Page's report:\n%s", report)
	for _, want := range []string{
		"user:    {ID:7 Name:Ada}",
		"task: Run3: f3: activity error (type: LoadRecommendations",
		"activity StartToClose timeout",
		"task: Run3: f3: activity error (type: LoadStock",
		"inventory service: 503 Service Unavailable",
		"sibling(s) canceled because of the failure",
		"user: {ID:7 Name:Ada}, 2 orders, err: <nil>",
	} {
		if !strings.Contains(report, want) {
			t.Errorf("Page's report lacks %q", want)
		}
	}
	if strings.Contains(report, "task: Run3: f2") {
		t.Errorf("Page's report blames f2, which was canceled or finished:\n%s", report)
	}

	var got string
	if err := runs["Fanout"].Get(ctx, &got); err != nil {
		t.Fatalf("Fanout: %v", err)
	}
	if !strings.HasPrefix(got, "{7 Ada} | 2 | <nil> | [1 2 3 4 5] | <nil> | [2 0] | true | 14 | slept | <nil>") {
		t.Errorf("Fanout = %q", got)
	}

	for _, d := range []struct {
		mode   string
		waited bool
	}{
		{"wait", true},
		{"nowait", false},
		{"local", false},
		{"child", true},
	} {
		name := "Drain-" + d.mode
		if d.mode == "wait" {
			name = "Drain"
		}
		var got string
		err := runs[name].Get(ctx, &got)
		if want := "failures: f2 | canceled: f1 | a cancellation"; err != nil || got != want {
			t.Errorf("%s = %q, %v; want %q", name, got, err, want)
		}
		desc, derr := c.DescribeWorkflowExecution(ctx, runs[name].GetID(), "")
		if derr != nil {
			t.Fatalf("describe %s: %v", name, derr)
		}
		// The worker runs in this process, on this machine's clock, as
		// the dev server does. Where Run2 waits, Cleanup returns before
		// the activity is reported canceled, so before the workflow
		// ends; where it does not, it returns cleanupTime after its
		// cancellation, long after.
		closed := desc.WorkflowExecutionInfo.CloseTime.AsTime()
		returned, ok := done.when(d.mode)
		if waited := ok && returned.Before(closed); waited != d.waited {
			t.Errorf("%s: Cleanup returned before the workflow ended: %v (returned %v, ended %v); want %v",
				name, waited, returned.Format(time.StampMilli), closed.Format(time.StampMilli), d.waited)
		}
	}

	for _, name := range []string{"Failure", "Failure-retryable"} {
		retryable := name == "Failure-retryable"
		err := runs[name].Get(ctx, nil)
		t.Run(name, func(t *testing.T) { checkCrossed(t, err, retryable) })
		last, derr := c.DescribeWorkflowExecution(ctx, runs[name].GetID(), "")
		if derr != nil {
			t.Fatalf("describe %s: %v", name, derr)
		}
		if again := last.WorkflowExecutionInfo.Execution.RunId != first[name]; again != retryable {
			t.Errorf("%s: run again by its retry policy: %v; want %v", name, again, retryable)
		}
	}

	r := worker.NewWorkflowReplayer()
	registerWorkflows(r, fanout)
	for name, run := range runs {
		hist, err := history(ctx, c, run)
		if err != nil {
			t.Fatalf("history of %s: %v", name, err)
		}
		if err := r.ReplayWorkflowHistory(quiet, hist); err != nil {
			t.Errorf("replay of %s just run: %v", name, err)
		}
		if *record && !strings.Contains(name, "-") {
			b, err := temporalproto.CustomJSONMarshalOptions{Indent: "  "}.Marshal(hist)
			if err != nil {
				t.Fatal(err)
			}
			file := filepath.Join("testdata", strings.ToLower(name)+".json")
			if err := os.WriteFile(file, append(b, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("wrote %s (%d events)", file, len(hist.Events))
		}
	}
}

// history fetches the whole history of a finished run.
func history(ctx context.Context, c client.Client, run client.WorkflowRun) (*historypb.History, error) {
	it := c.GetWorkflowHistory(ctx, run.GetID(), run.GetRunID(), false, 0)
	h := new(historypb.History)
	for it.HasNext() {
		e, err := it.Next()
		if err != nil {
			return nil, err
		}
		h.Events = append(h.Events, e)
	}
	return h, nil
}
