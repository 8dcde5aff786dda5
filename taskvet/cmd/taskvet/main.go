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
// Before it says it is done, taskvet -fix builds each package whose files
// the fixes changed (go build, and go test -c where a test file changed),
// in this build and in the environment of each changed file that this
// build leaves out. A package that does not build after the fixes is put
// back as it was before them, and taskvet prints which files it undid and
// what the go command said (exit status 1); if the package did not build
// before the fixes either, they stay, and taskvet says so.
//
// The analyzers see the files of one build configuration. The files that
// it leaves out (_windows.go on Linux, a test behind //go:build
// integration) and that import errgroup, taskvet analyzes in a run of its
// own on their packages, in an environment whose build takes them: the
// GOOS and GOARCH of the first platform of go tool dist list that does
// (this build's architecture first, then its system), CGO_ENABLED where
// the file needs cgo the other way, and GOFLAGS=-tags= with the tags that
// its //go:build line requires. There is one run per environment, after
// the run of this build, and each begins with a line that names it:
//
//	taskvet: analyzing client_windows.go, engine_windows.go with GOOS=windows
//
// With -fix, the fixes are applied in each environment too (the same
// passes, announced by "taskvet: fixing FILES with ..."), before go.mod is
// tidied, and each then prints what is left. The other files of those
// packages are analyzed again, so their diagnostics may be printed twice.
// The exit status is the worst of all runs: a failure (1, or any status
// but 0 and 3) over diagnostics (3), diagnostics over none (0). With
// -test=false, the test files left out are not looked for. A file that no
// build takes (//go:build ignore, often a generator run with go run
// gen.go) is analyzed, and fixed, as a package of its own, as the go
// command builds a file it is given by name ("taskvet: fixing gen.go as a
// package of its own (no build takes it)"); if it does not build so, or is
// a test file, taskvet prints one line that says it is not analyzed and
// why, which does not change the exit status. Under go vet, which passes
// one package's configuration, taskvet does none of this.
//
// The fixes import github.com/tasktuple/task. In a module that does not
// require it yet, taskvet -fix adds the requirement after applying them,
// as go get would, at taskvet's own version (the two modules are released
// together), the commit of taskvet's pseudo-version, or latest; or, where go.mod
// already replaces the module by a directory, the requirement that go mod
// tidy writes for it); if that fails, it prints the one line to run and
// exits with status 1. Where the library's go line (read from its go.mod as
// the requirement brings it) is newer than the module's, it first prints
// one line that says the go line moves, from what to what, and what that
// turns on. Once no Go file of the module, tests and files of other
// platforms included, imports golang.org/x/sync, it drops that
// requirement from go.mod (or marks it // indirect where a dependency
// still uses it, in any build configuration), as go mod tidy would.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/tasktuple/task/taskvet"
)

// childEnv marks the runs that taskvet starts of itself: they analyze one
// build configuration and start no runs of their own.
const childEnv = "TASKVET_FIX_CHILD"

// maxFixPasses is how many times taskvet -fix applies the fixes at most.
const maxFixPasses = 3

