// Command rowsprog runs one side of one row of issue 48's table (small
// fan-outs against their peers) a given number of times, for an
// instruction count under callgrind: the count is the same whatever else
// the machine runs, where a time is not. rows.sh runs it twice per row and
// side, at two counts, and prints the difference per operation, so that
// the program's start is not counted.
//
//	go build -o /tmp/rows ./internal/rowsprog
//	GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind /tmp/rows -row newgroup16 -side task -n 1000
//
// With -paired N it times the rows instead, on all of GOMAXPROCS: N
// rounds, each running both sides of each row in turn in this process,
// and prints each row's median ratio, its spread, and the target.
//
//	go run ./internal/rowsprog -paired 20
//
// It uses only the API of package task that the baseline commits have, so
// that it builds against them too.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"sync"
	"time"

	"github.com/tasktuple/task"
	"golang.org/x/sync/errgroup"
)

// A row is one line of the table: the library's side and its peer's, and
// for some the floor (-side floor): what an expert writes by hand.
type row struct {
	task, peer, floor func(ctx context.Context)
}

// sink keeps the results alive.
var sink int

func nop(context.Context, int) error { return nil }

func ret(_ context.Context, in int) (int, error) { return in, nil }

func ints(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

func newGroup(n int) func(context.Context) {
	in := ints(n)
	return func(ctx context.Context) {
		g, _ := task.NewGroup(ctx)
		for _, x := range in {
			g.Go(func(ctx context.Context) error { return nop(ctx, x) })
		}
		if g.Wait() != nil {
			panic("failed")
		}
	}
}

func errgroupCtx(n int) func(context.Context) {
	in := ints(n)
	return func(ctx context.Context) {
		g, ctx := errgroup.WithContext(ctx)
		for _, x := range in {
			g.Go(func() error { return nop(ctx, x) })
		}
		if g.Wait() != nil {
			panic("failed")
		}
	}
}

// floorGroup is NewGroup's loop by hand: one struct, a goroutine per
// input, a WaitGroup; the first error kept under a mutex.
func floorGroup(n int) func(context.Context) {
	in := ints(n)
	return func(ctx context.Context) {
		s := &struct {
			wg  sync.WaitGroup
			mu  sync.Mutex
			err error
		}{}
		s.wg.Add(len(in))
		for _, x := range in {
			go func() {
				defer s.wg.Done()
				if err := nop(ctx, x); err != nil {
					s.mu.Lock()
					if s.err == nil {
						s.err = err
					}
					s.mu.Unlock()
				}
			}()
		}
		s.wg.Wait()
		if s.err != nil {
			panic(s.err)
		}
	}
}

func scopeGo(n int) func(context.Context) {
	in := ints(n)
	return func(ctx context.Context) {
		_, err := task.Scope(ctx, func(ctx context.Context, g *task.Group) (struct{}, error) {
			for _, x := range in {
				g.Go(func(ctx context.Context) error { return nop(ctx, x) })
			}
			return struct{}{}, nil
		})
		if err != nil {
			panic(err)
		}
	}
}

func scopeSpawn(n int) func(context.Context) {
	in := ints(n)
	return func(ctx context.Context) {
		r, err := task.Scope(ctx, func(ctx context.Context, g *task.Group) ([]int, error) {
			ts := make([]*task.Task[int], len(in))
			for i, x := range in {
				ts[i] = task.Spawn(g, func(ctx context.Context) (int, error) { return ret(ctx, x) })
			}
			return task.All(ctx, ts)
		})
		if err != nil {
			panic(err)
		}
		sink += len(r)
	}
}

func errgroupGather(n int) func(context.Context) {
	in := ints(n)
	return func(ctx context.Context) {
		g, ctx := errgroup.WithContext(ctx)
		r := make([]int, len(in))
		for i, x := range in {
			g.Go(func() error {
				v, err := ret(ctx, x)
				r[i] = v
				return err
			})
		}
		if g.Wait() != nil {
			panic("failed")
		}
		sink += len(r)
	}
}

func retOnly(context.Context) (int, error) { return 1, nil }

// floor2 is Run2 by hand: one struct, one goroutine, a WaitGroup.
func floor2(ctx context.Context) {
	s := &struct {
		wg     sync.WaitGroup
		r1, r2 int
		e1, e2 error
	}{}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.r1, s.e1 = retOnly(ctx)
	}()
	s.r2, s.e2 = retOnly(ctx)
	s.wg.Wait()
	if s.e1 != nil || s.e2 != nil {
		panic("failed")
	}
	sink += s.r1 + s.r2
}

