package taskotel_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tasktuple/task"
	taskotel "github.com/tasktuple/task/otel"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// The tests do not run in parallel: Install is process-wide, and each test
// installs its own recorder, then a no-op provider when it ends.

// recorder installs a fresh span recorder for the test and returns it with
// a root span's context, for the calls under test.
type recorder struct {
	t    *testing.T
	sr   *tracetest.SpanRecorder
	tp   *sdktrace.TracerProvider
	root trace.Span
}

func record(t *testing.T) (*recorder, context.Context) {
	t.Helper()
	sr := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(sr))
	taskotel.Install(taskotel.WithTracerProvider(tp))
	t.Cleanup(func() {
		taskotel.Install(taskotel.WithTracerProvider(noop.NewTracerProvider()))
		_ = tp.Shutdown(context.Background())
	})
	ctx, root := tp.Tracer("test").Start(context.Background(), "root")
	return &recorder{t: t, sr: sr, tp: tp, root: root}, ctx
}

// spans ends the root span and returns the ended spans by name; it fails
// the test if a name is not unique.
func (r *recorder) spans() map[string]sdktrace.ReadOnlySpan {
	r.t.Helper()
	r.root.End()
	m := map[string]sdktrace.ReadOnlySpan{}
	for _, s := range r.sr.Ended() {
		if _, dup := m[s.Name()]; dup {
			r.t.Fatalf("two spans named %q", s.Name())
		}
		m[s.Name()] = s
	}
	return m
}

// names returns the sorted names of spans.
func names(spans map[string]sdktrace.ReadOnlySpan) []string {
	var ns []string
	for n := range spans {
		ns = append(ns, n)
	}
	slices.Sort(ns)
	return ns
}

// get returns the span named name, or fails the test.
func get(t *testing.T, spans map[string]sdktrace.ReadOnlySpan, name string) sdktrace.ReadOnlySpan {
	t.Helper()
	s, ok := spans[name]
	if !ok {
		t.Fatalf("no span %q among %q", name, names(spans))
	}
	return s
}

// childOf checks that child's parent is parent.
func childOf(t *testing.T, child, parent sdktrace.ReadOnlySpan) {
	t.Helper()
	if child.Parent().SpanID() != parent.SpanContext().SpanID() || child.SpanContext().TraceID() != parent.SpanContext().TraceID() {
		t.Errorf("span %q: parent is %v, want %q (%v)", child.Name(), child.Parent().SpanID(), parent.Name(), parent.SpanContext().SpanID())
	}
}

// attr returns the value of attribute key of s, as a string ("" if absent).
func attr(s sdktrace.ReadOnlySpan, key string) string {
	for _, kv := range s.Attributes() {
		if string(kv.Key) == key {
			return kv.Value.String()
		}
	}
	return ""
}

func eventAttr(e sdktrace.Event, key string) string {
	for _, kv := range e.Attributes {
		if string(kv.Key) == key {
			return kv.Value.String()
		}
	}
	return ""
}

// checkAttrs checks attributes of s given as key, value pairs.
func checkAttrs(t *testing.T, s sdktrace.ReadOnlySpan, kv ...string) {
	t.Helper()
	for i := 0; i < len(kv); i += 2 {
		if got := attr(s, kv[i]); got != kv[i+1] {
			t.Errorf("span %q: %s = %q, want %q", s.Name(), kv[i], got, kv[i+1])
		}
	}
}

// checkStatus checks the status of s.
func checkStatus(t *testing.T, s sdktrace.ReadOnlySpan, code codes.Code, desc string) {
	t.Helper()
	if st := s.Status(); st.Code != code || st.Description != desc {
		t.Errorf("span %q: status %v %q, want %v %q", s.Name(), st.Code, st.Description, code, desc)
	}
}

func value[T any](v T) func(context.Context) (T, error) {
	return func(context.Context) (T, error) { return v, nil }
}

func fail(msg string) func(context.Context) (int, error) {
	return func(context.Context) (int, error) { return 0, errors.New(msg) }
}

// waitCanceled returns the context's error once it is done.
func waitCanceled(ctx context.Context) (int, error) {
	<-ctx.Done()
	return 0, ctx.Err()
}

