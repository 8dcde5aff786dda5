package task

import (
	"context"
	"errors"
	"testing"
)

func TestWhenAll(t *testing.T) {
	ctx := context.Background()
	if err := WhenAll(ctx); err != nil {
		t.Errorf("WhenAll() = %v", err)
	}
	boom := errors.New("boom")
	tasks := []Awaiter{FromResult(1), FromError[string](boom), FromResult(2.5), FromError[int](posErr{3})}
	err := WhenAll(ctx, tasks...)
	if !errors.Is(err, boom) || !errors.Is(err, posErr{3}) {
		t.Errorf("WhenAll = %v; want both errors", err)
	}
	if ps := positions(err); len(ps) != 2 || ps[0] != 1 || ps[1] != 3 {
		t.Errorf("positions %v; want [1 3]", ps)
	}
	if !raceEnabled {
		ok := []Awaiter{FromResult(1), FromResult("a")}
		if n := testing.AllocsPerRun(100, func() { WhenAll(ctx, ok...) }); n != 0 {
			t.Errorf("WhenAll of completed tasks: %v allocations", n)
		}
	}
}
