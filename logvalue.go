package task

import (
	"fmt"
	"log/slog"
	"strconv"
	"strings"
)

// maxLoggedStops bounds the unfinished and the canceled positions that the
// log value of a CallError lists, as its message bounds its unfinished
// lines; the rest are counted. Failures are all listed, as in the message.
const maxLoggedStops = 8

// LogValue makes a CallError log as one group of attributes, rather than as
// its message, which has a line per failure:
//
//	call          the call: "Run3", "Map", ...
//	failures.N    the Nth failure, from 0, in argument order, a group:
//	  arg           the argument, as in PositionError.Arg: "f2",
//	                "inputs[3]", or the name given by Named
//	  index         its position, as in PositionError.Index
//	  error         the error it returned, or ErrGoexit; as slog logs an
//	                error: its LogValue if it has one, else its message
//	  panic         instead of error, for a panic: the value passed to
//	                panic, as fmt.Sprint prints it (its LogValue if it
//	                has one)
//	  frame         for a panic: where it happened, as a *[slog.Source]
//	                (see [PanicError.LogValue])
//	ctx           the context's error, CallError.Ctx, when it ended the call
//	unfinished.N  the positions the caller's ctx stopped (Unfinished), as
//	              failures are, with no error for a task that had not
//	              completed; at most 8, then unfinished.more, the number
//	              left out
//	canceled.N    the functions the call stopped (Canceled), in the same way
//	not_started   CallError.NotStarted, when not 0
//
// Attributes that do not apply are left out; with a [slog.TextHandler],
// the error is one line (see the example). The lists are groups keyed by
// ordinal, not arrays: slog has no list kind, and a group is what every
// handler renders as structure (a json.Marshaler array was rejected: a
// text handler prints it as one opaque string).
func (e *CallError) LogValue() slog.Value {
	return slog.GroupValue(e.logAttrs(true)...)
}

// logAttrs are the attributes of LogValue, with the call or without it.
func (e *CallError) logAttrs(call bool) []slog.Attr {
	as := make([]slog.Attr, 0, 5)
	if call {
		as = append(as, slog.String("call", e.Call))
	}
	if len(e.Failures) > 0 {
		fs := make([]slog.Attr, len(e.Failures))
		for i, f := range e.Failures {
			fs[i] = slog.Attr{Key: strconv.Itoa(i), Value: positionLogValue(f)}
		}
		as = append(as, slog.Attr{Key: "failures", Value: slog.GroupValue(fs...)})
	}
	if e.Ctx != nil {
		as = append(as, slog.Any("ctx", e.Ctx))
	}
	as = appendStops(as, "unfinished", e.Unfinished)
	as = appendStops(as, "canceled", e.Canceled)
	if e.NotStarted > 0 {
		as = append(as, slog.Int("not_started", e.NotStarted))
	}
	return as
}

// appendStops appends the group key that lists stopped positions, at most
// maxLoggedStops of them, then the number left out.
func appendStops(as []slog.Attr, key string, ps []*PositionError) []slog.Attr {
	if len(ps) == 0 {
		return as
	}
	n := min(len(ps), maxLoggedStops)
	g := make([]slog.Attr, n, n+1)
	for i, p := range ps[:n] {
		g[i] = slog.Attr{Key: strconv.Itoa(i), Value: positionLogValue(p)}
	}
	if len(ps) > n {
		g = append(g, slog.Int("more", len(ps)-n))
	}
	return append(as, slog.Attr{Key: key, Value: slog.GroupValue(g...)})
}

// positionLogValue is what happened at a position, for the log value of a
// CallError: arg, index, and error, or panic and frame.
func positionLogValue(p *PositionError) slog.Value {
	as := make([]slog.Attr, 2, 4)
	as[0], as[1] = slog.String("arg", p.Arg), slog.Int("index", p.Index)
	switch err := p.Err.(type) {
	case nil: // a task an await gave up on
	case *PanicError:
		as = err.appendPanic(as)
	default:
		as = append(as, slog.Any("error", err))
	}
	return slog.GroupValue(as...)
}

