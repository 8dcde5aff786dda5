package taskdump_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"

	"github.com/tasktuple/task"
	"github.com/tasktuple/task/taskdump"
)

// ExampleHandler serves the JSON of a Map of three inputs, one at a time,
// under KeepGoing: the first has failed, the second runs, the third is
// not started. A program mounts the handler on its debug mux:
//
//	http.Handle("/debug/tasks/", taskdump.Handler())
//
// and opens /debug/tasks/ in a browser for the page.
func ExampleHandler() {
	taskdump.Enable()
	release := make(chan struct{})
	done := make(chan error)
	go func() {
		_, err := task.Map(context.Background(), []string{"a", "b", "c"}, 1, func(ctx context.Context, s string) (int, error) {
			if s == "a" {
				return 0, errors.New("404 not found")
			}
			<-release
			return 0, nil
		}, task.KeepGoing)
		done <- err
	}()
	h := taskdump.Handler()
	for {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/debug/tasks/?format=json", nil))
		var snap map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &snap); err != nil {
			fmt.Println(err)
			return
		}
		if !secondRunning(snap) {
			continue // until the first input has failed and the second started
		}
		// The time, ids and durations vary: print the rest.
		elide(snap)
		out, _ := json.MarshalIndent(snap, "", "  ")
		fmt.Println(string(out))
		break
	}
	close(release)
	fmt.Println(<-done)
	// Output:
	// {
	//   "calls": [
	//     {
	//       "call": true,
	//       "children": [
	//         {
	//           "call": false,
	//           "name": "inputs[1]",
	//           "state": "running"
	//         }
	//       ],
	//       "counts": {
	//         "canceled": 0,
	//         "failed": 1,
	//         "notStarted": 1,
	//         "running": 1,
	//         "succeeded": 0,
	//         "waiting": 0
	//       },
	//       "failures": [
	//         {
	//           "error": "404 not found",
	//           "name": "inputs[0]"
	//         }
	//       ],
	//       "limit": 1,
	//       "name": "task.Map",
	//       "state": "running"
	//     }
	//   ],
	//   "enabled": true,
	//   "more": 0
	// }
	// task: Map: inputs[0]: 404 not found
}

// secondRunning reports whether snap shows the first input failed and the
// second running: a worker's function stays listed as running from its
// end until the worker begins the next, so the failure of the first can
// show while its name does.
func secondRunning(snap map[string]any) bool {
	calls, _ := snap["calls"].([]any)
	if len(calls) == 0 {
		return false
	}
	call := calls[0].(map[string]any)
	children, _ := call["children"].([]any)
	if call["failures"] == nil || len(children) == 0 {
		return false
	}
	return children[0].(map[string]any)["name"] == "inputs[1]"
}

// elide deletes the fields that vary from run to run.
func elide(v any) {
	switch v := v.(type) {
	case map[string]any:
		delete(v, "time")
		delete(v, "id")
		delete(v, "seconds")
		for _, x := range v {
			elide(x)
		}
	case []any:
		for _, x := range v {
			elide(x)
		}
	}
}
