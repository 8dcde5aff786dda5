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
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

// CI starts `temporal server start-dev` and passes its address with
// -devserver (see .ci/run); without it TestDevServer is skipped.
var (
	devServer = flag.String("devserver", os.Getenv("WTASK_DEVSERVER"), "host:port of a Temporal dev server for TestDevServer (default $WTASK_DEVSERVER)")
	record    = flag.Bool("record", false, "TestDevServer writes the histories of its runs to testdata, for the replay tests")
)

// TestDevServer runs the example's workflow and fanout end to end against
// a real Temporal server, with a real worker, checks their results, and
// replays the histories the server kept with the current code. With
// -record it writes those histories to testdata.
func TestDevServer(t *testing.T) {
	if *devServer == "" {
		t.Skip("no -devserver (or $WTASK_DEVSERVER): start `temporal server start-dev` and pass its address")
	}
	c, err := client.Dial(client.Options{HostPort: *devServer, Logger: quiet})
	if err != nil {
		t.Fatalf("dial %s: %v", *devServer, err)
	}
	defer c.Close()

	// Two workers, since the example and the tests have activities of the
	// same names: the example's, as its own worker registers them, and the
	// tests' for fanout.
	queue := fmt.Sprintf("wtask-e2e-%d", time.Now().UnixNano())
	queues := map[string]string{"Page": queue + "-page", "Fanout": queue}
	wp := worker.New(c, queues["Page"], worker.Options{})
	shop.Register(wp)
	wf := worker.New(c, queues["Fanout"], worker.Options{})
	wf.RegisterWorkflowWithOptions(fanout, workflow.RegisterOptions{Name: "Fanout"})
	wf.RegisterWorkflowWithOptions(doubleWorkflow, workflow.RegisterOptions{Name: "Double"})
	wf.RegisterActivity(&Activities{})
	for _, w := range []worker.Worker{wp, wf} {
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		defer w.Stop()
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	runs := map[string]client.WorkflowRun{}
	for _, name := range []string{"Page", "Fanout"} {
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: queue + "-" + name, TaskQueue: queues[name]}, name, 7)
		if err != nil {
			t.Fatalf("start %s: %v", name, err)
		}
		runs[name] = run
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
		if *record {
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
