package bench

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"testing"
)

// mode is how the functions of a fan-out complete.
type mode int

const (
	immediate mode = iota // return at once
	yield                 // one runtime.Gosched first: .NET's Task.Yield
	usesCtx               // look at the context, as real I/O does
)

var modeNames = [...]string{"immediate", "yield", "usesctx"}

func (m mode) String() string { return modeNames[m] }

// A fanoutCase is one implementation at one N.
type fanoutCase struct {
	impl string
	n    int
	run  func(b *testing.B, ctx context.Context, m mode)
}

type point struct{ X, Y int }

// value is the value every function of type T returns.
func value[T any]() T {
	var v T
	switch p := any(&v).(type) {
	case *int:
		*p = 42
	case *string:
		*p = "forty-two"
	case *float64:
		*p = 4.2
	case *point:
		*p = point{4, 2}
	default:
		panic(fmt.Sprintf("no value for %T", v))
	}
	return v
}

// pick returns the function of type T for mode m.
func pick[T any](m mode) func(context.Context) (T, error) {
	v := value[T]()
	switch m {
	case yield:
		return func(context.Context) (T, error) { runtime.Gosched(); return v, nil }
	case usesCtx:
		return func(ctx context.Context) (T, error) {
			select {
			case <-ctx.Done():
				var zero T
				return zero, ctx.Err()
			default:
				return v, nil
			}
		}
	}
	return func(context.Context) (T, error) { return v, nil }
}

var errUnexpected = errors.New("bench: unexpected error")

// sinks keeps results alive: a store to a package variable is the
// cheapest use the compiler cannot remove, and every implementation pays
// the same for it.
var sinks struct {
	int     int
	string  string
	float64 float64
	point   point
}
