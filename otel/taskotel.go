// Package taskotel traces the calls of github.com/tasktuple/task with
// OpenTelemetry: a span per call (RunN, Map, MapSeq, Scope, Go, Hedge,
// the slow path of AwaitN, ...) and a span per function it runs.
//
//	taskotel.Install() // the global tracer provider
//	...
//	user, recs, err := task.Run2(ctx, loadUser, task.Named("recs", loadRecs))
//
// gives, under the span in ctx:
//
//	task.Run2                   the call; status Error with the call's error
//	├── task.Run2 f1            a function, by its position
//	└── task.Run2 recs          a function given a name by task.Named
//
// The spans are of kind internal. A call's span is a child of the span in
// the caller's ctx; a function's span is a child of its call's, and the
// function's ctx carries it, so that the calls a function makes, and the
// spans it starts, are its children.
//
// A span carries these attributes:
//
//	task.call    the call: "Run3", "Map", "Scope", "Go", ...
//	task.arg     the function (function spans): its position, "f2",
//	             "inputs[3]", "children[0]", "body", "fn", or its name
//	             from task.Named, as in task.PositionError.Arg
//	task.index   its position, as in task.PositionError.Index (-1 for the
//	             body of a Scope; none for the function of Go)
//	error.type   the type of the error, when the call or function failed;
//	             for a call that raises a panic, the type of the panic's
//	             value, as the exception.type of its function's event
//
// How a function ends is recorded on its span:
//
//   - an error: status Error with its message, and error.type;
//   - a panic: an "exception" event with exception.type,
//     exception.message and exception.stacktrace (the stack from the frame
//     that panicked), and status Error;
//   - a call to runtime.Goexit: a "runtime.Goexit" event, and status Error;
//   - a cancellation that another function's failure caused (the error is
//     context.Canceled and the context's cause a *task.PositionError): not
//     an error, but an event "canceled because another function failed",
//     with the cause's message in task.cause, and its Arg and Index in
//     task.cause.arg and task.cause.index; the same for the losers of
//     Hedge, Quorum and Until ("canceled because another
//     function succeeded"), for the calls of MapWithin still running when
//     its budget ends, which return its deadline's error or its cause
//     ("canceled at the end of the budget"), and for a cancellation of the
//     call's own when the caller's ctx is not done: MapSeq's, when the
//     loop over it breaks out ("canceled by the call").
//
// The graceful stop of a call with a grace period (task.Grace) is recorded
// on the call's span:
//
//   - a "task.stop" event when it stops taking new work (its caller's ctx
//     is done, or Group.Stop), with task.not_started, the inputs of Map
//     not started or the children of a Scope waiting for a slot (MapSeq
//     cannot tell: none), and task.grace, the grace period in seconds, if
//     it starts then (with Group.Stop it starts when the caller's ctx is
//     done, with a "task.grace_start" event with task.grace);
//   - a "task.grace_end" event when the grace period ends, and the
//     functions still running are canceled. A call that returns within
//     the grace period has none.
//
// A call records its error, with status Error and error.type. A call that
// raises a panic records its message without the stacks, which are in
// the exception events of the functions that panicked, and as error.type
// the type of the value of the panic it raises (the first in argument
// order), not *task.CallError.
//
// Install is process-wide: once it is installed, the core calls the
// instrumentation of every call, and it cannot be removed (install a no-op
// provider to stop making spans). With nothing installed, the core's cost
// is one atomic load per call and per function. Installed, a Run2 costs 15
// allocations rather than 2 with a no-op provider, 24 with the SDK
// recording every span (see TestAllocs).
package taskotel

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tasktuple/task"
	"github.com/tasktuple/task/internal/probe"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
)

// ScopeName is the instrumentation scope of the tracer: the module's path.
const ScopeName = "github.com/tasktuple/task/otel"

// The attributes this package sets, besides the semantic conventions'.
const (
	callKey       = attribute.Key("task.call")
	argKey        = attribute.Key("task.arg")
	indexKey      = attribute.Key("task.index")
	causeKey      = attribute.Key("task.cause")
	causeArgKey   = attribute.Key("task.cause.arg")
	causeIndexKey = attribute.Key("task.cause.index")
	notStartedKey = attribute.Key("task.not_started")
	graceKey      = attribute.Key("task.grace")
)

// The names of the events this package adds, besides "exception".
const (
	eventGoexit = "runtime.Goexit"
	eventFailed = "canceled because another function failed"
	eventLost   = "canceled because another function succeeded"
	eventCall   = "canceled by the call"
	eventBudget = "canceled at the end of the budget"

	eventStop       = "task.stop"
	eventGraceStart = "task.grace_start"
	eventGraceEnd   = "task.grace_end"
)

