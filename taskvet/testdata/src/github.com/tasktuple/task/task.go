// Package task is a fake of github.com/tasktuple/task for the analyzers'
// tests: the same names and signatures (Run2..Run4 and Await2..Await3 of
// the sixteen arities), no implementation.
package task

import (
	"context"
	"iter"
	"time"
)

type Task[T any] struct{ v T }

func (t *Task[T]) Wait(ctx context.Context) (T, error) { return t.v, nil }
func (t *Task[T]) TryWait() (v T, err error, ok bool)  { return t.v, nil, true }
func (t *Task[T]) Done() <-chan struct{}               { return nil }

type Awaiter interface{ Done() <-chan struct{} }

type Source[T any] struct{ t Task[T] }

func NewSource[T any]() *Source[T]                { return new(Source[T]) }
func (s *Source[T]) Task() *Task[T]               { return &s.t }
func (s *Source[T]) Complete(v T, err error) bool { return true }

type Option uint8

const (
	KeepGoing Option = 1 << iota
	Settled
	FirstError
	BlockAtLimit
	StartAll
)

func Go[T any](ctx context.Context, fn func(context.Context) (T, error)) *Task[T] {
	return new(Task[T])
}
func FromResult[T any](v T) *Task[T]      { return new(Task[T]) }
func FromError[T any](err error) *Task[T] { return new(Task[T]) }

func Await1[T1 any](ctx context.Context, t1 *Task[T1], opts ...Option) (T1, error) {
	return t1.v, nil
}
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

func WhenAll(ctx context.Context, tasks ...Awaiter) error { return nil }
func All[T any](ctx context.Context, tasks []*Task[T], opts ...Option) ([]T, error) {
	return nil, nil
}
func AllSeq[T any](ctx context.Context, tasks iter.Seq[*Task[T]], opts ...Option) ([]T, error) {
	return nil, nil
}
func WhenAny[A Awaiter](ctx context.Context, tasks []A) (int, error) { return 0, nil }
func FirstOK[T any](ctx context.Context, tasks []*Task[T]) (T, int, error) {
	var v T
	return v, 0, nil
}
func RunFirstOK[T any](ctx context.Context, fns ...func(context.Context) (T, error)) (T, int, error) {
	var v T
	return v, 0, nil
}
func Hedge[T any](ctx context.Context, delay time.Duration, fns ...func(context.Context) (T, error)) (T, int, error) {
	var v T
	return v, 0, nil
}
func WhenEach[T any](ctx context.Context, tasks []*Task[T]) iter.Seq2[int, *Task[T]] { return nil }
func Map[In, Out any](ctx context.Context, inputs []In, limit int, fn func(context.Context, In) (Out, error), opts ...Option) ([]Out, error) {
	return nil, nil
}
func MapSeq[In, Out any](ctx context.Context, inputs iter.Seq[In], limit int, fn func(context.Context, In) (Out, error), opts ...Option) iter.Seq2[Out, error] {
	return nil
}
func MapSeqUnordered[In, Out any](ctx context.Context, inputs iter.Seq[In], limit int, fn func(context.Context, In) (Out, error), opts ...Option) iter.Seq2[Out, error] {
	return nil
}

const NoLimit = int(^uint(0) >> 1)

type Group struct{ n int }

func (g *Group) SetLimit(n int)                            {}
func (g *Group) Go(fn func(context.Context) error)         {}
func (g *Group) TryGo(fn func(context.Context) error) bool { return true }
func (g *Group) Wait() error                               { return nil }

func NewGroup(ctx context.Context, opts ...Option) (*Group, context.Context) { return new(Group), ctx }

func ForEach[In any](ctx context.Context, inputs []In, limit int, fn func(context.Context, In) error, opts ...Option) error {
	return nil
}
func ForEachSeq[In any](ctx context.Context, inputs iter.Seq[In], limit int, fn func(context.Context, In) error, opts ...Option) error {
	return nil
}
func Do(ctx context.Context, fns ...func(context.Context) error) error { return nil }

func Named[T any](name string, fn func(context.Context) (T, error)) func(context.Context) (T, error) {
	return fn
}

func Scope[R any](ctx context.Context, body func(context.Context, *Group) (R, error), opts ...Option) (R, error) {
	return body(ctx, new(Group))
}
func Spawn[T any](g *Group, fn func(context.Context) (T, error)) *Task[T] { return new(Task[T]) }
func TrySpawn[T any](g *Group, fn func(context.Context) (T, error)) (*Task[T], bool) {
	return new(Task[T]), true
}
