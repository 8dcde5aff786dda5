// Package guard holds BenchmarkGuard, the benchmarks of the speed guard
// (cmd/guard, docs/guard.md): the library's core calls with functions that
// return at once, so that what they measure is the library's own cost.
//
// The guard compiles the same guard_test.go against the baseline commit and
// against the working tree, so the file uses only the standard library and
// the API of package task that existed at commit a1ba8fa (docs/api.txt at
// that commit). Moving the baseline past a1ba8fa is what allows a newer
// name here.
package guard
