package main

import (
	"context"
	"sync"
)

// The floors of Spawn + All: the row written by hand, each child a result
// object of its own (what a task is to Spawn) and a goroutine, a
// WaitGroup, and the values gathered into a new slice, as All returns
// them. result32 is the least a child needs, in two allocations as
// errgroup's; the two others add the third allocation Spawn makes (the
// caller's closure) and the bytes of a task, to show what the bytes a
// child allocates cost apart from the work done.
type (
	result32 struct {
		v   int
		err error
	}
	result96 struct {
		result32
		_ [8]*int
	}
	result144 struct {
		result32
		_ [14]*int
	}
)

// spawnFloor is the floor with 32-byte results, in two allocations a
// child.
func spawnFloor(n int) func(context.Context) {
	in := ints(n)
	return func(ctx context.Context) {
		var wg sync.WaitGroup
		ts := make([]*result32, len(in))
		wg.Add(len(in))
		for i, x := range in {
			t := new(result32)
			ts[i] = t
			go func() {
				defer wg.Done()
				t.v, t.err = ret(ctx, x)
			}()
		}
		wg.Wait()
		out := make([]int, len(ts))
		for i, t := range ts {
			if t.err != nil {
				panic(t.err)
			}
			out[i] = t.v
		}
		sink += len(out)
	}
}

// spawnFloorOf is the floor with larger results, in three allocations a
// child: the result (made by alloc, which returns its result32), the
// caller's closure, the goroutine's (48 bytes, as spawnFloor's). Not
// generic: a go statement in a generic function keeps its dictionary in
// the closure.
func spawnFloorOf(n int, alloc func() *result32) func(context.Context) {
	in := ints(n)
	return func(ctx context.Context) {
		var wg sync.WaitGroup
		ts := make([]*result32, len(in))
		wg.Add(len(in))
		for i, x := range in {
			t := alloc()
			ts[i] = t
			go runFloor(t, &wg, ctx, func(ctx context.Context) (int, error) { return ret(ctx, x) })
		}
		wg.Wait()
		out := make([]int, len(ts))
		for i, t := range ts {
			if t.err != nil {
				panic(t.err)
			}
			out[i] = t.v
		}
		sink += len(out)
	}
}

//go:noinline
func runFloor(r *result32, wg *sync.WaitGroup, ctx context.Context, fn func(context.Context) (int, error)) {
	defer wg.Done()
	r.v, r.err = fn(ctx)
}

// floorRows are the floors as rows of their own against the peer of
// spawn16, and of newgroup1000 and newgroup16, for -paired -floors.
var floorRows = []target{
	{"spawn16-floor32", "floor: 32-byte results, 2 allocations a child", "peer", 0},
	{"spawn16-floor96", "floor: 96-byte results, 3 allocations a child", "peer", 0},
	{"spawn16-floor144", "floor: 144-byte results, 3 allocations a child", "peer", 0},
	{"newgroup16-floor", "floor of NewGroup, 16: a WaitGroup, a goroutine a child", "peer", 0},
	{"newgroup1000-floor", "floor of NewGroup, 1,000", "peer", 0},
	{"newgroup1000-floorfn", "floor of NewGroup, 1,000, each function a value (2 allocations a child)", "peer", 0},
	{"mapseq1000-floor", "floor of MapSeq, 1,000, limit 8: a lazy pull, two channels", "peer", 0},
}

func init() {
	peer := rows["spawn16"].peer
	rows["spawn16-floor32"] = row{task: spawnFloor(16), peer: peer}
	rows["spawn16-floor96"] = row{task: spawnFloorOf(16, func() *result32 { return &new(result96).result32 }), peer: peer}
	rows["spawn16-floor144"] = row{task: spawnFloorOf(16, func() *result32 { return &new(result144).result32 }), peer: peer}
	rows["newgroup1000-floorfn"] = row{task: groupFloorFn(1000), peer: rows["newgroup1000"].peer}
	rows["mapseq1000-floor"] = row{task: mapSeqFloor(1000, 8), peer: rows["mapseq1000"].peer}
	for _, name := range []string{"newgroup16", "newgroup1000"} {
		rows[name+"-floor"] = row{task: rows[name].floor, peer: rows[name].peer}
	}
	for _, name := range []string{"spawn16", "spawn1000"} {
		r := rows[name]
		r.floor = spawnFloor(map[string]int{"spawn16": 16, "spawn1000": 1000}[name])
		rows[name] = r
	}
}
