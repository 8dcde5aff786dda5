package task

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
)

func TestScopeResults(t *testing.T) {
	got, err := Scope(context.Background(), func(ctx context.Context, g *Group) (string, error) {
		tn := Spawn(g, func(context.Context) (int, error) { return 7, nil })
		ts := Spawn(g, func(context.Context) (string, error) { return "Ada", nil })
		n, s, err := Await2(ctx, tn, ts)
		return fmt.Sprint(s, n), err
	})
	if got != "Ada7" || err != nil {
		t.Errorf("Scope = %q, %v; want Ada7, nil", got, err)
	}
}

// TestScopeWaitsForEveryChild: Scope returns only after every child,
// including children spawned by children after the body returned.
func TestScopeWaitsForEveryChild(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var ran atomic.Int32
		var spawn func(g *Group, depth int)
		spawn = func(g *Group, depth int) {
			Spawn(g, func(context.Context) (int, error) {
				ran.Add(1)
				if depth < 4 {
					for range 3 {
						spawn(g, depth+1)
					}
				}
				return 0, nil
			})
		}
		_, err := Scope(context.Background(), func(ctx context.Context, g *Group) (int, error) {
			spawn(g, 0)
			return 0, nil // returns at once: the children are still spawning
		})
		if n := ran.Load(); n != 1+3+9+27+81 || err != nil {
			t.Errorf("ran %d children, err %v; want 121, nil", n, err)
		}
	})
}

// TestScopeLimit: never more than the limit running, children that spawn at
// the limit do not deadlock, and TrySpawn reports the limit.
func TestScopeLimit(t *testing.T) {
	for _, limit := range []int{1, 2, 5} {
		synctest.Test(t, func(t *testing.T) {
			var running, peak, ran atomic.Int32
			var crawl func(g *Group, depth int)
			crawl = func(g *Group, depth int) {
				Spawn(g, func(context.Context) (int, error) {
					n := running.Add(1)
					for {
						p := peak.Load()
						if n <= p || peak.CompareAndSwap(p, n) {
							break
						}
					}
					runtime.Gosched()
					if depth < 3 {
						for range 4 {
							crawl(g, depth+1) // at the limit: waits for a slot, no deadlock
						}
					}
					ran.Add(1)
					running.Add(-1)
					return 0, nil
				})
			}
			_, err := Scope(context.Background(), func(ctx context.Context, g *Group) (int, error) {
				g.SetLimit(limit)
				crawl(g, 0)
				crawl(g, 0)
				return 0, nil
			})
			if err != nil || ran.Load() != 2*(1+4+16+64) || peak.Load() > int32(limit) {
				t.Errorf("limit %d: err %v, ran %d, peak %d", limit, err, ran.Load(), peak.Load())
			}
		})
	}
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		Scope(context.Background(), func(ctx context.Context, g *Group) (int, error) {
			g.SetLimit(1)
			t1, ok1 := TrySpawn(g, func(context.Context) (int, error) { <-release; return 1, nil })
			t2, ok2 := TrySpawn(g, immediate[int])
			if !ok1 || t1 == nil || ok2 || t2 != nil {
				t.Errorf("TrySpawn at limit 1: %v %v; want true, then false", ok1, ok2)
			}
			close(release)
			return t1.Wait(ctx)
		})
	})
}

func TestScopeErrors(t *testing.T) {
	boom := errors.New("boom")
	t.Run("child fails, fail-fast", func(t *testing.T) {
		_, err := Scope(context.Background(), func(ctx context.Context, g *Group) (int, error) {
			Spawn(g, func(ctx context.Context) (int, error) { <-ctx.Done(); return 0, ctx.Err() })
			Spawn(g, failWith[string](boom))
			<-ctx.Done()
			return 0, ctx.Err()
		})
		var ce *CallError
		if !errors.As(err, &ce) || err.Error() != "task: Scope: children[1]: boom" ||
			!slices.Equal(indexes(ce.Canceled), []int{-1, 0}) {
			t.Errorf("err = %v (canceled %v); want children[1] failed, body and children[0] canceled", err, ce)
		}
	})
	t.Run("body fails", func(t *testing.T) {
		var childCause error
		_, err := Scope(context.Background(), func(ctx context.Context, g *Group) (int, error) {
			Spawn(g, func(ctx context.Context) (int, error) {
				<-ctx.Done()
				childCause = context.Cause(ctx)
				return 0, ctx.Err()
			})
			return 0, boom
		})
		if err == nil || err.Error() != "task: Scope: body: boom" || !errors.Is(childCause, boom) {
			t.Errorf("err = %v, the child saw %v; want the body's boom", err, childCause)
		}
	})
	t.Run("body returns what it received", func(t *testing.T) {
		_, err := Scope(context.Background(), func(ctx context.Context, g *Group) (int, error) {
			tk := Spawn(g, failWith[int](boom))
			return tk.Wait(context.Background())
		})
		if err == nil || err.Error() != "task: Scope: body: boom" {
			t.Errorf("err = %v; want boom once, as the body's", err)
		}
	})
	t.Run("KeepGoing", func(t *testing.T) {
		_, err := Scope(context.Background(), func(ctx context.Context, g *Group) (int, error) {
			Spawn(g, failWith[int](boom))
			Spawn(g, failWith[int](errors.New("bang")))
			return 0, nil
		}, KeepGoing)
		if err == nil || err.Error() != "task: Scope: children[0]: boom\ntask: Scope: children[1]: bang" {
			t.Errorf("err = %v; want both", err)
		}
	})
	t.Run("Settled", func(t *testing.T) {
		r, err := Scope(context.Background(), func(ctx context.Context, g *Group) (int, error) {
			Spawn(g, failWith[int](boom))
			return 42, nil
		}, Settled)
		if r != 42 || !errors.Is(err, boom) {
			t.Errorf("Scope = %v, %v; want 42 and boom", r, err)
		}
	})
}

