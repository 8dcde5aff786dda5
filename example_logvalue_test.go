package task_test

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/tasktuple/task"
)

// exampleLogOptions drops the time, and the directory of a frame's file,
// so that the examples' output is the same on every run and machine.
var exampleLogOptions = &slog.HandlerOptions{
	ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey && len(groups) == 0 {
			return slog.Attr{}
		}
		if src, ok := a.Value.Any().(*slog.Source); ok && a.Value.Kind() == slog.KindAny {
			short := *src
			short.File = filepath.Base(src.File)
			a.Value = slog.AnyValue(&short)
		}
		return a
	},
}

func checkoutUser(context.Context) (string, error) { return "Ada", nil }

func checkoutRecs(context.Context) ([]string, error) {
	return nil, errors.New("500 internal error")
}

func checkoutStock(context.Context) (int, error) {
	return 0, errors.New("503 unavailable")
}

//go:noinline
func reserveStock(context.Context) (int, error) {
	panic("out of paper")
}

func ExampleCallError_LogValue() {
	ctx := context.Background()
	_, _, _, err := task.Run3(ctx, checkoutUser, task.Named("recs", checkoutRecs), checkoutStock)

	slog.New(slog.NewJSONHandler(os.Stdout, exampleLogOptions)).Error("checkout", "err", err)
	slog.New(slog.NewTextHandler(os.Stdout, exampleLogOptions)).Error("checkout", "err", err)
	// Output:
	// {"level":"ERROR","msg":"checkout","err":{"call":"Run3","failed":2,"first":{"arg":"recs","index":1,"error":"500 internal error"},"errors":"recs: 500 internal error; f3: 503 unavailable"}}
	// level=ERROR msg=checkout err.call=Run3 err.failed=2 err.first.arg=recs err.first.index=1 err.first.error="500 internal error" err.errors="recs: 500 internal error; f3: 503 unavailable"
}

func ExamplePanicError_LogValue() {
	defer func() {
		pe, _ := recover().(*task.PanicError)
		slog.New(slog.NewJSONHandler(os.Stdout, exampleLogOptions)).Error("checkout panicked", "panic", pe)
		slog.New(slog.NewTextHandler(os.Stdout, exampleLogOptions)).Error("checkout panicked", "panic", pe)
	}()
	ctx := context.Background()
	_, _, _ = task.Run2(ctx, task.Named("recs", checkoutRecs), reserveStock)
	// Output:
	// {"level":"ERROR","msg":"checkout panicked","panic":{"call":"Run2","arg":"f2","index":1,"panic":"out of paper","frame":{"function":"github.com/tasktuple/task_test.reserveStock","file":"example_logvalue_test.go","line":41},"others":{"failed":1,"first":{"arg":"recs","index":0,"error":"500 internal error"}}}}
	// level=ERROR msg="checkout panicked" panic.call=Run2 panic.arg=f2 panic.index=1 panic.panic="out of paper" panic.frame=example_logvalue_test.go:41 panic.others.failed=1 panic.others.first.arg=recs panic.others.first.index=0 panic.others.first.error="500 internal error"
}