func main() {
	if os.Getenv(childEnv) == "" {
		args := os.Args[1:]
		var envs []environment
		if patterns := packagePatterns(args); len(patterns) > 0 {
			envs = reportIgnored(os.Stderr, patterns, testsFlag(args))
		}
		if rest, ok := fixArgs(args); ok {
			os.Exit(fixThenCheck(args, rest, envs))
		}
		if len(envs) > 0 {
			os.Exit(checkAll(args, envs))
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

// withPatterns returns the flags of args followed by patterns.
func withPatterns(args, patterns []string) []string {
	var flags []string
	for _, a := range args {
		if a == "--" || !strings.HasPrefix(a, "-") {
			break
		}
		flags = append(flags, a)
	}
	return append(flags, patterns...)
}

// testsFlag reports whether args analyze the tests too (-test, true
// unless set to false).
func testsFlag(args []string) bool {
	tests := true
	for _, a := range args {
		if a == "--" || !strings.HasPrefix(a, "-") {
			break
		}
		name, value, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if name == "test" {
			b, err := strconv.ParseBool(value)
			tests = value == "" || err == nil && b
		}
	}
	return tests
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

// runSelf runs taskvet with args as a child, with env added to its
// environment (which includes childEnv), and returns its exit status.
func runSelf(args, env []string) int {
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "taskvet:", err)
		return 1
	}
	cmd := exec.Command(self, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = append(os.Environ(), env...)
	if err := cmd.Run(); err != nil {
		if exit, ok := err.(*exec.ExitError); ok {
			return exit.ExitCode()
		}
		fmt.Fprintln(os.Stderr, "taskvet:", err)
		return 1
	}
	return 0
}

// thisBuild is the environment of the runs of this build's configuration.
var thisBuild = []string{childEnv + "=1"}

// worse returns, of two runs' statuses, the one that says more: a failure
// (any status but 0 and 3) over diagnostics left (3), diagnostics over
// none. A failure is not hidden by the diagnostics of another
// configuration.
func worse(a, b int) int {
	rank := func(code int) int {
		switch code {
		case 0:
			return 0
		case 3:
			return 1
		}
		return 2
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}

// checkAll runs the analysis with args in this build's configuration, then
// in each environment on the packages of its files, and returns the worst
// status.
func checkAll(args []string, envs []environment) int {
	code := runSelf(args, thisBuild)
	for _, e := range envs {
		fmt.Fprintf(os.Stderr, "taskvet: analyzing %s %s\n", e.fileList(), e.how())
		code = worse(code, runSelf(withPatterns(args, e.patterns()), e.environ()))
	}
	return code
}

// fixThenCheck runs taskvet with args, which apply the fixes, then with
// rest, which reports what is left, in this build's configuration and in
// each environment (on the packages of its files), and returns the worst
// status.
func fixThenCheck(args, rest []string, envs []environment) int {
	mod, inModule := findMainModule()
	// fix applies the fixes in one configuration; ok is false when the
	// module could not be made to require the task package, which ends
	// the run. A pass exits with status 1 when it could not apply every
	// fix, as when two fixes edit the same line; the next pass applies
	// what is left. (Status 1 may also be an error, which the next pass
	// repeats.) The fixes import the task package: a module that does not
	// require it yet gets the requirement after each pass, before anything
	// loads the packages again.
	fix := func(args, env []string) (code int, ok bool) {
		for pass := 1; ; pass++ {
			code := runSelf(args, env)
			if inModule && !mod.require() {
				return 1, false
			}
			if code != 1 || pass == maxFixPasses {
				return code, true
			}
		}
	}
	type check struct {
		e    *environment
		args []string
		env  []string
	}
	var checks []check
	status := 0
	root, _ := filepath.Abs(".")
	if inModule {
		root = mod.dir
	}
	before := takeSnapshot(root)
	code, ok := fix(args, thisBuild)
	if !ok {
		return 1
	}
	if code == 0 {
		checks = append(checks, check{nil, rest, thisBuild})
	}
	status = worse(status, code)
	// The other configurations' fixes come before go.mod is tidied: once
	// their files are migrated too, golang.org/x/sync may go.
	for i, e := range envs {
		fmt.Fprintf(os.Stderr, "taskvet: fixing %s %s\n", e.fileList(), e.how())
		code, ok := fix(withPatterns(args, e.patterns()), e.environ())
		if !ok {
			return 1
		}
		if code == 0 {
			checks = append(checks, check{&envs[i], withPatterns(rest, e.patterns()), e.environ()})
		}
		status = worse(status, code)
	}
	// A package that built before the fixes builds after them, or is put
	// back as it was.
	status = worse(status, checkBuilds(os.Stderr, before, envs))
	if inModule {
		mod.tidySync()
	}
	left := false
	for _, c := range checks {
		if c.e != nil {
			fmt.Fprintf(os.Stderr, "taskvet: analyzing %s %s\n", c.e.fileList(), c.e.how())
		}
		code := runSelf(c.args, c.env)
		left = left || code == 3
		status = worse(status, code)
	}
	if left {
		fmt.Fprintln(os.Stderr, "taskvet: -fix applied the fixes it had; the diagnostics above remain and have no fix: change that code by hand")
	}
	return status
}
