package tasktrace_test

import (
	"bytes"
	"context"
	"fmt"
	"runtime/trace"

	"github.com/tasktuple/task"
	"github.com/tasktuple/task/tasktrace"
)

// Once enabled, the calls of package task are trace tasks and their
// functions regions of the trace being recorded: go tool trace shows the
// fan-out, which goroutine ran what, and the await that waited.
func ExampleEnable() {
	tasktrace.Enable()
	var out bytes.Buffer // a file, or /debug/pprof/trace, in a real program
	if err := trace.Start(&out); err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	user, n, err := task.Run2(ctx,
		func(context.Context) (string, error) { return "Ada", nil },
		task.Named("orders", func(context.Context) (int, error) { return 2, nil }))
	trace.Stop()
	fmt.Println(user, n, err)
	fmt.Println(out.Len() > 0) // go tool trace reads it: the task "task.Run2", regions "Run2 f1" and "orders"
	// Output:
	// Ada 2 <nil>
	// true
}
