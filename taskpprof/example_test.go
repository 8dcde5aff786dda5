package taskpprof_test

import (
	"context"
	"fmt"
	"runtime/pprof"

	"github.com/tasktuple/task"
	"github.com/tasktuple/task/taskpprof"
)

// Once enabled, the goroutines that package task starts carry labels
// saying which call and argument they run, and a function's ctx carries
// them too: a goroutine profile groups the goroutines by them.
func ExampleEnable() {
	taskpprof.Enable()
	labels := func(ctx context.Context) (string, error) {
		var s string
		pprof.ForLabels(ctx, func(k, v string) bool {
			s += " " + k + "=" + v
			return true
		})
		return s, nil
	}
	ctx := pprof.WithLabels(context.Background(), pprof.Labels("handler", "checkout"))
	a, b, err := task.Run2(ctx, labels, task.Named("recs", labels))
	fmt.Println("f1:" + a)
	fmt.Println("f2:" + b)
	fmt.Println(err)
	// Output:
	// f1: handler=checkout task.arg=f1 task.call=Run2
	// f2: handler=checkout task.arg=f2 task.call=Run2 task.name=recs
	// <nil>
}