func TestSpansAndParents(t *testing.T) {
	r, ctx := record(t)
	if _, _, _, err := task.Run3(ctx, value(1), value("a"), value(2.5)); err != nil {
		t.Fatal(err)
	}
	spans := r.spans()
	want := []string{"root", "task.Run3", "task.Run3 f1", "task.Run3 f2", "task.Run3 f3"}
	if got := names(spans); !slices.Equal(got, want) {
		t.Fatalf("spans %q, want %q", got, want)
	}
	call := get(t, spans, "task.Run3")
	childOf(t, call, get(t, spans, "root"))
	checkAttrs(t, call, "task.call", "Run3")
	checkStatus(t, call, codes.Unset, "")
	for i, name := range []string{"task.Run3 f1", "task.Run3 f2", "task.Run3 f3"} {
		s := get(t, spans, name)
		childOf(t, s, call)
		checkAttrs(t, s, "task.call", "Run3", "task.arg", fmt.Sprintf("f%d", i+1), "task.index", fmt.Sprint(i))
		checkStatus(t, s, codes.Unset, "")
		if s.SpanKind() != trace.SpanKindInternal {
			t.Errorf("span %q: kind %v", name, s.SpanKind())
		}
		if s.InstrumentationScope().Name != "github.com/tasktuple/task/otel" {
			t.Errorf("span %q: scope %q", name, s.InstrumentationScope().Name)
		}
	}
	if call.SpanKind() != trace.SpanKindInternal {
		t.Errorf("call span: kind %v", call.SpanKind())
	}
}

func TestNamed(t *testing.T) {
	r, ctx := record(t)
	_, _, _, err := task.Run3(ctx,
		task.Named("user", value(1)),
		value(2),
		task.Named("outer", task.Named("inner", value(3))))
	if err != nil {
		t.Fatal(err)
	}
	spans := r.spans()
	want := []string{"root", "task.Run3", "task.Run3 f2", "task.Run3 outer", "task.Run3 user"}
	if got := names(spans); !slices.Equal(got, want) {
		t.Fatalf("spans %q, want %q", got, want)
	}
	checkAttrs(t, get(t, spans, "task.Run3 user"), "task.arg", "user", "task.index", "0")
	checkAttrs(t, get(t, spans, "task.Run3 f2"), "task.arg", "f2", "task.index", "1")
	checkAttrs(t, get(t, spans, "task.Run3 outer"), "task.arg", "outer", "task.index", "2")
}

// TestNamedInside: a function that calls a Named function itself does
// not lose its own name to it, once a span stands between them.
func TestNamedInside(t *testing.T) {
	r, ctx := record(t)
	_, _, err := task.Run2(ctx, value(1), func(ctx context.Context) (int, error) {
		ctx, s := r.tp.Tracer("test").Start(ctx, "own")
		defer s.End()
		return task.Named("helper", value(2))(ctx)
	})
	if err != nil {
		t.Fatal(err)
	}
	spans := r.spans()
	want := []string{"own", "root", "task.Run2", "task.Run2 f1", "task.Run2 f2"}
	if got := names(spans); !slices.Equal(got, want) {
		t.Fatalf("spans %q, want %q", got, want)
	}
}

func TestFailure(t *testing.T) {
	r, ctx := record(t)
	_, _, err := task.Run2(ctx,
		fail("boom"),
		task.Named("recs", fail("500 internal error")),
		task.KeepGoing)
	if err == nil {
		t.Fatal("no error")
	}
	spans := r.spans()
	call := get(t, spans, "task.Run2")
	checkStatus(t, call, codes.Error, err.Error())
	checkAttrs(t, call, "error.type", "*task.CallError")

	f1 := get(t, spans, "task.Run2 f1")
	checkStatus(t, f1, codes.Error, "boom")
	checkAttrs(t, f1, "error.type", "*errors.errorString")
	// The error of a named function is the one it returned.
	recs := get(t, spans, "task.Run2 recs")
	checkStatus(t, recs, codes.Error, "500 internal error")
	checkAttrs(t, recs, "error.type", "*errors.errorString")
}

