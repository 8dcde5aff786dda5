package task

// Library bugs that the fault model meets go here: the library contradicts
// a sentence of its documentation. Each gets a constant that names it, a
// minimal reproduction skipped until it is fixed, and what the model does
// for it in simState.asBugs, so that the fault matrix counts the cases that
// meet one and the fuzzer skips them. When it is fixed, its reproduction
// moves to faultfound_test.go as a plain test. None is open.
