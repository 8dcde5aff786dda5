package task

import (
	"context"
	"strconv"
	"sync/atomic"
)

// Do calls every function of fns concurrently and returns once all have
// returned: RunN for functions that return only an error, errgroup's fixed
// fan-out of g.Go. The rules are RunN's: the functions get a child of ctx
// that is canceled as soon as one fails, the error is a *[CallError] whose
// failures name the functions ("task: Do: fns[1]: ..."), and panics and
// Goexit are passed on. The last function runs on the caller's goroutine.
// Do takes no options; for them ([KeepGoing], [Grace]), use a group made
// by [NewGroup].
//
// With no functions Do returns nil. A nil ctx or function panics before
// anything starts.
func Do(ctx context.Context, fns ...func(context.Context) error) error {
	if ctx == nil {
		nilArg("Do", "ctx")
	}
	for i, fn := range fns {
		if fn == nil {
			nilArg("Do", "fns["+strconv.Itoa(i)+"]")
		}
	}
	if len(fns) == 0 {
		return nil
	}
	d := &doCall{fns: fns}
	d.outs = make([]outcome, len(fns))
	d.initKind(ctx, 0, kindDo, d, nil)
	n := len(fns)
	d.wg.Add(n - 1)
	startN(d, n-1)
	runLast(&d.call, d.outs, func(ctx context.Context) (struct{}, error) { return struct{}{}, fns[n-1](ctx) }, new(struct{}))
	return d.wait(d.outs)
}

// doCall is the state of one Do call.
type doCall struct {
	call
	fns  []func(context.Context) error
	outs []outcome // outs[i] written only by function i, read after wg.Wait

	claimed atomic.Int32 // the functions the goroutines of startN have claimed
}

// goroutine runs the next function no goroutine has claimed, in a
// goroutine that startN started.
func (d *doCall) goroutine(int) {
	i := int(d.claimed.Add(1)) - 1
	defer d.finish(i, &d.outs[i])
	invokeErr(d.ctx(), site{&d.call, i}, d.fns[i], &d.outs[i])
}
