//go:build go1.25

package task_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"

	"github.com/tasktuple/task"
)

// TestGroupPanicCause is docs/failures.md's section on a panic in a group
// that outlives its call: a child's panic cancels the group's context at
// once, its cause holding the *task.PanicError (the statement that crashes
// at once relies on it), before any Wait; under KeepGoing it cancels
// nothing, and Wait raises the panic.
func TestGroupPanicCause(t *testing.T) {
	for _, tc := range []struct {
		name    string
		opts    []task.Option
		cancels bool
	}{
		{"fail-fast", []task.Option{task.FirstError}, true},
		{"StartAll", []task.Option{task.FirstError, task.StartAll}, true},
		{"KeepGoing", []task.Option{task.KeepGoing, task.FirstError}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				g, ctx := task.NewGroup(context.Background(), tc.opts...)
				var hooked *task.PanicError
				context.AfterFunc(ctx, func() {
					var pe *task.PanicError
					if errors.As(context.Cause(ctx), &pe) {
						hooked = pe
					}
				})
				g.Go(func(context.Context) error { panic("boom") })
				synctest.Wait() // the child has panicked; nobody has called Wait
				if got := ctx.Err() != nil; got != tc.cancels {
					t.Fatalf("context canceled before Wait: %v; want %v", got, tc.cancels)
				}
				if tc.cancels && (hooked == nil || hooked.Value != "boom" || len(hooked.Stack) == 0) {
					t.Fatalf("the cause of the canceled context holds %#v; want the child's *task.PanicError, value boom, with its stack", hooked)
				}
				defer func() {
					pe, ok := recover().(*task.PanicError)
					if !ok || pe.Value != "boom" {
						t.Errorf("Wait raised %v; want the child's *task.PanicError", pe)
					}
				}()
				g.Wait()
			})
		})
	}
}
