//go:build race

package taskotel_test

const raceEnabled = true
