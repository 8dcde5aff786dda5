//go:build go1.25

package task

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"
)

// TestDeadlines checks, in fake time, that each waiting call is still
// waiting 1ns before its ctx's deadline and has returned
// context.DeadlineExceeded exactly at it.
func TestDeadlines(t *testing.T) {
	const d = 3 * time.Second
	waitCtx := func(ctx context.Context) (int, error) { <-ctx.Done(); return 0, ctx.Err() }
	for _, tc := range []struct {
		name string
		call func(ctx context.Context, pending *Task[int]) error
	}{
		{"Wait", func(ctx context.Context, p *Task[int]) error { _, err := p.Wait(ctx); return err }},
		{"Await2", func(ctx context.Context, p *Task[int]) error {
			_, _, err := Await2(ctx, fromResult("x"), p)
			return err
		}},
		{"All", func(ctx context.Context, p *Task[int]) error { _, err := All(ctx, []*Task[int]{p}); return err }},
		{"Run2", func(ctx context.Context, _ *Task[int]) error { _, _, err := Run2(ctx, waitCtx, waitCtx); return err }},
		{"Map", func(ctx context.Context, _ *Task[int]) error {
			_, err := Map(ctx, []int{1, 2}, 2, func(ctx context.Context, _ int) (int, error) { return waitCtx(ctx) })
			return err
		}},
		{"Hedge", func(ctx context.Context, _ *Task[int]) error {
			_, _, err := Hedge(ctx, 0, nil, waitCtx, waitCtx)
			return err
		}},
	} {
		synctest.Test(t, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), d)
			defer cancel()
			src := newSource[int]()
			done := make(chan error, 1)
			go func() { done <- tc.call(ctx, src.Task()) }()
			time.Sleep(d - time.Nanosecond)
			synctest.Wait()
			select {
			case err := <-done:
				t.Fatalf("%s returned %v 1ns before the deadline", tc.name, err)
			default:
			}
			time.Sleep(time.Nanosecond)
			synctest.Wait()
			select {
			case err := <-done:
				if !errors.Is(err, context.DeadlineExceeded) {
					t.Errorf("%s at the deadline: %v; want DeadlineExceeded", tc.name, err)
				}
			default:
				t.Fatalf("%s still waiting at the deadline", tc.name)
			}
			src.Complete(0, nil)
		})
	}
}
