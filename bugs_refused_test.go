//go:build go1.25

package task

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"testing"
	"testing/synctest"
	"time"
)

// TestBugRefusedBareCanceled: a child that never starts because a
// sibling failed completes "as canceled, with the failure as the cause"
// (docs/scope.md; docs/reliability.md: "A child of a Scope that never
// started because of a failure fails with the cancellation and its
// cause"); with BlockAtLimit, its spawner, blocked at the limit, "returns,
// its child never started". With BlockAtLimit and Grace, now and then the
// task of that child holds a bare context.Canceled instead, without the
// failure. The fault matrix met it once in about 10^5 scenes under -race
// (ScopeTree6 [value value value value errFunc value] order [4 5 0 1 2 3]
// k=1 by AwaitN stop at 6 with grace with BlockAtLimit: children[5]); here
// about 2 scopes in 10^3 under -race, with 2 or 4 Ps, and 1 in 3·10^4
// without (the same scope without Grace, or waiting for a slot without
// BlockAtLimit, never did in 15000 under -race). It fails under -race, as
// CI runs it, where it runs with 4 Ps; without, about one run in seven.
func TestBugRefusedBareCanceled(t *testing.T) {
	t.Skip(bugRefusedBareCanceled)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(4, runtime.GOMAXPROCS(0))))
	errA := errors.New("a fails")
	bad := map[string]int{}
	for range 5000 {
		synctest.Test(t, func(t *testing.T) {
			var b *Task[int]
			_, err := Scope(context.Background(), func(ctx context.Context, g *Group) (int, error) {
				g.SetLimit(1)
				gate := make(chan struct{})
				Spawn(g, func(context.Context) (int, error) { <-gate; return 0, errA })
				spawned := make(chan struct{})
				go func() {
					defer close(spawned)
					b = Spawn(g, func(context.Context) (int, error) { return 2, nil })
				}()
				synctest.Wait() // the spawner of children[1] is blocked at the limit
				close(gate)
				<-spawned
				return 0, nil
			}, BlockAtLimit, Grace(time.Minute))
			_, errB, _ := tryWait(b)
			if !errors.Is(err, errA) || !errors.Is(errB, context.Canceled) || !errors.Is(errB, errA) {
				bad[fmt.Sprintf("Scope = %q; children[1] holds %q", err, errB)]++
			}
		})
	}
	for what, n := range bad {
		t.Errorf("%d times of 5000: %s; want the cancellation with children[0]'s failure as its cause", n, what)
	}
}
