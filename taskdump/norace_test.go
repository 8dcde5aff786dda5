//go:build !race

package taskdump_test

const raceEnabled = false
