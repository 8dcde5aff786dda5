// Package tracetest checks, by parsing a recorded execution trace with
// golang.org/x/exp/trace, what package tasktrace records. It is a module
// of its own so that the core module depends on nothing.
package tracetest
