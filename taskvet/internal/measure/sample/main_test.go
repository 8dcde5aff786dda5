package main

import (
	"go/parser"
	"go/token"
	"testing"
)

func TestFileGroups(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want int
	}{
		{`package p; import "golang.org/x/sync/errgroup"; func f(ctx context.Context) { g, ctx := errgroup.WithContext(ctx); _ = g }`, 1},
		{`package p; import eg "golang.org/x/sync/errgroup"; func f() { var g eg.Group; _ = g }`, 1},
		{`package p; import "golang.org/x/sync/errgroup"; func f() { g := new(errgroup.Group); h := &errgroup.Group{}; _, _ = g, h }`, 2},
		{`package p; import "golang.org/x/sync/errgroup"; type s struct { g *errgroup.Group }`, 1},
		{`package p; import "golang.org/x/sync/errgroup"; var x struct { *errgroup.Group; n int }`, 1}, // an embedded field
		{`package p; import . "golang.org/x/sync/errgroup"; func f(ctx context.Context) { WithContext(ctx) }`, 1},
		{`package p; import "golang.org/x/sync/errgroup"; func f(g *errgroup.Group) { g.Go(nil) }`, 0},
		{`package p; import "example.com/errgroup"; func f(ctx context.Context) { errgroup.WithContext(ctx) }`, 0},
		{`package p; import _ "golang.org/x/sync/errgroup"`, 0},
	} {
		f, err := parser.ParseFile(token.NewFileSet(), "x.go", tc.src, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := fileGroups(f); got != tc.want {
			t.Errorf("%s: %d groups, want %d", tc.src, got, tc.want)
		}
	}
}
