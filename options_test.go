package task

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"maps"
	"math"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"text/tabwriter"
	"time"
)

// allOptions are the options, by the name the table in docs/design.md
// gives them.
var allOptions = map[string]Option{
	"KeepGoing":    KeepGoing,
	"Settled":      Settled,
	"FirstError":   FirstError,
	"Grace":        Grace(time.Minute),
	"BlockAtLimit": BlockAtLimit,
	"StartAll":     StartAll,
}

// optionCalls make each call that takes options, as the table in
// docs/design.md names it, with opts.
var optionCalls = map[string]func(ctx context.Context, opts ...Option){
	"RunN": func(ctx context.Context, opts ...Option) { Run2(ctx, okInt, okInt, opts...) },
	"AwaitN": func(ctx context.Context, opts ...Option) {
		t := Go(ctx, okInt)
		t.Wait(ctx)
		Await2(ctx, t, t, opts...) // completed: the fast path checks them too
	},
	"All": func(ctx context.Context, opts ...Option) { All(ctx, []*Task[int]{Go(ctx, okInt)}, opts...) },
	"Map": func(ctx context.Context, opts ...Option) { Map(ctx, []int{1, 2}, 1, retInt, opts...) },
	"ForEach": func(ctx context.Context, opts ...Option) {
		ForEach(ctx, []int{1, 2}, 1, func(context.Context, int) error { return nil }, opts...)
	},
	"MapWithin": func(ctx context.Context, opts ...Option) { MapWithin(ctx, time.Hour, []int{1, 2}, 1, retInt, opts...) },
	"MapSeq": func(ctx context.Context, opts ...Option) {
		seq := MapSeq(ctx, slices.Values([]int{1, 2}), 1, retInt, opts...) // checked before the range
		for range seq {
		}
	},
	"MapSeqUnordered": func(ctx context.Context, opts ...Option) {
		seq := MapSeqUnordered(ctx, slices.Values([]int{1, 2}), 1, retInt, opts...)
		for range seq {
		}
	},
	"NewGroup": func(ctx context.Context, opts ...Option) {
		g, _ := NewGroup(ctx, opts...)
		g.Go(func(context.Context) error { return nil })
		g.Wait()
	},
	"Scope": func(ctx context.Context, opts ...Option) {
		Scope(ctx, func(ctx context.Context, g *Group) (int, error) {
			g.Go(func(context.Context) error { return nil })
			return 0, nil
		}, opts...)
	},
}

func retInt(_ context.Context, x int) (int, error) { return x, nil }

// codeTable is optionTable by call: the names of the options each uses.
func codeTable() map[string][]string {
	m := map[string][]string{}
	for _, row := range optionTable {
		if row.calls == "" {
			continue
		}
		var uses []string
		for _, x := range optionNames {
			if row.takes&x.flag != 0 {
				uses = append(uses, x.name)
			}
		}
		for _, call := range strings.Split(row.calls, ", ") {
			m[call] = uses
		}
	}
	return m
}

// docTable parses the table of docs/design.md between its optiontable
// markers: the names of the options each call uses.
func docTable(t *testing.T) map[string][]string {
	b, err := os.ReadFile("docs/design.md")
	if err != nil {
		t.Fatal(err)
	}
	_, s, ok := strings.Cut(string(b), "<!-- optiontable -->")
	s, _, ok2 := strings.Cut(s, "<!-- /optiontable -->")
	if !ok || !ok2 {
		t.Fatal("docs/design.md: no <!-- optiontable --> ... <!-- /optiontable -->")
	}
	var header []string
	m := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(s), "\n") {
		cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		switch {
		case header == nil:
			header = cells
			continue
		case strings.HasPrefix(cells[0], "---"):
			continue
		}
		var uses []string
		for _, x := range optionNames { // in the code's order
			i := slices.Index(header, x.name)
			if i < 0 {
				t.Fatalf("docs/design.md: the option table has no column %s", x.name)
			}
			if i < len(cells) && cells[i] == "✓" {
				uses = append(uses, x.name)
			}
		}
		for _, call := range strings.Split(cells[0], ", ") {
			m[call] = uses
		}
	}
	if len(header) != len(optionNames)+1 {
		t.Fatalf("docs/design.md: option table header %q; want a column per option", header)
	}
	return m
}

