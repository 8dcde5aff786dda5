// Command taskvet reports misuse of github.com/tasktuple/task and offers to
// migrate errgroup fan-outs to it.
//
// Standalone:
//
//	taskvet ./...
//	taskvet -fix ./...          # apply the errgroup migrations
//	taskvet -errgroupfix=false ./...
//
// Under go vet:
//
//	go vet -vettool=$(which taskvet) ./...
//
// With -fix, taskvet applies every fix, then checks the packages again and
// prints what is left: the diagnostics that have no fix (and any fix that
// could not be applied). It exits with status 3 if any is left, as
// without -fix, and 0 only when nothing is. Two fixes that edit the same
// line (a group made again after the wait of another: the first fix
// declares the variables in the statement that the second removes) are
// applied in two passes: when a pass leaves a fix out, taskvet runs the
// fixes again, up to maxFixPasses passes.
//
// The analyzers see the files of one build configuration. For each file
// that the configuration leaves out (//go:build ignore, _windows.go on
// Linux) and that imports errgroup, taskvet prints one line saying that it
// was not analyzed and the command that analyzes it (GOOS=windows taskvet
// ./dir, or taskvet file.go for a file no build takes). The lines do not
// change the exit status.
//
// The fixes import github.com/tasktuple/task. In a module that does not
// require it yet, taskvet -fix adds the requirement after applying them,
// as go get would (go get github.com/tasktuple/task@main; or, where go.mod
// already replaces the module by a directory, the requirement that go mod
// tidy writes for it); if that fails, it prints the one line to run and
// exits with status 1. Where the library's go line (read from its go.mod as
// the requirement brings it) is newer than the module's, it first prints
// one line that says the go line moves, from what to what, and what that
// turns on. Once no package of the module, tests included, imports
// golang.org/x/sync, it drops that requirement from go.mod (or marks it
// // indirect where a dependency still uses it), as go mod tidy would.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"

	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/tasktuple/task/taskvet"
)

// childEnv marks the runs that taskvet -fix starts of itself.
const childEnv = "TASKVET_FIX_CHILD"

// maxFixPasses is how many times taskvet -fix applies the fixes at most.
const maxFixPasses = 3

func main() {
	if os.Getenv(childEnv) == "" {
		if patterns := packagePatterns(os.Args[1:]); len(patterns) > 0 {
			reportIgnored(os.Stderr, patterns)
		}
		if rest, ok := fixArgs(os.Args[1:]); ok {
			os.Exit(fixThenCheck(os.Args[1:], rest))
		}
	}
	multichecker.Main(taskvet.Analyzers...)
}

// packagePatterns returns the package patterns of a standalone run, or
// none under go vet, which passes a .cfg file (or asks -V=full, -flags).
func packagePatterns(args []string) []string {
	var patterns []string
	for i, a := range args {
		switch {
		case a == "--":
			return append(patterns, args[i+1:]...)
		case strings.HasPrefix(a, "-V") || strings.HasPrefix(a, "-flags") || strings.HasSuffix(a, ".cfg"):
			return nil
		case !strings.HasPrefix(a, "-"):
			patterns = append(patterns, a)
		}
	}
	return patterns
}

// fixArgs reports whether args ask for -fix (without -diff, which only
// prints the fixes), and returns them without it.
func fixArgs(args []string) (rest []string, fix bool) {
	for i, a := range args {
		if a == "--" || !strings.HasPrefix(a, "-") {
			rest = append(rest, args[i:]...)
			break
		}
		name, value, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch name {
		case "fix":
			fix = value == "" || value == "true" || value == "1"
			continue
		case "diff":
			if value == "" || value == "true" || value == "1" {
				return nil, false
			}
		}
		rest = append(rest, a)
	}
	return rest, fix
}

// fixThenCheck runs taskvet with args, which apply the fixes, then with
// rest, which reports what is left, and returns the exit status.
func fixThenCheck(args, rest []string) int {
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "taskvet:", err)
		return 1
	}
	run := func(args []string) int {
		cmd := exec.Command(self, args...)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
		cmd.Env = append(os.Environ(), childEnv+"=1")
		if err := cmd.Run(); err != nil {
			if exit, ok := err.(*exec.ExitError); ok {
				return exit.ExitCode()
			}
			fmt.Fprintln(os.Stderr, "taskvet:", err)
			return 1
		}
		return 0
	}
	// A pass exits with status 1 when it could not apply every fix, as
	// when two fixes edit the same line; the next pass applies what is
	// left. (Status 1 may also be an error, which the next pass repeats.)
	// The fixes import the task package: a module that does not require
	// it yet gets the requirement after each pass, before anything loads
	// the packages again.
	mod, inModule := findMainModule()
	for pass := 1; ; pass++ {
		code := run(args)
		if inModule && !mod.require() {
			return 1
		}
		if code == 0 {
			break
		}
		if code != 1 || pass == maxFixPasses {
			return code
		}
	}
	if inModule {
		mod.tidySync()
	}
	code := run(rest)
	if code == 3 {
		fmt.Fprintln(os.Stderr, "taskvet: -fix applied the fixes it had; the diagnostics above remain and have no fix: change that code by hand")
	}
	return code
}
