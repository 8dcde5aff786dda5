package task

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// point is a struct value type for test positions.
type point struct{ X, Y int }

// val is the value position i (1-based) produces, distinct per position and
// per type.
func val[T any](i int) T {
	var v T
	switch p := any(&v).(type) {
	case *int:
		*p = 100 + i
	case *string:
		*p = "s" + strconv.Itoa(i)
	case *float64:
		*p = float64(i) + 0.5
	case *point:
		*p = point{i, -i}
	default:
		panic(fmt.Sprintf("val: no value for %T", v))
	}
	return v
}

// posErr is the error position i fails with.
type posErr struct{ i int }

func (e posErr) Error() string { return "failure " + strconv.Itoa(e.i) }

// listFailure, mapFailure and funcFailure are errors whose dynamic types
// are not comparable: a slice, and structs with a map and a func field.
// Comparing two of the same type with == panics, and so does a map lookup
// with one as the key ("hash of unhashable type"), so the package must do
// neither; and errors.Is finds them only through an Is method, which they
// do not have (see reaches).
type (
	listFailure []string
	mapFailure  struct{ m map[string]int }
	funcFailure struct {
		i     int
		retry func() error
	}
)

func (e listFailure) Error() string { return strings.Join(e, " ") }
func (e mapFailure) Error() string  { return "failure " + strconv.Itoa(e.m["failure"]) + " (map)" }
func (e funcFailure) Error() string { return "failure " + strconv.Itoa(e.i) + " (func)" }

// failure is the error position i fails with when it does k: posErr{i} for
// kError, an uncomparable error for kErrSlice, kErrMap and kErrFunc.
func failure(k kind, i int) error {
	switch k {
	case kErrSlice:
		return listFailure{"failure", strconv.Itoa(i), "(slice)"}
	case kErrMap:
		return mapFailure{map[string]int{"failure": i}}
	case kErrFunc:
		return funcFailure{i, func() error { return nil }}
	}
	return posErr{i}
}

// sameFailure reports whether err is the failure of the same kind and
// position as target, without comparing them with ==.
func sameFailure(err, target error) bool {
	switch t := target.(type) {
	case listFailure:
		e, ok := err.(listFailure)
		return ok && slices.Equal(e, t)
	case mapFailure:
		e, ok := err.(mapFailure)
		return ok && maps.Equal(e.m, t.m)
	case funcFailure:
		e, ok := err.(funcFailure)
		return ok && e.i == t.i
	}
	return err == target
}

// reaches is errors.Is(err, target) for a target that may be a failure
// that errors.Is cannot find, one that is not comparable: it walks the tree
// of err and matches with sameFailure.
func reaches(err, target error) bool {
	if reflect.TypeOf(target).Comparable() {
		return errors.Is(err, target)
	}
	if err == nil {
		return false
	}
	if sameFailure(err, target) {
		return true
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		return reaches(u.Unwrap(), target)
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			if reaches(e, target) {
				return true
			}
		}
	}
	return false
}

// kind is what a slot's function or task does.
type kind int

const (
	kValue     kind = iota // returns val(i), nil
	kError                 // returns val(i), posErr{i}
	kPanic                 // panic("boom i")
	kPanicErr              // panic(posErr{i})
	kPanicNil              // panic(nil)
	kGoexit                // runtime.Goexit()
	kWaitCtx               // waits for ctx.Done, returns val(i), ctx.Err()
	kNil                   // the function or task is nil
	kCompleted             // a task made by fromResult (await only)
	kSource                // a task completed by the test through slot.complete (await only)
	kWaitCause             // waits for ctx.Done, returns val(i), context.Cause(ctx)
	kSlow                  // the fault model's late value: kValue behind a gate
	kErrSlice              // returns val(i) and failure(kErrSlice, i), a listFailure
	kErrMap                // returns val(i) and failure(kErrMap, i), a mapFailure
	kErrFunc               // returns val(i) and failure(kErrFunc, i), a funcFailure
	kWaitStop              // waits for Stopping(ctx) or ctx.Done, returns val(i), ctx.Err()
)

var kindNamesOf = [...]string{"value", "error", "panic", "panicErr", "panicNil", "goexit", "waitCtx", "nil", "completed", "source", "waitCause", "slow", "errSlice", "errMap", "errFunc", "waitStop"}

func (k kind) String() string { return kindNamesOf[k] }

// A slot drives one position of a call under test.
type slot struct {
	i    int           // 1-based position
	kind kind          //
	gate chan struct{} // if not nil, the function waits for it to be closed first

	calls    atomic.Int32                    // times the function was called
	returned chan struct{}                   // closed when the function returns (or unwinds)
	ctx      atomic.Pointer[context.Context] // the context the function got
	source   atomic.Pointer[func(ok bool)]   // for kSource: completes the task with val or posErr
}