// TestOptionTableDocs: the table in the code is the table in the docs,
// both ways.
func TestOptionTableDocs(t *testing.T) {
	code, doc := codeTable(), docTable(t)
	for call, uses := range doc {
		if got, ok := code[call]; !ok || !slices.Equal(got, uses) {
			t.Errorf("%s: optionTable says %v (listed: %v); docs/design.md says %v", call, got, ok, uses)
		}
	}
	for call := range code {
		if _, ok := doc[call]; !ok {
			t.Errorf("%s: in optionTable, not in docs/design.md", call)
		}
	}
	if got, want := slices.Sorted(maps.Keys(code)), slices.Sorted(maps.Keys(optionCalls)); !slices.Equal(got, want) {
		t.Errorf("optionTable's calls %v; the test makes %v", got, want)
	}
}

// TestOptionPairs: every call accepts the options it uses, and panics at
// once, in the caller's goroutine, on every other, naming the call and
// the option.
func TestOptionPairs(t *testing.T) {
	code := codeTable()
	for call, uses := range code {
		run := optionCalls[call]
		name := call
		switch call {
		case "RunN":
			name = "Run2"
		case "AwaitN":
			name = "Await2"
		}
		for opt, o := range allOptions {
			ctx := t.Context()
			got := catch(func() { run(ctx, o) })
			if slices.Contains(uses, opt) {
				if got != "" {
					t.Errorf("%s with %s panics %q; want it accepted", call, opt, got)
				}
				continue
			}
			if want := "task: " + name + ": " + opt + " does not apply to " + name; got != want {
				t.Errorf("%s with %s panics %q; want %q", call, opt, got, want)
			}
		}
		if got := catch(func() { run(t.Context(), Option{}) }); got != "" {
			t.Errorf("%s with the zero Option panics %q; want it accepted", call, got)
		}
	}
}

// TestOptionBeforeStart: a call given an option it does not use starts
// nothing.
func TestOptionBeforeStart(t *testing.T) {
	called := false
	fn := func(context.Context, int) (int, error) { called = true; return 0, nil }
	msg := catch(func() { Map(t.Context(), []int{1}, 1, fn, KeepGoing, BlockAtLimit) })
	if msg != "task: Map: BlockAtLimit does not apply to Map" || called {
		t.Errorf("Map with BlockAtLimit panics %q, called %v; want a panic before any call", msg, called)
	}
	// A stream checks its options when it is made, not when it is ranged
	// over.
	msg = catch(func() { MapSeq(t.Context(), slices.Values([]int{1}), 1, fn, Settled) })
	if msg != "task: MapSeq: Settled does not apply to MapSeq" || called {
		t.Errorf("MapSeq with Settled panics %q, called %v; want a panic before the range", msg, called)
	}
}

// TestStartAllKeepGoing: StartAll with KeepGoing, which starts every child
// already, panics, in either order.
func TestStartAllKeepGoing(t *testing.T) {
	for _, opts := range [][]Option{{StartAll, KeepGoing}, {KeepGoing, Grace(time.Second), StartAll}} {
		for call, run := range map[string]func(){
			"NewGroup": func() { NewGroup(t.Context(), opts...) },
			"Scope": func() {
				Scope(t.Context(), func(context.Context, *Group) (int, error) { return 0, nil }, opts...)
			},
		} {
			want := "task: " + call + ": StartAll does not apply with KeepGoing, which starts every child"
			if got := catch(run); got != want {
				t.Errorf("%s(%v) panics %q; want %q", call, opts, got, want)
			}
		}
	}
}

