package task

import (
	"os"

	"github.com/tasktuple/task/taskdump"
)

// With TASKDUMP_ON=1 the suite runs with taskdump's registry on, which
// follows every function through the core's paths for a Tracker (a slot
// per worker, per function): .ci/run runs it so, but for the tests that
// pin allocations, stack sizes or the identity of the functions' contexts,
// which a probe changes by design.
func init() {
	if os.Getenv("TASKDUMP_ON") == "1" {
		taskdump.Enable()
	}
}
