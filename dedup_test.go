package task

import (
	"context"
	"errors"
	"slices"
	"testing"
)

// structFailure cannot be compared: it holds a slice.
type structFailure struct {
	code  int
	lines []string
}

func (e structFailure) Error() string { return "struct failure" }

// TestReceivedUncomparableIsTheSameValue: a Scope does not list again a
// child's failure that the body received and returned, when it cannot be
// compared, but lists a child whose failure is only equal to it.
// KeepGoing: the second child starts after the first failed.
func TestReceivedUncomparableIsTheSameValue(t *testing.T) {
	for _, c := range []struct {
		name string
		make func() error
	}{
		{"slice", func() error { return listFailure{"same", "words"} }},
		{"map", func() error { return mapFailure{map[string]int{"failure": 1}} }},
		{"struct", func() error { return structFailure{1, []string{"same"}} }},
		{"interface field", func() error { return &PositionError{Err: listFailure{"x"}} }},
	} {
		_, err := Scope(context.Background(), func(ctx context.Context, g *Group) (int, error) {
			received := Spawn(g, func(context.Context) (int, error) { return 0, c.make() })
			_, err := received.Wait(ctx)
			Spawn(g, func(context.Context) (int, error) { return 0, c.make() }) // equal, not the same
			return 0, err
		}, KeepGoing)
		var ce *CallError
		if !errors.As(err, &ce) || !slices.Equal(indexes(ce.Failures), []int{-1, 1}) {
			t.Errorf("%s: Scope = %v (failures %v); want the body's failure and the second child's", c.name, err, indexes(ce.Failures))
		}
	}
}
