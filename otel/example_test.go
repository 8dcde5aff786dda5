package taskotel_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tasktuple/task"
	taskotel "github.com/tasktuple/task/otel"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

// A fan-out of three functions under a request's span: one fails, the
// one waiting on its ctx is canceled because of it, and the named one
// succeeds.
func Example() {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	taskotel.Install(taskotel.WithTracerProvider(tp))

	ctx, span := tp.Tracer("example").Start(context.Background(), "GET /home")
	_, _, _, err := task.Run3(ctx,
		func(ctx context.Context) (string, error) {
			return "", errors.New("404 not found")
		},
		func(ctx context.Context) (int, error) {
			<-ctx.Done() // a slow call, given up
			return 0, ctx.Err()
		},
		task.Named("recs", func(ctx context.Context) ([]string, error) {
			return []string{"tea", "scones"}, nil
		}),
	)
	span.End()
	fmt.Println(err)
	fmt.Println()
	printTree(exp.GetSpans())
	// Output:
	// task: Run3: f1: 404 not found
	//
	// GET /home
	//   task.Run3 [Error: task: Run3: f1: 404 not found] error.type=*task.CallError task.call=Run3
	//     task.Run3 f1 [Error: 404 not found] error.type=*errors.errorString task.arg=f1 task.call=Run3 task.index=0
	//     task.Run3 f2 task.arg=f2 task.call=Run3 task.index=1
	//       event "canceled because another function failed" task.cause="task: Run3: f1: 404 not found" task.cause.arg=f1 task.cause.index=0
	//     task.Run3 recs task.arg=recs task.call=Run3 task.index=2
}

// printTree prints spans as a tree: each span with its status, its
// attributes and its events, and its children indented under it, sorted
// by name.
func printTree(spans tracetest.SpanStubs) {
	ids := map[trace.SpanID]bool{}
	children := map[trace.SpanID][]tracetest.SpanStub{}
	for _, s := range spans {
		ids[s.SpanContext.SpanID()] = true
	}
	var roots []tracetest.SpanStub
	for _, s := range spans {
		if p := s.Parent.SpanID(); ids[p] {
			children[p] = append(children[p], s)
		} else {
			roots = append(roots, s)
		}
	}
	var walk func(s tracetest.SpanStub, depth int)
	walk = func(s tracetest.SpanStub, depth int) {
		indent := strings.Repeat("  ", depth)
		line := indent + s.Name
		if s.Status.Code != 0 {
			line += fmt.Sprintf(" [%s: %s]", s.Status.Code, s.Status.Description)
		}
		var attrs []string
		for _, kv := range s.Attributes {
			attrs = append(attrs, fmt.Sprintf("%s=%s", kv.Key, quote(kv.Value.String())))
		}
		slices.Sort(attrs)
		fmt.Println(strings.Join(append([]string{line}, attrs...), " "))
		for _, e := range s.Events {
			line := fmt.Sprintf("%s  event %q", indent, e.Name)
			for _, kv := range e.Attributes {
				line += fmt.Sprintf(" %s=%s", kv.Key, quote(kv.Value.String()))
			}
			fmt.Println(line)
		}
		kids := children[s.SpanContext.SpanID()]
		slices.SortFunc(kids, func(a, b tracetest.SpanStub) int { return strings.Compare(a.Name, b.Name) })
		for _, k := range kids {
			walk(k, depth+1)
		}
	}
	slices.SortFunc(roots, func(a, b tracetest.SpanStub) int { return strings.Compare(a.Name, b.Name) })
	for _, r := range roots {
		walk(r, 0)
	}
}

// quote quotes a value with spaces in it.
func quote(v string) string {
	if strings.ContainsAny(v, " \n") {
		return fmt.Sprintf("%q", v)
	}
	return v
}
