//go:build race

package taskdump_test

// raceEnabled: the race detector drops some of sync.Pool's items, so
// allocation counts vary under it.
const raceEnabled = true