// An Option configures Install.
type Option interface {
	apply(*config)
}

type config struct {
	tp trace.TracerProvider
}

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

// WithTracerProvider makes the spans with tp. The default is the global
// provider, otel.GetTracerProvider(), as it is when Install is called (the
// global provider hands on to the one set later by otel.SetTracerProvider).
func WithTracerProvider(tp trace.TracerProvider) Option {
	return optionFunc(func(c *config) {
		if tp != nil {
			c.tp = tp
		}
	})
}

var (
	installed sync.Once
	tracer    atomic.Pointer[trace.Tracer] // the tracer of the last Install
)

// Install traces every call of the task package that starts after it, in
// the whole process. It may be called again, to change the options: the
// last call's apply to the calls that start after it, and the calls are
// traced once, not once per Install.
func Install(opts ...Option) {
	var c config
	for _, o := range opts {
		o.apply(&c)
	}
	if c.tp == nil {
		c.tp = otel.GetTracerProvider()
	}
	t := c.tp.Tracer(ScopeName, trace.WithSchemaURL(semconv.SchemaURL))
	tracer.Store(&t)
	installed.Do(func() { probe.Install(prober{}) })
}

// prober is the probe.Probe of this package.
type prober struct{}

// internal is the kind of every span.
var internal = trace.WithSpanKind(trace.SpanKindInternal)

// A spanKind is the name and the start options of the spans of a call, or
// of one of its functions: made once for each call (RunN, Map, ...) and
// each of its functions named after a bounded set (f1 to f16, body, fn),
// so that starting their spans costs no allocation here.
type spanKind struct {
	name string
	opts []trace.SpanStartOption
}

// A callKind is a call's spanKind, with those of its functions.
type callKind struct {
	spanKind
	call  string
	mu    sync.Mutex
	funcs atomic.Pointer[map[string]*spanKind] // by argument; copied on write
}

// calls are the callKinds by call, copied on write: there are a few dozen.
var (
	callsMu sync.Mutex
	calls   atomic.Pointer[map[string]*callKind]
)

func callKindOf(call string) *callKind {
	if m := calls.Load(); m != nil {
		if c := (*m)[call]; c != nil {
			return c
		}
	}
	callsMu.Lock()
	defer callsMu.Unlock()
	m := map[string]*callKind{}
	if old := calls.Load(); old != nil {
		if c := (*old)[call]; c != nil {
			return c
		}
		maps.Copy(m, *old)
	}
	c := &callKind{call: call, spanKind: spanKind{
		name: "task." + call,
		opts: []trace.SpanStartOption{internal, trace.WithAttributes(callKey.String(call))},
	}}
	m[call] = c
	calls.Store(&m)
	return c
}

