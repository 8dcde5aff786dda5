package task

import (
	"context"
)

// A watch is a set of links, one per task, sharing one channel. The
// tasks keep pointers to the links, not to the watch: a watch is a value
// in the frame of its call, and its links and channel are its only
// allocations.
type watch struct {
	links []link
	ch    chan int
	added int // links[:added] may be registered: stop looks at no others
}

func newWatch(n, capacity int) watch {
	ch := make(chan int, capacity)
	links := make([]link, n)
	for i := range links {
		links[i] = link{ch: ch, i: i}
	}
	return watch{links: links, ch: ch}
}

// add registers link i with c and reports whether c was still pending.
func (w *watch) add(i int, c *core) bool {
	w.added = i + 1
	return c.register(&w.links[i])
}

// next returns the position of the next task to complete, or the
// context's error.
func (w *watch) next(ctx context.Context) (int, error) {
	d := ctx.Done()
	if d == nil {
		return <-w.ch, nil
	}
	select {
	case i := <-w.ch:
		return i, nil
	case <-ctx.Done():
		return -1, contextError(ctx)
	}
}

// stop unregisters every link still registered.
func (w *watch) stop(at func(int) *core) {
	for i := range w.added {
		at(i).unregister(&w.links[i])
	}
}