func TestPanic(t *testing.T) {
	r, ctx := record(t)
	var recovered any
	func() {
		defer func() { recovered = recover() }()
		_, _, _ = task.Run2(ctx, value(1), task.Named("parse", func(context.Context) (int, error) {
			panicHere()
			return 0, nil
		}))
	}()
	if _, ok := recovered.(*task.PanicError); !ok {
		t.Fatalf("recovered %v, want a *task.PanicError", recovered)
	}
	spans := r.spans()
	s := get(t, spans, "task.Run2 parse")
	checkStatus(t, s, codes.Error, "panic: out of paper")
	if len(s.Events()) != 1 {
		t.Fatalf("events %v, want one", s.Events())
	}
	e := s.Events()[0]
	if e.Name != "exception" {
		t.Errorf("event %q, want exception", e.Name)
	}
	if got := eventAttr(e, "exception.type"); got != "string" {
		t.Errorf("exception.type %q", got)
	}
	if got := eventAttr(e, "exception.message"); got != "out of paper" {
		t.Errorf("exception.message %q", got)
	}
	// The stack is the panic's. (The core trims the frames of the
	// recovery, but for a Named function whose wrapper the compiler
	// instantiated in the caller's package it keeps the wrapper's frame and
	// runtime's panic frame above the frame that panicked: see below for an
	// unnamed function.)
	if stack := eventAttr(e, "exception.stacktrace"); !strings.HasPrefix(stack, "goroutine ") || !strings.Contains(stack, ".panicHere(") {
		t.Errorf("exception.stacktrace does not hold panicHere:\n%s", stack)
	}
	// The call's status is the message, without the stack.
	call := get(t, spans, "task.Run2")
	checkStatus(t, call, codes.Error, "task: Run2: parse: panic: out of paper")
	checkAttrs(t, call, "error.type", "string")

	// The stack starts at the frame that panicked; an error as the panic
	// value is named by its type.
	r2, ctx := record(t)
	func() {
		defer func() { recover() }()
		_, _, _ = task.Run2(ctx, value(1), func(context.Context) (int, error) {
			panicHere()
			return 0, nil
		})
	}()
	func() {
		defer func() { recover() }()
		_, _ = task.Map(ctx, []int{3}, 1, func(_ context.Context, i int) (int, error) {
			var a []int
			return a[i], nil
		})
	}()
	spans = r2.spans()
	e = get(t, spans, "task.Run2 f2").Events()[0]
	if stack := eventAttr(e, "exception.stacktrace"); !frameIs(stack, 0, ".panicHere(") {
		t.Errorf("exception.stacktrace does not start at panicHere:\n%s", stack)
	}
	e = get(t, spans, "task.Map inputs[0]").Events()[0]
	if got := eventAttr(e, "exception.type"); got != "runtime.boundsError" {
		t.Errorf("exception.type %q, want runtime.boundsError", got)
	}
	if got := eventAttr(e, "exception.message"); got != "runtime error: index out of range [3] with length 0" {
		t.Errorf("exception.message %q", got)
	}
}