// TestNegativeLimit: a negative limit sets none, as errgroup's
// SetLimit(-1); so does math.MaxInt, the old NoLimit. Every input (child)
// is started at once: each waits for all of them.
func TestNegativeLimit(t *testing.T) {
	const n = 6
	for _, limit := range []int{-1, -100, math.MaxInt} {
		barrier := func() func(context.Context, int) (int, error) {
			var wg sync.WaitGroup
			wg.Add(n)
			return func(context.Context, int) (int, error) { wg.Done(); wg.Wait(); return 1, nil }
		}
		in := make([]int, n)
		if _, err := Map(t.Context(), in, limit, barrier()); err != nil {
			t.Errorf("Map, limit %d: %v", limit, err)
		}
		b := barrier()
		if err := ForEach(t.Context(), in, limit, func(ctx context.Context, x int) error { _, err := b(ctx, x); return err }); err != nil {
			t.Errorf("ForEach, limit %d: %v", limit, err)
		}
		if out, left, err := MapWithin(t.Context(), time.Hour, in, limit, barrier()); err != nil || len(left) > 0 || out[n-1] != 1 {
			t.Errorf("MapWithin, limit %d: %v, %v, %v", limit, out, left, err)
		}
		b = barrier()
		_, err := Scope(t.Context(), func(ctx context.Context, g *Group) (int, error) {
			g.SetLimit(limit)
			for i := range n {
				g.Go(func(ctx context.Context) error { _, err := b(ctx, i); return err })
			}
			return 0, nil
		}, BlockAtLimit) // with a limit, the spawner would block
		if err != nil {
			t.Errorf("Scope with SetLimit(%d): %v", limit, err)
		}
	}
}

// TestLimitPanics: a limit of 0 panics, and so does a sequence without a
// limit.
func TestLimitPanics(t *testing.T) {
	ctx := t.Context()
	for _, tc := range []struct {
		f    func()
		want string
	}{
		{func() { Map(ctx, []int{1}, 0, retInt) }, "task: Map: limit is 0; want at least 1, or a negative limit for none"},
		{func() { ForEach(ctx, []int{1}, 0, func(context.Context, int) error { return nil }) }, "task: ForEach: limit is 0"},
		{func() { MapWithin(ctx, time.Hour, []int{1}, 0, retInt) }, "task: MapWithin: limit is 0"},
		{func() { MapSeq(ctx, slices.Values([]int{1}), -1, retInt) }, "task: MapSeq: limit is -1; a sequence needs a limit"},
		{func() { MapSeqUnordered(ctx, slices.Values([]int{1}), 0, retInt) }, "task: MapSeqUnordered: limit is 0"},
		{func() { g, _ := NewGroup(ctx); g.SetLimit(0) }, "task: SetLimit: n is 0"},
	} {
		if got := catch(tc.f); !strings.HasPrefix(got, tc.want) {
			t.Errorf("panic %q; want %q", got, tc.want)
		}
	}
}

var updateOptions = flag.Bool("update-options", false, "TestOptionTableGoDoc: write the table of Option's doc")

// optionTableText renders optionTable as the table of Option's doc: a
// header of the options, a row per family, one call per row.
func optionTableText() string {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 0, 1, ' ', 0)
	fmt.Fprint(w, "call")
	for _, x := range optionNames {
		fmt.Fprint(w, "\t", x.name)
	}
	fmt.Fprintln(w)
	for _, row := range optionTable {
		fmt.Fprint(w, row.calls)
		for _, x := range optionNames {
			mark := ""
			if row.takes&x.flag != 0 {
				mark = "✓"
			}
			fmt.Fprint(w, "\t", mark)
		}
		fmt.Fprintln(w)
	}
	w.Flush()
	var out strings.Builder
	for line := range strings.Lines(b.String()) {
		out.WriteString(strings.TrimRight(line, " \n") + "\n")
	}
	return out.String()
}

