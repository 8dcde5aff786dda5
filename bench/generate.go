// Package bench measures this library side by side with the libraries Go
// programmers use for the same job. The benchmarks are in the test files;
// cmd/report runs them and writes docs/benchmarks.md.
package bench

//go:generate go run gen.go