// TestPanicCallSpan: the span of a call that raises a panic has, as
// error.type, the type of the value of the panic it raises, and, as its
// status, the call's message without the stacks, which stay in the
// functions' exception events.
func TestPanicCallSpan(t *testing.T) {
	r, ctx := record(t)
	raise := func(f func()) {
		t.Helper()
		defer func() {
			t.Helper()
			if _, ok := recover().(*task.PanicError); !ok {
				t.Error("no *task.PanicError raised")
			}
		}()
		f()
	}
	// An error, then two panics: the first in argument order is raised.
	raise(func() {
		_, _, _, _, _ = task.Run4(ctx, fail("boom"),
			func(context.Context) (int, error) { panic(&net.AddrError{Err: "torn", Addr: "x"}) },
			value(1),
			task.Named("parse", func(context.Context) (int, error) { panic("out of paper") }))
	})
	raise(func() {
		_, _ = task.Map(ctx, []int{3}, 1, func(_ context.Context, i int) (int, error) {
			var a []int
			return a[i], nil
		})
	})
	// A panic of a call that a function lets go on: its value is the
	// inner call's *task.PanicError, whose stack is left out too.
	raise(func() {
		_, _ = task.Scope(ctx, func(ctx context.Context, g *task.Group) (int, error) {
			_, _, err := task.Run2(ctx, value(1), func(context.Context) (int, error) { panic("inner") })
			return 0, err
		})
	})
	raise(func() {
		_, _ = task.Go(ctx, func(context.Context) (int, error) { panic(errors.New("lost")) }).Wait(ctx)
	})
	spans := r.spans()
	for _, tc := range []struct{ span, errorType, desc string }{
		{"task.Run4", "*net.AddrError", "task: Run4: f1: boom\ntask: Run4: f2: panic: address x: torn\ntask: Run4: parse: panic: out of paper"},
		{"task.Map", "runtime.boundsError", "task: Map: inputs[0]: panic: runtime error: index out of range [3] with length 0"},
		{"task.Scope", "*task.PanicError", "task: Scope: body: panic: task: Run2: f2: panic: inner"},
		{"task.Go", "*errors.errorString", "task: panic: lost"},
	} {
		s := get(t, spans, tc.span)
		checkStatus(t, s, codes.Error, tc.desc)
		checkAttrs(t, s, "error.type", tc.errorType)
		for _, e := range s.Events() {
			t.Errorf("span %q: event %q: the exceptions are the functions'", s.Name(), e.Name)
		}
	}
	// The stacks stay in the functions' exception events.
	for _, name := range []string{"task.Run4 f2", "task.Run4 parse", "task.Map inputs[0]", "task.Run2 f2", "task.Go fn"} {
		s := get(t, spans, name)
		if len(s.Events()) != 1 || !strings.HasPrefix(eventAttr(s.Events()[0], "exception.stacktrace"), "goroutine ") {
			t.Errorf("span %q: events %v, want an exception with its stack", name, s.Events())
		}
	}
}

// frameIs reports whether frame i of a stack calls a function whose name
// holds fn.
func frameIs(stack string, i int, fn string) bool {
	lines := strings.Split(stack, "\n")
	return strings.HasPrefix(stack, "goroutine ") && len(lines) > 1+2*i && strings.Contains(lines[1+2*i], fn)
}

//go:noinline
func panicHere() { panic("out of paper") }

func TestGoexit(t *testing.T) {
	r, ctx := record(t)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _, _ = task.Run2(ctx, value(1), func(context.Context) (int, error) {
			runtime.Goexit()
			return 0, nil
		})
	}()
	<-done
	spans := r.spans()
	s := get(t, spans, "task.Run2 f2")
	checkStatus(t, s, codes.Error, task.ErrGoexit.Error())
	if len(s.Events()) != 1 || s.Events()[0].Name != "runtime.Goexit" {
		t.Errorf("events %v, want runtime.Goexit", s.Events())
	}
	if st := get(t, spans, "task.Run2").Status(); st.Code != codes.Error || !strings.Contains(st.Description, "Goexit") {
		t.Errorf("call span: status %v", st)
	}
}

func TestCanceledByAnotherFailure(t *testing.T) {
	r, ctx := record(t)
	_, _, _, err := task.Run3(ctx, waitCanceled, task.Named("recs", fail("500 internal error")), task.Named("stock", waitCanceled))
	if err == nil {
		t.Fatal("no error")
	}
	spans := r.spans()
	checkStatus(t, get(t, spans, "task.Run3 recs"), codes.Error, "500 internal error")
	for _, name := range []string{"task.Run3 f1", "task.Run3 stock"} {
		s := get(t, spans, name)
		checkStatus(t, s, codes.Unset, "")
		if len(s.Events()) != 1 {
			t.Fatalf("span %q: events %v, want one", name, s.Events())
		}
		e := s.Events()[0]
		if e.Name != "canceled because another function failed" {
			t.Errorf("span %q: event %q", name, e.Name)
		}
		if got, want := eventAttr(e, "task.cause"), "task: Run3: recs: 500 internal error"; got != want {
			t.Errorf("span %q: task.cause %q, want %q", name, got, want)
		}
		if got := eventAttr(e, "task.cause.arg"); got != "recs" {
			t.Errorf("span %q: task.cause.arg %q", name, got)
		}
		if got := eventAttr(e, "task.cause.index"); got != "1" {
			t.Errorf("span %q: task.cause.index %q", name, got)
		}
	}
}

