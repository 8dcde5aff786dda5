package task

import (
	"context"
)

// ForEach is [Map] for calls that return only an error: it calls fn on
// every element of inputs, with at most limit calls running at once (a
// negative limit: no limit), and returns once every call it started has
// returned. The rules are Map's: the first failure cancels the running
// calls and no new call starts, the error is a *[CallError] whose failures
// name the inputs ("task: ForEach: inputs[3]: ..."), [KeepGoing] processes
// every input, and panics and Goexit are passed on. The options are
// KeepGoing, [FirstError] and [Grace]. It is errgroup's loop of g.Go with
// every error kept:
//
//	err := task.ForEach(ctx, parts, 8, func(ctx context.Context, p Part) error {
//		return p.Upload(ctx)
//	})
//
// A nil ctx or fn, or a limit of 0, panics at once.
func ForEach[In any](ctx context.Context, inputs []In, limit int, fn func(context.Context, In) error, opts ...Option) error {
	if ctx == nil {
		nilArg("ForEach", "ctx")
	}
	if fn == nil {
		nilArg("ForEach", "fn")
	}
	limit = checkLimit("ForEach", limit)
	_, err := mapN(kindForEach, ctx, inputs, limit, dropValue(fn), fn, options("ForEach", famForEach, opts), nil, 0)
	return err
}

// dropValue adapts a call that returns only an error.
func dropValue[In any](fn func(context.Context, In) error) func(context.Context, In) (struct{}, error) {
	return func(ctx context.Context, in In) (struct{}, error) { return struct{}{}, fn(ctx, in) }
}