func run2(ctx context.Context) {
	v1, v2, err := task.Run2(ctx, retOnly, retOnly)
	if err != nil {
		panic(err)
	}
	sink += v1 + v2
}

func run16(ctx context.Context) {
	f := retOnly
	v1, _, _, _, _, _, _, _, _, _, _, _, _, _, _, v16, err := task.Run16(ctx,
		f, f, f, f, f, f, f, f, f, f, f, f, f, f, f, f)
	if err != nil {
		panic(err)
	}
	sink += v1 + v16
}

// errgroup16 is Run16 by errgroup: 16 Go writing the fields of a struct.
func errgroup16(ctx context.Context) {
	var r struct{ v [16]int }
	g, ctx := errgroup.WithContext(ctx)
	for i := range 16 {
		g.Go(func() error {
			v, err := retOnly(ctx)
			r.v[i] = v
			return err
		})
	}
	if g.Wait() != nil {
		panic("failed")
	}
	sink += r.v[0] + r.v[15]
}

func forEach(n, limit int) func(context.Context) {
	in := ints(n)
	return func(ctx context.Context) {
		if err := task.ForEach(ctx, in, limit, nop); err != nil {
			panic(err)
		}
	}
}

func mapSlice(n, limit int) func(context.Context) {
	in := ints(n)
	return func(ctx context.Context) {
		r, err := task.Map(ctx, in, limit, ret)
		if err != nil {
			panic(err)
		}
		sink += len(r)
	}
}

func mapSeq(n, limit int) func(context.Context) {
	seq := slices.Values(ints(n))
	return func(ctx context.Context) {
		for v, err := range task.MapSeq(ctx, seq, limit, ret) {
			if err != nil {
				panic(err)
			}
			sink += v
		}
	}
}

var rows = map[string]row{
	"newgroup16":   {newGroup(16), errgroupCtx(16), floorGroup(16)},
	"newgroup1000": {newGroup(1000), errgroupCtx(1000), floorGroup(1000)},
	"scopego16":    {scopeGo(16), errgroupCtx(16), floorGroup(16)},
	"spawn16":      {scopeSpawn(16), errgroupGather(16), nil},
	"spawn1000":    {scopeSpawn(1000), errgroupGather(1000), nil},
	"run2":         {run2, floor2, floor2},
	"run16":        {run16, errgroup16, nil},
	"foreach1000":  {forEach(1000, 8), mapSlice(1000, 8), nil},
	"mapseq1000":   {mapSeq(1000, 8), mapSlice(1000, 8), nil},
}

func main() {
	name := flag.String("row", "", "the row (with -paired: the rows, separated by commas; default all)")
	side := flag.String("side", "task", "task, peer, or floor")
	n := flag.Int("n", 1000, "operations")
	mem := flag.Bool("mem", false, "print the allocations and bytes per operation")
	memprofile := flag.String("memprofile", "", "write an allocation profile of every allocation to this file")
	rounds := flag.Int("paired", 0, "time every row instead: this many rounds, each running both sides of each row in turn, and print each row's median ratio against its target")
	d := flag.Duration("d", 100*time.Millisecond, "with -paired: the time of one side in a round")
	floors := flag.Bool("floors", false, "with -paired: add the floors of Spawn + All by hand as rows of their own (see floors.go)")
	flag.Parse()
	if *rounds > 0 {
		if *floors {
			targets = append(targets, floorRows...)
		}
		paired(os.Stdout, *rounds, *d, *name)
		return
	}
	if *memprofile != "" {
		runtime.MemProfileRate = 1
	}
	r, ok := rows[*name]
	if !ok {
		fmt.Fprintln(os.Stderr, "rowsprog: no row", *name)
		os.Exit(2)
	}
	f := r.task
	switch *side {
	case "peer":
		f = r.peer
	case "floor":
		f = r.floor
	}
	if f == nil {
		fmt.Fprintf(os.Stderr, "rowsprog: row %s has no side %s\n", *name, *side)
		os.Exit(2)
	}
	ctx := context.Background()
	f(ctx) // once before counting: the lazy set-ups of the runtime and the library
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range *n {
		f(ctx)
	}
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(sink)
	if *mem {
		fmt.Printf("%s %s: %.1f allocs/op %.0f B/op\n", *name, *side,
			float64(after.Mallocs-before.Mallocs)/float64(*n), float64(after.TotalAlloc-before.TotalAlloc)/float64(*n))
	}
	if *memprofile != "" {
		out, err := os.Create(*memprofile)
		if err == nil {
			err = pprof.Lookup("allocs").WriteTo(out, 0)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "rowsprog:", err)
			os.Exit(1)
		}
		out.Close()
	}
}