// TestCanceledOnItsOwn: context.Canceled returned without a cancellation
// by the call is an error like any other.
func TestCanceledOnItsOwn(t *testing.T) {
	r, ctx := record(t)
	_, _, _ = task.Run2(ctx, value(1), func(context.Context) (int, error) { return 0, context.Canceled })
	s := get(t, r.spans(), "task.Run2 f2")
	checkStatus(t, s, codes.Error, "context canceled")
	if len(s.Events()) != 0 {
		t.Errorf("events %v", s.Events())
	}
}

func TestHedgeLosers(t *testing.T) {
	r, ctx := record(t)
	v, i, err := task.Hedge(ctx, 0, nil, waitCanceled, value(7))
	if v != 7 || i != 1 || err != nil {
		t.Fatalf("Hedge: %v %v %v", v, i, err)
	}
	spans := r.spans()
	call := get(t, spans, "task.Hedge")
	loser := get(t, spans, "task.Hedge fns[0]")
	childOf(t, loser, call)
	childOf(t, get(t, spans, "task.Hedge fns[1]"), call)
	checkStatus(t, loser, codes.Unset, "")
	checkAttrs(t, loser, "task.index", "0")
	if len(loser.Events()) != 1 || loser.Events()[0].Name != "canceled because another function succeeded" {
		t.Errorf("events %v", loser.Events())
	}
}

func TestScope(t *testing.T) {
	r, ctx := record(t)
	n, err := task.Scope(ctx, func(ctx context.Context, g *task.Group) (int, error) {
		a := task.Spawn(g, value(1))
		b := task.Spawn(g, task.Named("fetch /b", value(2)))
		x, y, err := task.Await2(ctx, a, b)
		return x + y, err
	})
	if n != 3 || err != nil {
		t.Fatalf("Scope: %v %v", n, err)
	}
	spans := r.spans()
	call := get(t, spans, "task.Scope")
	childOf(t, call, get(t, spans, "root"))
	body := get(t, spans, "task.Scope body")
	childOf(t, body, call)
	checkAttrs(t, body, "task.call", "Scope", "task.arg", "body", "task.index", "-1")
	// The children run in the scope's context, not the body's.
	c0 := get(t, spans, "task.Scope children[0]")
	childOf(t, c0, call)
	checkAttrs(t, c0, "task.arg", "children[0]", "task.index", "0")
	c1 := get(t, spans, "task.Scope fetch /b")
	childOf(t, c1, call)
	checkAttrs(t, c1, "task.arg", "fetch /b", "task.index", "1")
	// The await, if it waited, is the body's.
	if aw, ok := spans["task.Await2"]; ok {
		childOf(t, aw, body)
	}
}

func TestMapSeq(t *testing.T) {
	r, ctx := record(t)
	var got []int
	for v, err := range task.MapSeq(ctx, slices.Values([]int{1, 2, 3}), 2, func(_ context.Context, in int) (int, error) {
		if in == 2 {
			return 0, errors.New("two")
		}
		return in * 10, nil
	}, task.KeepGoing) {
		if err == nil {
			got = append(got, v)
		}
	}
	if !slices.Equal(got, []int{10, 30}) {
		t.Fatalf("MapSeq: %v", got)
	}
	spans := r.spans()
	call := get(t, spans, "task.MapSeq")
	for i := range 3 {
		s := get(t, spans, fmt.Sprintf("task.MapSeq inputs[%d]", i))
		childOf(t, s, call)
		checkAttrs(t, s, "task.call", "MapSeq", "task.index", fmt.Sprint(i))
	}
	checkStatus(t, get(t, spans, "task.MapSeq inputs[1]"), codes.Error, "two")
}

func TestMap(t *testing.T) {
	r, ctx := record(t)
	if _, err := task.Map(ctx, []int{1, 2}, 2, func(_ context.Context, in int) (int, error) { return in, nil }); err != nil {
		t.Fatal(err)
	}
	spans := r.spans()
	call := get(t, spans, "task.Map")
	childOf(t, get(t, spans, "task.Map inputs[0]"), call)
	childOf(t, get(t, spans, "task.Map inputs[1]"), call)
}