// LogValue makes a PanicError log as one group of attributes, rather than
// as its message, which holds the whole stack and the other failures of the
// call, one per line:
//
//	call     the call that raised it (Call), unless it is a task's own
//	arg      the argument (Arg); for a task's own, the name given by
//	         Named, if any
//	index    its position (Index), unless it is a task's own
//	panic    the value passed to panic, as fmt.Sprint prints it (its
//	         LogValue if it has one, as a PanicError has when a function
//	         let the panic of a call of its own go on)
//	frame    the first frame of Stack outside the runtime and this
//	         package, as a *[slog.Source]: file:line in text, and
//	         {"function", "file", "line"} in JSON; that is the code that
//	         panicked, or, for a panic that this package raised again
//	         (the value is a PanicError), the code that made the call
//	others   the rest of the call (Others), as [CallError.LogValue] logs
//	         it, without the call: others.failures.N, others.ctx,
//	         others.unfinished.N, others.canceled.N
//
// The stack itself is left out: it is many lines, and the frame says where.
// A program that wants it logs Stack under a key of its own.
func (p *PanicError) LogValue() slog.Value {
	as := make([]slog.Attr, 0, 6)
	switch {
	case p.Call != "":
		as = append(as, slog.String("call", p.Call), slog.String("arg", p.Arg), slog.Int("index", p.Index))
	case p.name != "":
		as = append(as, slog.String("arg", p.name))
	}
	as = p.appendPanic(as)
	if p.Others != nil {
		as = append(as, slog.Attr{Key: "others", Value: slog.GroupValue(p.Others.logAttrs(false)...)})
	}
	return slog.GroupValue(as...)
}

// appendPanic appends the panic's value and its first frame.
func (p *PanicError) appendPanic(as []slog.Attr) []slog.Attr {
	v := slog.StringValue(fmt.Sprint(p.Value))
	if lv, ok := p.Value.(slog.LogValuer); ok {
		v = slog.AnyValue(lv)
	}
	as = append(as, slog.Attr{Key: "panic", Value: v})
	if src := firstFrame(p.Stack); src != nil {
		as = append(as, slog.Any("frame", src))
	}
	return as
}

// packagePrefix starts the names of this package's functions in a stack.
const packagePrefix = "github.com/tasktuple/task."

// firstFrame is the first frame of a stack in the format of
// runtime/debug.Stack that is outside the runtime (whose panic frames show
// under GOTRACEBACK=system) and outside this package: the code that
// panicked, as PanicError.Stack starts there, or, when this package raised
// a panic again (a function let a panic of its own call go on), the code
// that made that call. It is the first frame if every frame is the
// runtime's or this package's, and nil if the stack has none.
func firstFrame(stack []byte) *slog.Source {
	var first *slog.Source
	rest := string(stack)
	for rest != "" {
		var fn, loc string
		fn, rest, _ = strings.Cut(rest, "\n")
		if strings.HasPrefix(fn, "created by ") {
			break // the goroutine's creator: not one of its frames
		}
		if !strings.HasPrefix(rest, "\t") {
			continue // the goroutine's header, or a note on elided frames
		}
		loc, rest, _ = strings.Cut(rest[1:], "\n")
		src := parseFrame(fn, loc)
		if src == nil {
			continue
		}
		if fn := src.Function; fn != "panic" && !strings.HasPrefix(fn, "runtime.") && !strings.HasPrefix(fn, packagePrefix) {
			return src
		}
		if first == nil {
			first = src
		}
	}
	return first
}

// parseFrame parses the two lines of a frame: the function with its
// arguments, "pkg.fn(0x1, ...)", and its location, "/path/file.go:12 +0x1d"
// without the leading tab.
func parseFrame(fn, loc string) *slog.Source {
	if strings.HasSuffix(fn, ")") {
		if i := strings.LastIndexByte(fn, '('); i > 0 {
			fn = fn[:i]
		}
	}
	loc, _, _ = strings.Cut(loc, " +0x")
	i := strings.LastIndexByte(loc, ':')
	if i < 0 {
		return nil
	}
	line, err := strconv.Atoi(loc[i+1:])
	if err != nil {
		return nil
	}
	return &slog.Source{Function: fn, File: loc[:i], Line: line}
}
