package task

import (
	"context"
	"iter"
)

// ForEach is [Map] for calls that return only an error: it calls fn on
// every element of inputs, with at most limit calls running at once
// ([NoLimit] for no limit), and returns once every call it started has
// returned. The rules are Map's: the first failure cancels the running
// calls and no new call starts, the error is a *[CallError] whose failures
// name the inputs ("task: ForEach: inputs[3]: ..."), [KeepGoing] processes
// every input, and panics and Goexit are passed on. It is errgroup's loop
// of g.Go with every error kept:
//
//	err := task.ForEach(ctx, parts, 8, func(ctx context.Context, p Part) error {
//		return p.Upload(ctx)
//	})
//
// A nil ctx or fn, or a limit less than 1, panics at once.
func ForEach[In any](ctx context.Context, inputs []In, limit int, fn func(context.Context, In) error, opts ...Option) error {
	if ctx == nil {
		nilArg("ForEach", "ctx")
	}
	if fn == nil {
		nilArg("ForEach", "fn")
	}
	checkLimit("ForEach", limit)
	_, err := mapN(kindForEach, ctx, inputs, limit, dropValue(fn), options(opts), nil, 0)
	return err
}

// ForEachSeq is ForEach over a sequence, pulled as calls start, as
// [MapSeqUnordered] pulls it: at most limit calls run at once, and at most
// limit+1 inputs are held. It returns once every call it started has
// returned, with the error of ForEach; if ctx ended the call before the
// sequence did, the error says so (errors.Is(err, ctx.Err()) holds). A
// sequence needs a limit: [NoLimit] panics, as do a nil ctx, inputs or fn,
// and a limit less than 1.
func ForEachSeq[In any](ctx context.Context, inputs iter.Seq[In], limit int, fn func(context.Context, In) error, opts ...Option) error {
	if ctx == nil {
		nilArg("ForEachSeq", "ctx")
	}
	if inputs == nil {
		nilArg("ForEachSeq", "inputs")
	}
	if fn == nil {
		nilArg("ForEachSeq", "fn")
	}
	checkLimit("ForEachSeq", limit)
	if limit == NoLimit {
		panic("task: ForEachSeq: limit is NoLimit; a sequence needs a limit")
	}
	s := newStream(ctx, kindForEachSeq, limit, dropValue(fn), options(opts), false, nil)
	s.run(inputs)
	return s.c.firstError(&s.f, s.err)
}

// dropValue adapts a call that returns only an error.
func dropValue[In any](fn func(context.Context, In) error) func(context.Context, In) (struct{}, error) {
	return func(ctx context.Context, in In) (struct{}, error) { return struct{}{}, fn(ctx, in) }
}
