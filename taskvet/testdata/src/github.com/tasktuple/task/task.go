// Package task is a fake of github.com/tasktuple/task for the analyzers'
// tests: the same names and signatures (Run2..Run4 and Await2..Await3
// here, the other arities in arities.go), no implementation.
package task

import (
	"context"
	"iter"
	"time"
)

type Task[T any] struct{ v T }

func (t *Task[T]) Wait(ctx context.Context) (T, error) { return t.v, nil }
func (t *Task[T]) Done() <-chan struct{}               { return nil }

func Go[T any](ctx context.Context, fn func(context.Context) (T, error)) *Task[T] {
	return new(Task[T])
}
func Promise[T any]() (t *Task[T], complete func(v T, err error) bool) {
	return new(Task[T]), func(T, error) bool { return true }
}

type Option struct{ flags uint8 }

var (
	KeepGoing    = Option{flags: 1}
	Settled      = Option{flags: 2}
	FirstError   = Option{flags: 4}
	BlockAtLimit = Option{flags: 8}
	StartAll     = Option{flags: 16}
)

func Grace(d time.Duration) Option { return Option{flags: 32} }

func Await2[T1, T2 any](ctx context.Context, t1 *Task[T1], t2 *Task[T2], opts ...Option) (T1, T2, error) {
	return t1.v, t2.v, nil
}
func Await3[T1, T2, T3 any](ctx context.Context, t1 *Task[T1], t2 *Task[T2], t3 *Task[T3], opts ...Option) (T1, T2, T3, error) {
	return t1.v, t2.v, t3.v, nil
}

func Run2[T1, T2 any](ctx context.Context, f1 func(context.Context) (T1, error), f2 func(context.Context) (T2, error), opts ...Option) (T1, T2, error) {
	var v1 T1
	var v2 T2
	return v1, v2, nil
}
func Run3[T1, T2, T3 any](ctx context.Context, f1 func(context.Context) (T1, error), f2 func(context.Context) (T2, error), f3 func(context.Context) (T3, error), opts ...Option) (T1, T2, T3, error) {
	var v1 T1
	var v2 T2
	var v3 T3
	return v1, v2, v3, nil
}
func Run4[T1, T2, T3, T4 any](ctx context.Context, f1 func(context.Context) (T1, error), f2 func(context.Context) (T2, error), f3 func(context.Context) (T3, error), f4 func(context.Context) (T4, error), opts ...Option) (T1, T2, T3, T4, error) {
	var v1 T1
	var v2 T2
	var v3 T3
	var v4 T4
	return v1, v2, v3, v4, nil
}

func All[T any](ctx context.Context, tasks []*Task[T], opts ...Option) ([]T, error) {
	return nil, nil
}
func WhenEach[T any](ctx context.Context, tasks []*Task[T]) iter.Seq2[int, *Task[T]] { return nil }

func Hedge[T any](ctx context.Context, delay time.Duration, release func(T), fns ...func(context.Context) (T, error)) (T, int, error) {
	var v T
	return v, 0, nil
}
func Quorum[T any](ctx context.Context, k int, release func(T), fns ...func(context.Context) (T, error)) ([]T, []int, error) {
	return nil, nil, nil
}
func Until[T any](ctx context.Context, enough func(vals []T, at []int) bool, release func(T), fns ...func(context.Context) (T, error)) (vals []T, at []int, left []int, err error) {
	return nil, nil, nil, nil
}

func Map[In, Out any](ctx context.Context, inputs []In, limit int, fn func(context.Context, In) (Out, error), opts ...Option) ([]Out, error) {
	return nil, nil
}
func MapSeq[In, Out any](ctx context.Context, inputs iter.Seq[In], limit int, fn func(context.Context, In) (Out, error), opts ...Option) iter.Seq2[Out, error] {
	return nil
}
func MapSeqUnordered[In, Out any](ctx context.Context, inputs iter.Seq[In], limit int, fn func(context.Context, In) (Out, error), opts ...Option) iter.Seq2[Out, error] {
	return nil
}
func MapWithin[In, Out any](ctx context.Context, budget time.Duration, inputs []In, limit int, fn func(context.Context, In) (Out, error), opts ...Option) (out []Out, left []int, err error) {
	return nil, nil, nil
}
func ForEach[In any](ctx context.Context, inputs []In, limit int, fn func(context.Context, In) error, opts ...Option) error {
	return nil
}
func Do(ctx context.Context, fns ...func(context.Context) error) error { return nil }

type Group struct{ n int }

func (g *Group) SetLimit(n int)                            {}
func (g *Group) Go(fn func(context.Context) error)         {}
func (g *Group) TryGo(fn func(context.Context) error) bool { return true }
func (g *Group) Wait() error                               { return nil }
func (g *Group) Stop()                                     {}

func NewGroup(ctx context.Context, opts ...Option) (*Group, context.Context) { return new(Group), ctx }

func Scope[R any](ctx context.Context, body func(context.Context, *Group) (R, error), opts ...Option) (R, error) {
	return body(ctx, new(Group))
}
func Spawn[T any](g *Group, fn func(context.Context) (T, error)) *Task[T] { return new(Task[T]) }
func TrySpawn[T any](g *Group, fn func(context.Context) (T, error)) (*Task[T], bool) {
	return new(Task[T]), true
}

func Stopping(ctx context.Context) <-chan struct{} { return nil }

func Named[T any](name string, fn func(context.Context) (T, error)) func(context.Context) (T, error) {
	return fn
}
