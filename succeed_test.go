package task

import (
	"context"
	"testing"
)

// TestSucceedWakesLateWait: a wait that begins while a child succeeds is
// never left behind: the Done channel a wait made, and a link it
// registered, are closed and signaled once the child's task is complete,
// whichever of the wait and Task.succeed came first. Run with -race; it
// fails if succeed skips the lock after a wait marked the task.
func TestSucceedWakesLateWait(t *testing.T) {
	ctx := context.Background()
	for range 2000 {
		var done <-chan struct{}
		l := &link{ch: make(chan int, 1)}
		registered := false
		Scope(ctx, func(ctx context.Context, g *Group) (int, error) {
			tk := Spawn(g, immediate[int])
			done = tk.Done()
			registered = tk.register(l)
			return 0, nil
		})
		select {
		case <-done:
		default:
			t.Fatal("the Done channel of a child's task is not closed once the task completed")
		}
		if registered {
			select {
			case <-l.ch:
			default:
				t.Fatal("a link registered with a child's task got no signal once the task completed")
			}
		}
	}
}
