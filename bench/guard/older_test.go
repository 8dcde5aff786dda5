//go:build guard_a1ba8fa

package guard

import (
	"context"
	"testing"
)

// benchNewer is empty where a side of the guard lacks the API of
// group_test.go (cmd/guard builds both sides with the tag guard_a1ba8fa).
func benchNewer(*testing.B, context.Context) {}
