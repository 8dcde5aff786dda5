package bench

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the run if a test or benchmark leaves a goroutine behind,
// except the one TestGoexitInAFunction leaves on purpose: pond's group Wait,
// blocked forever after a Goexit.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		goleak.IgnoreTopFunction("github.com/alitto/pond/v2/internal/future.(*CompositeFuture[...]).Wait"))
}
