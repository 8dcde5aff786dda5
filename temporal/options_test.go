package wtask

import (
	"fmt"
	"testing"
	"time"

	"github.com/tasktuple/task"
)

// TestOptions: KeepGoing and Settled fold into flags, the zero Option
// changes nothing, and every other option of the core panics.
func TestOptions(t *testing.T) {
	if got := options([]Option{Settled, {}, KeepGoing}); got != keepGoing|settled {
		t.Errorf("options(Settled, {}, KeepGoing) = %b; want both", got)
	}
	for _, o := range []Option{task.FirstError, task.Grace(time.Second), task.BlockAtLimit, task.StartAll} {
		msg := func() (msg string) {
			defer func() { msg = fmt.Sprint(recover()) }()
			options([]Option{o})
			return ""
		}()
		if msg != "wtask: only KeepGoing and Settled apply in a workflow" {
			t.Errorf("options(%v) panics %q", o, msg)
		}
	}
}