// TestNested: a function's ctx carries its span, so the calls it makes are
// its children.
func TestNested(t *testing.T) {
	r, ctx := record(t)
	_, _, err := task.Run2(ctx, value(1), func(ctx context.Context) (int, error) {
		a, b, err := task.Run2(ctx, value(2), value(3))
		return a + b, err
	})
	if err != nil {
		t.Fatal(err)
	}
	var outer, inner []sdktrace.ReadOnlySpan
	r.root.End()
	for _, s := range r.sr.Ended() {
		if s.Name() == "task.Run2" {
			if s.Parent().SpanID() == r.root.SpanContext().SpanID() {
				outer = append(outer, s)
			} else {
				inner = append(inner, s)
			}
		}
	}
	if len(outer) != 1 || len(inner) != 1 {
		t.Fatalf("%d outer and %d inner task.Run2 spans", len(outer), len(inner))
	}
	byParent := map[trace.SpanID][]string{}
	var f2 sdktrace.ReadOnlySpan
	for _, s := range r.sr.Ended() {
		byParent[s.Parent().SpanID()] = append(byParent[s.Parent().SpanID()], s.Name())
		if s.Name() == "task.Run2 f2" && s.Parent().SpanID() == outer[0].SpanContext().SpanID() {
			f2 = s
		}
	}
	if f2 == nil {
		t.Fatal("no outer f2")
	}
	childOf(t, inner[0], f2)
	kids := byParent[inner[0].SpanContext().SpanID()]
	slices.Sort(kids)
	if !slices.Equal(kids, []string{"task.Run2 f1", "task.Run2 f2"}) {
		t.Errorf("children of the inner call: %q", kids)
	}
}

// TestGoAndAwait: Go makes a call with one function; the slow path of
// AwaitN is a call of its own.
func TestGoAndAwait(t *testing.T) {
	r, ctx := record(t)
	release := make(chan struct{})
	t1 := task.Go(ctx, task.Named("load", func(context.Context) (int, error) { <-release; return 1, nil }))
	t2 := task.Go(ctx, value(2))
	go func() { time.Sleep(time.Millisecond); close(release) }()
	if _, _, err := task.Await2(ctx, t1, t2); err != nil {
		t.Fatal(err)
	}
	// The span of Go ends after its task completes: wait for both.
	goSpans := func() (n int) {
		for _, s := range r.sr.Ended() {
			if strings.HasPrefix(s.Name(), "task.Go") {
				n++
			}
		}
		return n
	}
	for deadline := time.Now().Add(5 * time.Second); goSpans() < 4 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	var gos []sdktrace.ReadOnlySpan
	r.root.End()
	byID := map[trace.SpanID]sdktrace.ReadOnlySpan{}
	for _, s := range r.sr.Ended() {
		byID[s.SpanContext().SpanID()] = s
		if s.Name() == "task.Go" {
			gos = append(gos, s)
		}
	}
	if len(gos) != 2 {
		t.Fatalf("%d task.Go spans, want 2", len(gos))
	}
	var fns []string
	for _, s := range r.sr.Ended() {
		if p, ok := byID[s.Parent().SpanID()]; ok && p.Name() == "task.Go" {
			fns = append(fns, s.Name())
			if attr(s, "task.index") != "" {
				t.Errorf("span %q: task.index %q", s.Name(), attr(s, "task.index"))
			}
		}
	}
	slices.Sort(fns)
	if !slices.Equal(fns, []string{"task.Go fn", "task.Go load"}) {
		t.Errorf("functions of Go: %q", fns)
	}
	for _, s := range r.sr.Ended() {
		if s.Name() == "task.Await2" && s.Parent().SpanID() != r.root.SpanContext().SpanID() {
			t.Errorf("task.Await2 is not a child of root")
		}
	}
}

// TestInstallAgain: a second Install changes the provider; the calls are
// traced once.
func TestInstallAgain(t *testing.T) {
	first, _ := record(t)
	r, ctx := record(t)
	if _, _, err := task.Run2(ctx, value(1), value(2)); err != nil {
		t.Fatal(err)
	}
	if got := names(r.spans()); !slices.Equal(got, []string{"root", "task.Run2", "task.Run2 f1", "task.Run2 f2"}) {
		t.Errorf("spans %q", got)
	}
	first.root.End()
	if got := first.sr.Ended(); len(got) != 1 {
		t.Errorf("the first provider got %d spans, want its root only", len(got))
	}
}

