package errgroupallow

import "testing"

// allowed are the only imports outside the standard library.
var allowed = []string{"golang.org/x/sync/errgroup"}

func TestAllowed(t *testing.T) { _ = allowed }
