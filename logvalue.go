package task

import (
	"fmt"
	"log/slog"
	"strconv"
	"strings"
)

// maxLoggedErrors bounds the failures that the "errors" attribute of a
// CallError's log value spells out, as its message bounds its unfinished
// lines; the rest are counted.
const maxLoggedErrors = 8

// LogValue makes a CallError log as one group of attributes with fixed
// keys, rather than as its message, which has a line per failure:
//
//	call         the call: "Run3", "Map", ...
//	failed       the number of failures (Failures)
//	first        the first failure in argument order, a group:
//	  arg          the argument, as in PositionError.Arg: "f2",
//	               "inputs[3]", or the name given by Named
//	  index        its position, as in PositionError.Index
//	  error        the error it returned, or ErrGoexit, as slog logs an
//	               error
//	  panic        instead of error, for a panic: the value passed to
//	               panic, as fmt.Sprint prints it (its LogValue if it has
//	               one)
//	  frame        for a panic: where it happened, as a *[slog.Source]
//	               (see [PanicError.LogValue])
//	errors       every failure, in one string: "arg: message" joined by
//	             "; ", at most 8, then "; and N more"; only when there
//	             are two or more
//	ctx          the context's error, CallError.Ctx, when it ended the call
//	unfinished   the number of positions a stop ended (Unfinished)
//	canceled     the number of functions the call canceled (Canceled)
//	not_started  CallError.NotStarted
//
// Attributes that do not apply (a count of 0) are left out; with a
// [slog.TextHandler], the error is one line (see the example).
func (e *CallError) LogValue() slog.Value {
	// Why this shape: in a log index (Elasticsearch, Loki, BigQuery), every
	// key of a JSON line becomes a field, so keys must not depend on the
	// data: a group keyed by position ("failures.0", "failures.1", ...)
	// makes a field per position. Here the keys are fixed: the first
	// failure is structured, for queries and alerts, and the others are in
	// one string, for people. Canceled and unfinished positions are
	// counted, not described: what a canceled sibling returned usually
	// wraps the cause (net/http says "context canceled" with the URL, or
	// the cause's own message), and in a log line it read as if that
	// sibling had failed too.
	return slog.GroupValue(e.logAttrs(true)...)
}

// logAttrs are the attributes of LogValue, with the call or without it.
func (e *CallError) logAttrs(call bool) []slog.Attr {
	as := make([]slog.Attr, 0, 6)
	if call {
		as = append(as, slog.String("call", e.Call))
	}
	if n := len(e.Failures); n > 0 {
		as = append(as, slog.Int("failed", n), slog.Attr{Key: "first", Value: positionLogValue(e.Failures[0])})
		if n > 1 {
			as = append(as, slog.String("errors", failureList(e.Failures)))
		}
	}
	if e.Ctx != nil {
		as = append(as, slog.Any("ctx", e.Ctx))
	}
	for _, c := range [...]struct {
		key string
		n   int
	}{{"unfinished", len(e.Unfinished)}, {"canceled", len(e.Canceled)}, {"not_started", e.NotStarted}} {
		if c.n > 0 {
			as = append(as, slog.Int(c.key, c.n))
		}
	}
	return as
}

// failureList is the "errors" attribute: "arg: message; ...", at most
// maxLoggedErrors, a panic in its one-line form.
func failureList(fs []*PositionError) string {
	var b strings.Builder
	for i, f := range fs {
		if i == maxLoggedErrors {
			b.WriteString("; and " + strconv.Itoa(len(fs)-i) + " more")
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(f.Arg + ": ")
		switch err := f.Err.(type) {
		case *PanicError:
			b.WriteString("panic: " + fmt.Sprint(err.Value))
		case nil:
			b.WriteString("had not finished")
		default:
			b.WriteString(err.Error())
		}
	}
	return b.String()
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
//	         LogValue if it has one, as a PanicError passed on has)
//	frame    the first frame of Stack outside the runtime and this
//	         package, as a *[slog.Source]: file:line in text, and
//	         {"function", "file", "line"} in JSON; that is the code that
//	         panicked, or, for a panic that this package raised again
//	         (the value is a PanicError), the code that made the call
//	others   the rest of the call (Others), as [CallError.LogValue] logs
//	         it, without the call: others.failed, others.first,
//	         others.errors, others.ctx, others.unfinished, ...
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