// TestConcurrent runs calls from many goroutines at once, for the race
// detector.
func TestConcurrent(t *testing.T) {
	r, ctx := record(t)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 20 {
				_, _, _ = task.Run2(ctx, task.Named("a", value(1)), fail("b"))
			}
		})
	}
	wg.Wait()
	r.root.End()
	if got, want := len(r.sr.Ended()), 8*20*3+1; got != want {
		t.Errorf("%d spans, want %d", got, want)
	}
	for _, s := range r.sr.Ended() {
		if s.Name() == "task.Run2 a" && s.Status().Code != codes.Unset {
			// a may be canceled by b's failure; never an error.
			t.Errorf("span a: status %v", s.Status())
		}
	}
}

// TestMapSeqBreak: breaking out of the loop over MapSeq cancels the calls
// still running; that is not their failure.
func TestMapSeqBreak(t *testing.T) {
	r, ctx := record(t)
	second := make(chan struct{})
	for v, err := range task.MapSeq(ctx, slices.Values([]int{1, 2}), 2, func(ctx context.Context, in int) (int, error) {
		if in == 1 {
			<-second // both run
			return 10, nil
		}
		close(second)
		return waitCanceled(ctx)
	}) {
		if v != 10 || err != nil {
			t.Fatalf("MapSeq yields %v, %v", v, err)
		}
		break
	}
	spans := r.spans()
	checkStatus(t, get(t, spans, "task.MapSeq"), codes.Unset, "")
	s := get(t, spans, "task.MapSeq inputs[1]")
	checkStatus(t, s, codes.Unset, "")
	if len(s.Events()) != 1 || s.Events()[0].Name != "canceled by the call" {
		t.Fatalf("events %v", s.Events())
	}
	if got := eventAttr(s.Events()[0], "task.cause"); got != "task: the loop over the sequence stopped" {
		t.Errorf("task.cause %q", got)
	}
}

// TestCanceledByTheCaller: a function stopped by the caller's ctx is an
// error, as the call is.
func TestCanceledByTheCaller(t *testing.T) {
	r, ctx := record(t)
	ctx, cancel := context.WithCancel(ctx)
	_, _, err := task.Run2(ctx, func(context.Context) (int, error) { cancel(); return 1, nil }, waitCanceled)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run2: %v", err)
	}
	spans := r.spans()
	s := get(t, spans, "task.Run2 f2")
	checkStatus(t, s, codes.Error, "context canceled")
	if len(s.Events()) != 0 {
		t.Errorf("events %v", s.Events())
	}
	checkStatus(t, get(t, spans, "task.Run2"), codes.Error, err.Error())
}

// TestCanceledThroughTheCaller: the failure of a function of an enclosing
// call cancels the functions of the calls it makes.
func TestCanceledThroughTheCaller(t *testing.T) {
	r, ctx := record(t)
	_, _, err := task.Run2(ctx, fail("boom"), func(ctx context.Context) (int, error) {
		_, _, err := task.Run2(ctx, waitCanceled, task.Named("inner", waitCanceled))
		return 0, err
	})
	if err == nil {
		t.Fatal("no error")
	}
	r.root.End()
	n := 0
	for _, s := range r.sr.Ended() {
		if s.Name() != "task.Run2 f1" && s.Name() != "task.Run2 inner" || s.Parent().SpanID() == r.root.SpanContext().SpanID() {
			continue
		}
		if s.Name() == "task.Run2 f1" && len(s.Events()) == 0 {
			continue // the outer f1, which failed
		}
		n++
		checkStatus(t, s, codes.Unset, "")
		if len(s.Events()) != 1 || s.Events()[0].Name != "canceled because another function failed" ||
			eventAttr(s.Events()[0], "task.cause") != "task: Run2: f1: boom" {
			t.Errorf("span %q: events %v", s.Name(), s.Events())
		}
	}
	if n != 2 {
		t.Errorf("%d inner functions canceled, want 2", n)
	}
}

