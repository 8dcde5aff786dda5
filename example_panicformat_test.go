package task_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/tasktuple/task"
)

// A recover middleware that logs what it recovered with %v gets one line;
// %+v gives the stack where the panic happened.
func ExamplePanicError_Format() {
	defer func() {
		r := recover()
		fmt.Printf("%v\n", r)
		fmt.Println(strings.Contains(fmt.Sprintf("%+v", r), "goroutine"))
	}()
	task.Run2(context.Background(),
		func(context.Context) (int, error) { panic("boom") },
		func(context.Context) (int, error) { return 1, nil })
	// Output:
	// task: Run2: f1: panic: boom [at example_panicformat_test.go:20]
	// true
}