// funcKind returns the spanKind of function arg of the call.
func (c *callKind) funcKind(arg string) *spanKind {
	if m := c.funcs.Load(); m != nil {
		if k := (*m)[arg]; k != nil {
			return k
		}
	}
	k := c.newFuncKind(arg)
	if strings.IndexByte(arg, '[') >= 0 {
		return k // inputs[i], children[i], fns[i]: as many as the inputs
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	m := map[string]*spanKind{}
	if old := c.funcs.Load(); old != nil {
		maps.Copy(m, *old)
	}
	m[arg] = k
	c.funcs.Store(&m)
	return k
}

func (c *callKind) newFuncKind(arg string) *spanKind {
	attrs := make([]attribute.KeyValue, 2, 3)
	attrs[0], attrs[1] = callKey.String(c.call), argKey.String(arg)
	if i, ok := index(arg); ok {
		attrs = append(attrs, indexKey.Int(i))
	}
	return &spanKind{
		name: c.name + " " + arg,
		opts: []trace.SpanStartOption{internal, trace.WithAttributes(attrs...)},
	}
}

func (prober) Call(ctx context.Context, call string) (context.Context, func(error)) {
	k := callKindOf(call)
	c := &callCtx{caller: ctx}
	c.Context, c.span = (*tracer.Load()).Start(ctx, k.name, k.opts...)
	return c, c.end
}

// callCtxKey finds the call in the context of its functions.
type callCtxKey struct{}

// callCtx is a call's context, with its span.
type callCtx struct {
	context.Context // the caller's, with the span
	caller          context.Context
	span            trace.Span
}

func (c *callCtx) Value(key any) any {
	if key == (callCtxKey{}) {
		return c
	}
	return c.Context.Value(key)
}

// end records the call's error and ends its span.
func (c *callCtx) end(err error) {
	switch p := raised(err); {
	case p != nil:
		c.span.SetStatus(codes.Error, withoutStacks(err))
		c.span.SetAttributes(semconv.ErrorTypeKey.String(typeName(p.Value)))
	case err != nil:
		c.span.SetStatus(codes.Error, err.Error())
		c.span.SetAttributes(semconv.ErrorType(err))
	}
	c.span.End()
}

// callSpan is the span of the call whose context, as the probes' Call
// returned it, is ctx; nil for a call that started before Install, whose
// ctx holds the span of a function of its caller, if any.
func callSpan(ctx context.Context) trace.Span {
	c, ok := ctx.Value(callCtxKey{}).(*callCtx)
	if !ok || trace.SpanFromContext(ctx).SpanContext().SpanID() != c.span.SpanContext().SpanID() {
		return nil
	}
	return c.span
}

// Stop records the stop of a call with a grace period.
func (prober) Stop(ctx context.Context, call string, notStarted int, grace time.Duration) {
	span := callSpan(ctx)
	if span == nil || !span.IsRecording() {
		return
	}
	attrs := make([]attribute.KeyValue, 0, 2)
	if notStarted >= 0 {
		attrs = append(attrs, notStartedKey.Int(notStarted))
	}
	if grace > 0 {
		attrs = append(attrs, graceKey.Float64(grace.Seconds()))
	}
	span.AddEvent(eventStop, trace.WithAttributes(attrs...))
}

// GraceStart records the start of the grace period of a call that
// Group.Stop stopped.
func (prober) GraceStart(ctx context.Context, call string, grace time.Duration) {
	if span := callSpan(ctx); span != nil {
		span.AddEvent(eventGraceStart, trace.WithAttributes(graceKey.Float64(grace.Seconds())))
	}
}

// GraceEnd records the end of the grace period of a call.
func (prober) GraceEnd(ctx context.Context, call string) {
	if span := callSpan(ctx); span != nil {
		span.AddEvent(eventGraceEnd)
	}
}

// raised is the panic that a call ending with err raises: the error itself
// for the task of Go, else the first panic in argument order among the
// failures of the call's *task.CallError (the one the call raises, holding
// the others). It is nil when the call raises no panic.
//
// The call's error is still what is recorded, rather than the raised
// *task.PanicError: its message has every failure. The error.type of a
// panic is the type of its value, as the exception.type of the function's
// exception event.
func raised(err error) *task.PanicError {
	switch err := err.(type) {
	case *task.PanicError:
		return err
	case *task.CallError:
		for _, f := range err.Failures {
			if p, ok := f.Err.(*task.PanicError); ok {
				return p
			}
		}
	}
	return nil
}

// withoutStacks is the message of err without the stacks of the panics in
// it: they are many lines each, and each is in the exception event of the
// function that panicked.
func withoutStacks(err error) string {
	msg := err.Error()
	eachPanic(err, func(p *task.PanicError) {
		if len(p.Stack) > 0 {
			msg = strings.ReplaceAll(msg, "\n\n"+strings.TrimSuffix(string(p.Stack), "\n"), "")
		}
	})
	return msg
}

// eachPanic calls f for each *task.PanicError in the tree of err, as
// errors.As walks it: the failures of a call, the others of a panic, and
// a panic's value when it is an error.
func eachPanic(err error, f func(*task.PanicError)) {
	if p, ok := err.(*task.PanicError); ok {
		f(p)
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		if next := u.Unwrap(); next != nil {
			eachPanic(next, f)
		}
	case interface{ Unwrap() []error }:
		for _, next := range u.Unwrap() {
			if next != nil {
				eachPanic(next, f)
			}
		}
	}
}

func (prober) Func(ctx context.Context, call, arg string) (context.Context, func(probe.Outcome)) {
	c := callKindOf(call)
	k := c.funcKind(arg)
	ctx, span := (*tracer.Load()).Start(ctx, k.name, k.opts...)
	f := &function{Context: ctx, span: span, call: c}
	return f, f.end
}

func (prober) Named(ctx context.Context, name string) (context.Context, func()) {
	// Named wraps the function: it starts with the function's ctx, whose
	// span is the function's. An outer Named is the name the errors use,
	// and the outer one starts first: later ones leave the name alone. A
	// span started in between (a Named function called by the function)
	// is not the function's.
	f, _ := ctx.Value(functionKey{}).(*function)
	if f == nil || (ctx != context.Context(f) && trace.SpanContextFromContext(ctx).SpanID() != f.span.SpanContext().SpanID()) {
		return ctx, nop
	}
	if f.named.CompareAndSwap(false, true) {
		f.span.SetName(f.call.name + " " + name)
		f.span.SetAttributes(argKey.String(name))
	}
	return ctx, nop
}

func nop() {}

// functionKey finds the function in its ctx, for Named.
type functionKey struct{}

// function is a function's context, with its span, and how it ends.
type function struct {
	context.Context // the context with the span
	span            trace.Span
	call            *callKind
	named           atomic.Bool // renamed by Named
}

func (f *function) Value(key any) any {
	if key == (functionKey{}) {
		return f
	}
	return f.Context.Value(key)
}

// end records how the function ended and ends its span.
func (f *function) end(o probe.Outcome) {
	span := f.span
	defer span.End()
	switch {
	case o.Panicked:
		msg := fmt.Sprint(o.Value)
		span.AddEvent(semconv.ExceptionEventName, trace.WithAttributes(
			semconv.ExceptionType(typeName(o.Value)),
			semconv.ExceptionMessage(msg),
			semconv.ExceptionStacktrace(string(o.Stack)),
		))
		span.SetStatus(codes.Error, "panic: "+msg)
	case o.Goexit:
		span.AddEvent(eventGoexit)
		span.SetStatus(codes.Error, task.ErrGoexit.Error())
	case o.Err != nil:
		err := o.Err
		if f.named.Load() {
			// The core wraps the error of a named function, to carry
			// the name: what the function returned is inside.
			if u := errors.Unwrap(err); u != nil {
				err = u
			}
		}
		if (errors.Is(err, context.Canceled) || f.budgetEnded(err)) && f.canceled() {
			return
		}
		span.SetStatus(codes.Error, err.Error())
		span.SetAttributes(semconv.ErrorType(err))
	}
}

// budgetEnded reports whether err is what a function of MapWithin returns
// when its budget ends: the budget's deadline, or its cause.
func (f *function) budgetEnded(err error) bool {
	return (errors.Is(err, context.DeadlineExceeded) || errors.Is(err, task.ErrBudget)) &&
		errors.Is(context.Cause(f), task.ErrBudget)
}

// canceled records a cancellation that the call caused, and reports
// whether it did: because another function failed (the cause is a
// *task.PositionError), because another function succeeded (Hedge,
// Quorum, Until: task.ErrLost), or for another reason of the call's (MapSeq when
// the loop over it breaks out). A cancellation that the caller's ctx
// caused is an error, as it is the call's.
func (f *function) canceled() bool {
	cause := context.Cause(f)
	if cause == nil {
		return false
	}
	var pe *task.PositionError
	switch {
	case errors.As(cause, &pe):
		// Even through the caller's ctx: the failure of a function of
		// an enclosing call.
		f.span.AddEvent(eventFailed, trace.WithAttributes(
			causeKey.String(cause.Error()),
			causeArgKey.String(pe.Arg),
			causeIndexKey.Int(pe.Index),
		))
	case errors.Is(cause, task.ErrLost):
		f.span.AddEvent(eventLost, trace.WithAttributes(causeKey.String(cause.Error())))
	case errors.Is(cause, task.ErrBudget):
		f.span.AddEvent(eventBudget, trace.WithAttributes(causeKey.String(cause.Error())))
	default:
		c, _ := f.Value(callCtxKey{}).(*callCtx)
		if c == nil || c.caller.Err() != nil {
			return false
		}
		f.span.AddEvent(eventCall, trace.WithAttributes(causeKey.String(cause.Error())))
	}
	return true
}

// index is the position of a function from its name in the call: "f2" is
// 1 (RunN), "inputs[3]" is 3 (Map, MapSeq, Hedge, Scope's children),
// "body" is -1 (Scope). The function of Go has none.
func index(arg string) (int, bool) {
	if arg == "body" {
		return -1, true
	}
	if n := len(arg); n > 2 && arg[n-1] == ']' {
		if i := strings.LastIndexByte(arg, '['); i >= 0 {
			v, err := strconv.Atoi(arg[i+1 : n-1])
			return v, err == nil
		}
		return 0, false
	}
	if len(arg) > 1 && arg[0] == 'f' {
		if v, err := strconv.Atoi(arg[1:]); err == nil && v > 0 {
			return v - 1, true
		}
	}
	return 0, false
}

// typeName is the type of a panic value, for exception.type: an error's as
// error.type names it ("*net.OpError", "runtime.boundsError"), else its Go
// type ("string").
func typeName(v any) string {
	if err, ok := v.(error); ok {
		return semconv.ErrorType(err).Value.AsString()
	}
	return fmt.Sprintf("%T", v)
}