// TestOptionTableGoDoc: Option's doc shows optionTable, as
// optionTableText renders it; with -update-options, the test writes it
// there.
func TestOptionTableGoDoc(t *testing.T) {
	b, err := os.ReadFile("options.go")
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for line := range strings.Lines(optionTableText()) {
		want.WriteString("//\t" + line)
	}
	const before, after = "// error. Which call takes which option:\n//\n", "//\n// A call given an option it does not take panics"
	head, rest, ok := strings.Cut(string(b), before)
	got, tail, ok2 := strings.Cut(rest, after)
	if !ok || !ok2 {
		t.Fatalf("options.go: Option's doc has no table between %q and %q", before, after)
	}
	if got == want.String() {
		return
	}
	if *updateOptions {
		if err := os.WriteFile("options.go", []byte(head+before+want.String()+after+tail), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("Option's doc shows the table\n%s\noptionTable is\n%s(go test -run TestOptionTableGoDoc -args -update-options writes it)", got, want.String())
}

// TestOptionString: an option prints as it is written at the call site,
// with %v and in a subtest's name.
func TestOptionString(t *testing.T) {
	for want, o := range allOptions {
		if want == "Grace" {
			want = "Grace(1m0s)"
		}
		if got := fmt.Sprintf("%v", o); got != want {
			t.Errorf("%%v of %s = %q", want, got)
		}
		t.Run(fmt.Sprint(o), func(t *testing.T) {
			if got := t.Name(); got != "TestOptionString/"+want {
				t.Errorf("subtest of %s named %q", want, got)
			}
		})
	}
	for o, want := range map[Option]string{Grace(2 * time.Second): "Grace(2s)", Grace(1500 * time.Millisecond): "Grace(1.5s)", {}: "Option{}"} {
		if got := fmt.Sprint(o); got != want {
			t.Errorf("fmt.Sprint(%s) = %q", want, got)
		}
	}
	if got := fmt.Sprint([]Option{KeepGoing, Grace(time.Second)}); got != "[KeepGoing Grace(1s)]" {
		t.Errorf("a list of options prints %q", got)
	}
}

// TestKeepGoingGroupContext: with KeepGoing, a group's children get the
// group's context, which no failure cancels and Wait does; a Scope's, the
// caller's ctx itself.
func TestKeepGoingGroupContext(t *testing.T) {
	boom := errors.New("boom")
	g, gctx := NewGroup(t.Context(), KeepGoing)
	failed := make(chan struct{})
	g.Go(func(context.Context) error { defer close(failed); return boom })
	g.Go(func(ctx context.Context) error {
		<-failed
		if ctx.Err() != nil {
			t.Errorf("NewGroup, KeepGoing: a child's ctx is %v after a sibling failed; want live", ctx.Err())
		}
		return nil
	})
	if err := g.Wait(); !errors.Is(err, boom) {
		t.Errorf("NewGroup, KeepGoing: Wait = %v; want boom", err)
	}
	if gctx.Err() == nil {
		t.Error("NewGroup, KeepGoing: the group's ctx is live after Wait; want it canceled")
	}

	// A Scope's children get the caller's ctx itself, as RunN's functions.
	caller, cancel := context.WithCancel(t.Context())
	defer cancel()
	var child context.Context
	_, err := Scope(caller, func(ctx context.Context, g *Group) (int, error) {
		failed := make(chan struct{})
		g.Go(func(context.Context) error { defer close(failed); return boom })
		g.Go(func(ctx context.Context) error {
			<-failed
			child = ctx
			return nil
		})
		return 0, nil
	}, KeepGoing)
	if !errors.Is(err, boom) {
		t.Errorf("Scope, KeepGoing: err = %v; want boom", err)
	}
	if child.Err() != nil {
		t.Errorf("Scope, KeepGoing: a child's ctx is %v after the Scope returned; want the caller's, live", child.Err())
	}
	cancel()
	if child.Err() == nil {
		t.Error("Scope, KeepGoing: a child's ctx is live after the caller's was canceled")
	}
}