func TestScopePanics(t *testing.T) {
	t.Run("child", func(t *testing.T) {
		r := recoverFrom(func() {
			Scope(context.Background(), func(ctx context.Context, g *Group) (int, error) {
				Spawn(g, func(context.Context) (int, error) { panic("child bug") })
				return 0, nil
			})
		})
		pe, ok := r.(*PanicError)
		if !ok || pe.Value != "child bug" || pe.Call != "Scope" || pe.Arg != "children[0]" {
			t.Errorf("recovered %v; want the child's PanicError at children[0]", r)
		}
	})
	t.Run("received by the body", func(t *testing.T) {
		r := recoverFrom(func() {
			Scope(context.Background(), func(ctx context.Context, g *Group) (int, error) {
				tk := Spawn(g, func(context.Context) (int, error) { panic("child bug") })
				return tk.Wait(context.Background()) // raises it here
			})
		})
		pe, ok := r.(*PanicError)
		if !ok || pe.Arg != "body" || pe.Others != nil {
			t.Fatalf("recovered %v; want the body's panic alone", r)
		}
		if inner, ok := pe.Value.(*PanicError); !ok || inner.Value != "child bug" {
			t.Errorf("the body's panic holds %v; want the child's", pe.Value)
		}
		if strings.Count(pe.Error(), "child bug") != 1 {
			t.Errorf("the child's panic is told more than once:\n%v", pe)
		}
	})
	t.Run("Goexit", func(t *testing.T) {
		e := endingOf(func() {
			Scope(context.Background(), func(ctx context.Context, g *Group) (int, error) {
				Spawn(g, func(context.Context) (int, error) { runtime.Goexit(); return 0, nil })
				return 0, nil
			})
		})
		if !e.exited {
			t.Errorf("Scope ended %+v; want the Goexit repeated", e)
		}
	})
	t.Run("body Goexit waits for children", func(t *testing.T) {
		var done atomic.Bool
		e := endingOf(func() {
			Scope(context.Background(), func(ctx context.Context, g *Group) (int, error) {
				Spawn(g, func(context.Context) (int, error) { runtime.Gosched(); done.Store(true); return 0, nil })
				runtime.Goexit()
				return 0, nil
			})
		})
		if !e.exited || !done.Load() {
			t.Errorf("Scope ended %+v, child done %v; want Goexit after the child", e, done.Load())
		}
	})
}

func TestSpawnAfterReturn(t *testing.T) {
	var kept *Group
	Scope(context.Background(), func(ctx context.Context, g *Group) (int, error) { kept = g; return 0, nil })
	if msg := catch(func() { Spawn(kept, immediate[int]) }); msg != "task: Spawn: the Scope of g has returned" {
		t.Errorf("Spawn after return: %q", msg)
	}
	if msg := catch(func() { TrySpawn(kept, immediate[int]) }); msg != "task: TrySpawn: the Scope of g has returned" {
		t.Errorf("TrySpawn after return: %q", msg)
	}
	for _, c := range []struct{ got, want string }{
		{catch(func() { Spawn[int](nil, immediate[int]) }), "task: Spawn: g is nil"},
		{catch(func() { Spawn[int](kept, nil) }), "task: Spawn: fn is nil"},
		{catch(func() { Scope[int](context.Background(), nil) }), "task: Scope: body is nil"},
		{catch(func() { kept.SetLimit(0) }), "task: SetLimit: n is 0; want at least 1"},
		{fmt.Sprint(recoverFrom(func() {
			Scope(context.Background(), func(ctx context.Context, g *Group) (int, error) {
				Spawn(g, immediate[int])
				g.SetLimit(2)
				return 0, nil
			})
		}).(*PanicError).Value), "task: SetLimit: called after Spawn"},
	} {
		if c.got != c.want {
			t.Errorf("panic %q; want %q", c.got, c.want)
		}
	}
}

func TestNestedScopes(t *testing.T) {
	boom := errors.New("boom")
	_, err := Scope(context.Background(), func(ctx context.Context, g *Group) (int, error) {
		inner := Spawn(g, func(ctx context.Context) (int, error) {
			return Scope(ctx, func(ctx context.Context, g *Group) (int, error) {
				Spawn(g, failWith[int](boom))
				return 0, nil
			})
		})
		return inner.Wait(ctx)
	})
	if err == nil || err.Error() != "task: Scope: body: task: Scope: children[0]: boom" {
		t.Errorf("err = %v", err)
	}
}

func TestScopeAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	ctx := context.Background()
	scopeAllocs := testing.AllocsPerRun(100, func() {
		Scope(ctx, func(ctx context.Context, g *Group) (int, error) { return 0, nil })
	})
	spawnAllocs := testing.AllocsPerRun(100, func() {
		Scope(ctx, func(ctx context.Context, g *Group) (int, error) {
			for range 10 {
				Spawn(g, immediate[int])
			}
			return 0, nil
		})
	})
	if scopeAllocs != 2 || (spawnAllocs-scopeAllocs)/10 > 2 {
		t.Errorf("Scope: %v allocations; Spawn: %v each; want 2 and at most 2", scopeAllocs, (spawnAllocs-scopeAllocs)/10)
	}
}
