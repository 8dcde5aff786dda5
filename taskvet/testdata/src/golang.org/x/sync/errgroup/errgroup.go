// Package errgroup is a fake of golang.org/x/sync/errgroup for the
// analyzers' tests: the same API, no implementation.
package errgroup

import "context"

type Group struct{ n int }

func WithContext(ctx context.Context) (*Group, context.Context) { return new(Group), ctx }
func (g *Group) Wait() error                                    { return nil }
func (g *Group) Go(f func() error)                              {}
func (g *Group) TryGo(f func() error) bool                      { return true }
func (g *Group) SetLimit(n int)                                 {}
