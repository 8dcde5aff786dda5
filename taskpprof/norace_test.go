//go:build !race

package taskpprof_test

const raceEnabled = false
