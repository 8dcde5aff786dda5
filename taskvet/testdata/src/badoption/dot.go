package badoption

import (
	"context"

	. "github.com/tasktuple/task"
)

func dot(ctx context.Context, in []int) {
	ForEach(ctx, in, 8, check, Settled) // want `^task: ForEach: Settled does not apply to ForEach$`
	Map(ctx, in, 1, double, Settled)
	Settled := Option{} // a variable of this function, not task.Settled
	ForEach(ctx, in, 8, check, Settled)
}
