// Package guard holds BenchmarkGuard, the benchmarks of the speed guard
// (cmd/guard, docs/guard.md): the library's core calls with functions that
// return at once, so that what they measure is the library's own cost.
//
// The guard compiles the same guard_test.go against the baseline commit and
// against the working tree, so the file uses only the standard library and
// the API of package task that existed at commit a1ba8fa (docs/api.txt at
// that commit), the oldest commit the guard is run against. group_test.go
// needs NewGroup and Group.Wait: the guard builds it only when both sides
// declare NewGroup, and otherwise builds both with the tag guard_a1ba8fa,
// which puts older_test.go's empty benchNewer in its place.
package guard