// TestOtherProviders: a no-op provider, and an SDK that samples nothing,
// with every outcome.
func TestOtherProviders(t *testing.T) {
	sr := tracetest.NewSpanRecorder()
	for _, tp := range []trace.TracerProvider{
		noop.NewTracerProvider(),
		sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(sr), sdktrace.WithSampler(sdktrace.NeverSample())),
	} {
		taskotel.Install(taskotel.WithTracerProvider(tp))
		ctx := context.Background()
		_, _, _, _ = task.Run3(ctx, task.Named("a", waitCanceled), fail("b"), task.Named("c", value(1)))
		func() {
			defer func() { recover() }()
			_, _, _ = task.Run2(ctx, value(1), task.Named("p", func(context.Context) (int, error) { panic("p") }))
		}()
		_, _ = task.Scope(ctx, func(ctx context.Context, g *task.Group) (int, error) {
			return task.Spawn(g, task.Named("s", value(1))).Wait(ctx)
		})
	}
	taskotel.Install(taskotel.WithTracerProvider(noop.NewTracerProvider()))
	if n := len(sr.Ended()); n != 0 {
		t.Errorf("%d spans recorded, none sampled", n)
	}
}

func TestNewGroup(t *testing.T) {
	r, ctx := record(t)
	g, gctx := task.NewGroup(ctx)
	g.Go(func(context.Context) error { return nil })
	g.Go(func(context.Context) error { return errors.New("disk full") })
	if err := g.Wait(); err == nil {
		t.Fatal("Wait: nil")
	}
	_ = gctx
	spans := r.spans()
	call := get(t, spans, "task.Group")
	childOf(t, call, get(t, spans, "root"))
	checkStatus(t, call, codes.Error, "task: Group: children[1]: disk full")
	c0 := get(t, spans, "task.Group children[0]")
	childOf(t, c0, call)
	checkAttrs(t, c0, "task.call", "Group", "task.arg", "children[0]", "task.index", "0")
	c1 := get(t, spans, "task.Group children[1]")
	childOf(t, c1, call)
	checkStatus(t, c1, codes.Error, "disk full")
}

// TestUntil: Until's functions are spans of the call; the one canceled once
// enough had come is not an error.
func TestUntil(t *testing.T) {
	r, ctx := record(t)
	vals, at, left, err := task.Until(ctx, func(vals []int, at []int) bool { return true }, nil, waitCanceled, value(7))
	if len(vals) != 1 || vals[0] != 7 || at[0] != 1 || len(left) != 1 || err != nil {
		t.Fatalf("Until: %v %v %v %v", vals, at, left, err)
	}
	spans := r.spans()
	call := get(t, spans, "task.Until")
	canceled := get(t, spans, "task.Until fns[0]")
	childOf(t, canceled, call)
	childOf(t, get(t, spans, "task.Until fns[1]"), call)
	checkStatus(t, canceled, codes.Unset, "")
	if len(canceled.Events()) != 1 || canceled.Events()[0].Name != "canceled because another function succeeded" {
		t.Errorf("events %v", canceled.Events())
	}
}

// TestMapWithin: a call that the budget's end cancels is not an error; the
// call's span is not either. The budget is fake time (synctest): it ends
// once the fast input has returned and the other waits.
func TestMapWithin(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, ctx := record(t)
		out, left, err := task.MapWithin(ctx, time.Second, []int{1, 2}, 2, func(ctx context.Context, in int) (int, error) {
			if in == 2 {
				<-ctx.Done()
				return 0, ctx.Err()
			}
			return in, nil
		})
		if out[0] != 1 || len(left) != 1 || left[0] != 1 || err != nil {
			t.Fatalf("MapWithin: %v %v %v", out, left, err)
		}
		spans := r.spans()
		call := get(t, spans, "task.MapWithin")
		checkStatus(t, call, codes.Unset, "")
		ended := get(t, spans, "task.MapWithin inputs[1]")
		childOf(t, ended, call)
		checkStatus(t, ended, codes.Unset, "")
		if len(ended.Events()) != 1 || ended.Events()[0].Name != "canceled at the end of the budget" ||
			eventAttr(ended.Events()[0], "task.cause") != task.ErrBudget.Error() {
			t.Errorf("events %v", ended.Events())
		}
	})
}