func newSlots(n int, k kind) []*slot {
	sl := make([]*slot, n)
	for i := range sl {
		sl[i] = &slot{i: i + 1, kind: k, returned: make(chan struct{})}
	}
	return sl
}

// complete completes the task of a kSource slot, once taskFor has made it.
func (s *slot) complete(ok bool) { (*s.source.Load())(ok) }

// fnFor returns the function of slot s, with value type T.
func fnFor[T any](s *slot) func(context.Context) (T, error) {
	if s.kind == kNil {
		return nil
	}
	return func(ctx context.Context) (T, error) {
		s.calls.Add(1)
		s.ctx.Store(&ctx)
		defer close(s.returned)
		if s.gate != nil {
			<-s.gate
		}
		switch s.kind {
		case kError:
			return val[T](s.i), posErr{s.i}
		case kErrSlice, kErrMap, kErrFunc:
			return val[T](s.i), failure(s.kind, s.i)
		case kPanic:
			panic("boom " + strconv.Itoa(s.i))
		case kPanicErr:
			panic(posErr{s.i})
		case kPanicNil:
			panic(nil) //nolint:govet // the point of the test
		case kGoexit:
			runtime.Goexit()
		case kWaitCtx:
			<-ctx.Done()
			return val[T](s.i), ctx.Err()
		case kWaitStop:
			select {
			case <-Stopping(ctx):
			case <-ctx.Done():
			}
			return val[T](s.i), ctx.Err()
		case kWaitCause:
			<-ctx.Done()
			return val[T](s.i), fmt.Errorf("gave up: %w", context.Cause(ctx))
		}
		return val[T](s.i), nil
	}
}

// taskFor returns the task of slot s, with value type T.
func taskFor[T any](ctx context.Context, s *slot) *Task[T] {
	switch s.kind {
	case kNil:
		return nil
	case kCompleted:
		return fromResult(val[T](s.i))
	case kSource:
		src := newSource[T]()
		complete := func(ok bool) {
			if ok {
				src.Complete(val[T](s.i), nil)
			} else {
				src.Complete(val[T](s.i), posErr{s.i})
			}
		}
		s.source.Store(&complete)
		return src.Task()
	}
	return Go(ctx, fnFor[T](s))
}

// immediate returns at once without looking at its context.
func immediate[T any](context.Context) (T, error) {
	var v T
	return v, nil
}

// checksCtx looks at its context, as a function doing I/O would.
func checksCtx[T any](ctx context.Context) (T, error) {
	var v T
	select {
	case <-ctx.Done():
		return v, ctx.Err()
	default:
		return v, nil
	}
}

// arity holds the generated adapters for one N (see zarity_test.go).
type arity struct {
	n            int
	await        func(ctx context.Context, sl []*slot, opts ...Option) ([]any, error)
	run          func(ctx context.Context, sl []*slot, opts ...Option) ([]any, error)
	allocsAwait  func() float64
	allocsRun    func() float64
	benchAwait   func(b *testing.B)
	benchGoAwait func(b *testing.B)
	benchRun     func(b *testing.B, usesCtx bool)
}

// wantValue is what position i of arity n yields.
func wantValue(n, i int) any {
	switch (i - 1) % 4 {
	case 0:
		return val[int](i)
	case 1:
		return val[string](i)
	case 2:
		return val[float64](i)
	}
	return val[point](i)
}

// zeroValue is the zero value of position i's type.
func zeroValue(i int) any {
	switch (i - 1) % 4 {
	case 0:
		return 0
	case 1:
		return ""
	case 2:
		return 0.0
	}
	return point{}
}

// callCase is AwaitN or RunN of one arity, through its adapter.
type callCase struct {
	name string
	n    int
	fn   func(ctx context.Context, sl []*slot, opts ...Option) ([]any, error)
}

func awaits() []callCase {
	var cs []callCase
	for _, a := range arities[1:] {
		cs = append(cs, callCase{fmt.Sprintf("Await%d", a.n), a.n, a.await})
	}
	return cs
}

func runs() []callCase {
	var cs []callCase
	for _, a := range arities[1:] {
		cs = append(cs, callCase{fmt.Sprintf("Run%d", a.n), a.n, a.run})
	}
	return cs
}

func checkValues(t *testing.T, name string, got []any, n int) {
	t.Helper()
	for i := 1; i <= n; i++ {
		if want := wantValue(n, i); !reflect.DeepEqual(got[i-1], want) {
			t.Errorf("%s: r%d = %#v; want %#v", name, i, got[i-1], want)
		}
	}
}

func checkZero(t *testing.T, name string, got []any) {
	t.Helper()
	for i, v := range got {
		if want := zeroValue(i + 1); !reflect.DeepEqual(v, want) {
			t.Errorf("%s: r%d = %#v; want zero %#v", name, i+1, v, want)
		}
	}
}
