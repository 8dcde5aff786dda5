package main

import (
	"os"
	"strings"

	"golang.org/x/mod/modfile"
)

// peerPaths are the modules the benchmarks compare with.
var peerPaths = []string{
	"golang.org/x/sync",
	"github.com/sourcegraph/conc",
	"github.com/samber/lo",
	"github.com/alitto/pond/v2",
	"github.com/reugn/async",
}

// peerVersions reads the peers' versions from this module's go.mod.
func peerVersions() []string {
	data, err := os.ReadFile("go.mod")
	if err != nil {
		return []string{"(go.mod not found: run from the bench directory)"}
	}
	f, err := modfile.Parse("go.mod", data, nil)
	if err != nil {
		return []string{"(go.mod: " + err.Error() + ")"}
	}
	var out []string
	for _, p := range peerPaths {
		for _, r := range f.Require {
			if r.Mod.Path == p {
				out = append(out, r.Mod.Path+" "+r.Mod.Version)
			}
		}
	}
	return out
}

// impl names in the tables, with the library they stand for.
var implNotes = map[string]string{
	"sequential":         "a plain loop, one call after another: the lower bound",
	"waitgroup":          "sync.WaitGroup with captured variables: the baseline of every ratio",
	"floor":              "what an expert writes by hand for the one call site: one struct for the N results and errors, N-1 goroutines, the last function on the caller's goroutine, one sync.WaitGroup; no cancellation, no panic handling (the bar of the **vs floor** column)",
	"errgroup":           "errgroup.Group",
	"errgroup-ctx":       "errgroup.WithContext",
	"conc-waitgroup":     "conc.WaitGroup",
	"conc-pool-ctx":      "conc pool.New().WithContext(ctx).WithCancelOnError()",
	"lo-async":           "lo.Async2 per call, then a receive from each channel",
	"pond-group":         "pond.NewGroup() on the default pool",
	"reugn-future":       "async.NewTask(f).Call() futures, then Join each (completed: Join of completed futures)",
	"pond-task":          "Wait on pond tasks that have completed",
	"task-run":           "task.RunN",
	"task-run-keepgoing": "task.RunN with task.KeepGoing",
	"task-run-settled":   "task.RunN with task.Settled",
	"task-go-await":      "task.Go per call, then task.AwaitN",
	"task-await":         "task.AwaitN of completed tasks",
	"task-await-settled": "task.AwaitN of completed tasks with task.Settled",
}

func isOurs(impl string) bool { return strings.HasPrefix(impl, "task-") }
