// Command measure runs taskvet -fix on real modules from the module proxy
// and checks that the migrated code builds and passes its tests.
//
// For each module@version (from the command line, from the file -list
// names, or modules.txt beside this file), it copies the module from the
// module cache (go mod download) into a work directory, points
// github.com/tasktuple/task at a local checkout of the library by a
// replace (with -rev, a git archive of that revision), builds it, counts
// the errgroup groups of the production code (the files of every
// platform), runs taskvet -test=false -fix (the tests stay as they are:
// they are the oracle; taskvet adds the requirement of the library
// itself, and the first build after it may move go.mod's go line, which
// the row says), counts the groups left and lists taskvet's diagnostics on
// the fixed code (the reasons of what is left), builds the module again,
// and runs the tests of every changed package after the fix and, on the
// same packages, before it (the module as it was, go line included), each
// time also with -race (-race=false to skip), one package at a time (go
// test -p 1). A test that passes before and fails after is a bug of the
// fix. A module that does not build before the fix is measured all the
// same, and its row says so.
//
// taskvet analyzes the files that this build leaves out (engine_windows.go
// on Linux) in a run of their own, with the GOOS, GOARCH or tags that take
// them, and says so ("taskvet: analyzing FILES with GOOS=windows"). Where
// the fix changed a package of such files, it is built in that environment
// too (go build, and if that fails, the same build before the fix), which
// the "build after" column adds ("ok; GOOS=windows: ok"). The tests and go
// vet run in this build only: a package whose changed files it leaves out
// all is built, not tested.
//
//	go run ./internal/measure -rev HEAD -out /tmp/measure            # from taskvet/
//	go run ./internal/measure -core .. -out /tmp/measure github.com/google/ko@v0.19.1
//	go run ./internal/measure -rev main -taskvet-rev vet -list internal/measure/sample.txt -out /work/measure-out/vet
//
// taskvet is built from the module that holds this program, or with
// -taskvet-rev from a git archive of that revision of its repository (an
// analyzer on another branch, without touching that branch's worktree).
// While the file that MEASURE_PAUSE_FILE names exists, it waits before
// each build and test run (the machine is shared). With -until, it stops
// at that time: the step running is ended and the rows say what was not
// finished.
//
// With -before-cache DIR, each package's test runs before the fix are kept
// in DIR and taken from there by a later run on the same module (the
// module as published, the same toolchain and skip=: only the set of
// changed packages depends on taskvet); the row's result.json names the
// runs so taken. To fill it, the packages that hold a group are run before
// the fix too.
//
// It prints a Markdown table, one row per module, and leaves in -out/NAME
// the fix's diff (fix.diff), the logs of every step and result.json (the
// row's data; -table prints the table again from those files), and
// deletes the module's copy (-keep keeps it).
package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

//go:embed modules.txt
var defaultModules string

var (
	coreFlag    = flag.String("core", "", "the directory of github.com/tasktuple/task to migrate to (default: the repository that holds this program)")
	revFlag     = flag.String("rev", "", "migrate to this git revision of -core's repository (a git archive of it in -out/core) rather than its working tree")
	taskvetRev  = flag.String("taskvet-rev", "", "build taskvet from this git revision of the repository that holds this program (a git archive in -out/taskvet-src) rather than from this module")
	listFlag    = flag.String("list", "", "read the modules from this file (one module@version [skip=REGEXP] a line, # comments) rather than modules.txt")
	outFlag     = flag.String("out", "", "the work directory (default: a new temporary directory)")
	timeoutFlag = flag.Duration("timeout", 10*time.Minute, "the go test -timeout of each run")
	raceFlag    = flag.Bool("race", true, "run the tests again with -race, after the fix and before it")
	testsFlag   = flag.Bool("tests", true, "run the tests (and go vet) of the changed packages; with -tests=false, only build, fix, build again and count")
	keepFlag    = flag.Bool("keep", false, "keep each module's copy (-out/NAME/src) after measuring it")
	untilFlag   = flag.String("until", "", "stop at this time (RFC 3339, or HH:MM in UTC today): the step running is ended, and the modules not finished are reported as such")
	cacheFlag   = flag.String("before-cache", "", "keep the test runs before the fix in this directory, and take them from it when there (see measure)")
	scopeFlag   = flag.String("scope", "module", "what to build and analyze: module (./...), or errgroup (the packages whose files import errgroup, the only ones the fix can change: the machine is shared)")
	tableFlag   = flag.Bool("table", false, "measure nothing: print the table from the result.json files in -out, in the order of the modules")
)

// ctx ends at -until.
var ctx = context.Background()

func main() {
	flag.Parse()
	mods := flag.Args()
	if len(mods) == 0 {
		text := defaultModules
		if *listFlag != "" {
			b, err := os.ReadFile(*listFlag)
			check(err)
			text = string(b)
		}
		for line := range strings.Lines(text) {
			if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
				mods = append(mods, line)
			}
		}
	}
	if *tableFlag {
		if *outFlag == "" {
			fatalf("-table needs -out")
		}
		printHeader()
		for _, mod := range mods {
			var r result
			b, err := os.ReadFile(filepath.Join(*outFlag, dirName(strings.Fields(mod)[0]), "result.json"))
			if err != nil || json.Unmarshal(b, &r) != nil {
				path, version, _ := strings.Cut(strings.Fields(mod)[0], "@")
				r = result{Path: path, Version: version, Unfinished: "not measured"}
			}
			fmt.Println(r.row())
		}
		return
	}
	if *untilFlag != "" {
		t, err := time.Parse(time.RFC3339, *untilFlag)
		if err != nil {
			hm, err2 := time.Parse("15:04", *untilFlag)
			if err2 != nil {
				fatalf("-until %s: neither RFC 3339 nor HH:MM", *untilFlag)
			}
			now := time.Now().UTC()
			t = time.Date(now.Year(), now.Month(), now.Day(), hm.Hour(), hm.Minute(), 0, 0, time.UTC)
		}
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, t)
		defer cancel()
	}

	core := *coreFlag
	if core == "" {
		core = filepath.Join("..", "..", "..")
	}
	core, err := filepath.Abs(core)
	check(err)
	if _, err := os.Stat(filepath.Join(core, "go.mod")); err != nil {
		fatalf("-core %s: no go.mod: %v", core, err)
	}
	out := *outFlag
	if out == "" {
		out, err = os.MkdirTemp("", "taskvet-measure-")
		check(err)
	}
	out, err = filepath.Abs(out)
	check(err)
	check(os.MkdirAll(out, 0o755))
	if *revFlag != "" {
		// The library as committed, not as the working tree has it now.
		hash := archive(core, *revFlag, filepath.Join(out, "core"), filepath.Join(out, "core.tar"))
		fmt.Fprintf(os.Stderr, "measure: library at %s (%s)\n", *revFlag, hash)
		core = filepath.Join(out, "core")
	}

	// taskvet itself, from the module that holds this program, or from a
	// revision of its repository.
	taskvet := filepath.Join(out, "taskvet")
	taskvetSrc := filepath.Join("..", "..")
	if *taskvetRev != "" {
		dir := filepath.Join(out, "taskvet-src")
		hash := archive(".", *taskvetRev, dir, filepath.Join(out, "taskvet-src.tar"))
		fmt.Fprintf(os.Stderr, "measure: taskvet at %s (%s)\n", *taskvetRev, hash)
		taskvetSrc = filepath.Join(dir, "taskvet")
	}
	run(taskvetSrc, []string{"GOWORK=off"}, "go", "build", "-o", taskvet, "./cmd/taskvet")

	printHeader()
	for _, mod := range mods {
		var r *result
		if ctx.Err() != nil {
			path, version, _ := strings.Cut(strings.Fields(mod)[0], "@")
			r = &result{Path: path, Version: version, Unfinished: "not started before -until"}
		} else {
			r = measure(mod, core, out, taskvet)
		}
		fmt.Println(r.row())
	}
	fmt.Fprintf(os.Stderr, "measure: logs and diffs in %s\n", out)
}

// archive extracts the tree of revision rev of the git repository that
// holds dir into to, and returns the commit's hash.
func archive(dir, rev, to, tar string) string {
	hash, err := runStdout(dir, nil, "git", "rev-parse", "--verify", rev+"^{commit}")
	if err != nil {
		fatalf("%s: not a commit of the repository of %s", rev, dir)
	}
	h := strings.TrimSpace(string(hash))
	check(os.RemoveAll(to))
	check(os.MkdirAll(to, 0o755))
	top, err := runStdout(dir, nil, "git", "rev-parse", "--show-toplevel")
	check(err)
	run(strings.TrimSpace(string(top)), nil, "git", "archive", "-o", tar, h)
	run(to, nil, "tar", "-xf", tar)
	return h
}

func printHeader() {
	fmt.Println("| module | version | errgroup sites (production) | migrated | left, with taskvet's reasons | packages changed | build before | build after | go line | tests before (pass/fail) | tests after (pass/fail) | -race before (pass/fail) | -race after (pass/fail) | regressions |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
}

// A result is the measurement of one module.
type result struct {
	Path, Version   string
	Sites           int
	SitePos         []string     // file:line of each site before the fix
	LeftPos         []string     // and after it
	Migrated, Nofix int          // groups removed; diagnostics without a fix before it
	Left            []diagnostic // errgroupfix's diagnostics on the fixed code
	Others          []diagnostic // the other analyzers' on the fixed code
	Changed         []string     // packages
	Untested        []string     // changed packages whose changed files this build leaves out
	BuildBefore     string
	Build           string
	GoBefore        string // go.mod's go line before the fix (as published)
	GoAfter         string // and after the fix and a build
	PassBefore      int
	PassAfter       int
	FailAfter       []string
	FailBefore      []string
	RacePassBefore  int
	RacePass        int
	RaceFailAfter   []string
	RaceFailBefore  []string
	RaceRun         bool
	BeforeCached    []string // runs before the fix taken from -before-cache
	TestsRun        bool
	Regressions     []string
	Err             string
	Notes           []string
	Unfinished      string
	Seconds         int
}

// A diagnostic is one of taskvet -json's.
type diagnostic struct {
	Analyzer, Posn, Message string
	Fix                     bool
}

func (r *result) row() string {
	if r.Err != "" || r.Unfinished != "" {
		msg := r.Err
		if r.Unfinished != "" {
			msg = "not finished: " + r.Unfinished
		}
		return fmt.Sprintf("| %s | %s | %d | | | | %s | %s | %s | | | | | %s |", r.Path, r.Version, r.Sites, r.BuildBefore, r.Build, r.goLine(), msg)
	}
	left := fmt.Sprint(r.Sites - r.Migrated)
	if len(r.Left) > 0 {
		var reasons []string
		for _, d := range r.Left {
			reasons = append(reasons, fmt.Sprintf("%s: %s", shortPosn(d.Posn), d.Message))
		}
		left += " (" + strings.Join(reasons, "; ") + ")"
	}
	tests := func(pass int, fail []string) string {
		if !r.TestsRun {
			return "not run"
		}
		return fmt.Sprintf("%d/%d", pass, len(fail))
	}
	race, raceBefore := "not run", "not run"
	if r.RaceRun {
		race, raceBefore = tests(r.RacePass, r.RaceFailAfter), tests(r.RacePassBefore, r.RaceFailBefore)
	}
	return fmt.Sprintf("| %s | %s | %d | %d | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |", r.Path, r.Version, r.Sites, r.Migrated, left,
		len(r.Changed), r.BuildBefore, r.Build, r.goLine(), tests(r.PassBefore, r.FailBefore), tests(r.PassAfter, r.FailAfter), raceBefore, race, listOrNone(r.Regressions))
}

func (r *result) goLine() string {
	if r.GoBefore == r.GoAfter || r.GoAfter == "" {
		return r.GoBefore + ", unchanged"
	}
	return r.GoBefore + " → " + r.GoAfter
}

// shortPosn keeps the path inside the module and the line.
func shortPosn(posn string) string {
	if i := strings.Index(posn, "/src/"); i >= 0 {
		posn = posn[i+len("/src/"):]
	}
	if i := strings.LastIndex(posn, ":"); i > 0 {
		if _, err := strconv.Atoi(posn[i+1:]); err == nil {
			posn = posn[:i] // the column
		}
	}
	return posn
}

func listOrNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

// env is the environment of every go command on a module: its own go.mod,
// dependencies resolved as needed, this toolchain.
var env = []string{"GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local"}

func dirName(mod string) string {
	return strings.NewReplacer("/", "_", "@", "_").Replace(mod)
}

// errDeadline ends a module's measurement at -until.
var errDeadline = errors.New("stopped at -until")

func measure(line, core, out, taskvet string) (r *result) {
	start := time.Now()
	// module@version, and optionally skip=REGEXP: tests to leave out (go
	// test -skip), as they need the network and fail (or hang until the
	// timeout) before the fix as after it.
	fields := strings.Fields(line)
	mod, skip := fields[0], ""
	for _, f := range fields[1:] {
		if re, ok := strings.CutPrefix(f, "skip="); ok {
			skip = re
		}
	}
	path, version, _ := strings.Cut(mod, "@")
	r = &result{Path: path, Version: version}
	logs := filepath.Join(out, dirName(mod))
	check(os.RemoveAll(logs))
	check(os.MkdirAll(logs, 0o755))
	logf := func(step string, data []byte) {
		name := strings.NewReplacer("/", "_", " ", "_").Replace(step)
		check(os.WriteFile(filepath.Join(logs, name+".log"), data, 0o644))
	}
	work := filepath.Join(logs, "src")
	step := "download"
	defer func() {
		if e := recover(); e != nil {
			if e != errDeadline {
				panic(e)
			}
			r.Unfinished = "stopped by -until during " + step
		}
		r.Seconds = int(time.Since(start).Seconds())
		b, _ := json.MarshalIndent(r, "", "\t")
		check(os.WriteFile(filepath.Join(logs, "result.json"), b, 0o644))
		if !*keepFlag {
			os.RemoveAll(work)
		}
		fmt.Fprintf(os.Stderr, "measure: %s: %ds\n", mod, r.Seconds)
	}()
	// heavy runs a build or a test run, after waiting while the pause file
	// exists; at -until it ends the module.
	heavy := func(name string, dir string, extra []string, args ...any) ([]byte, error) {
		step = name
		pause()
		if ctx.Err() != nil {
			panic(errDeadline)
		}
		fmt.Fprintf(os.Stderr, "measure: %s: %s\n", mod, name)
		// The arguments, and optionally a *bytes.Buffer last: the error
		// output goes there, and the output returned is the standard one.
		var strs []string
		var stderr *bytes.Buffer
		for _, a := range args {
			switch a := a.(type) {
			case string:
				strs = append(strs, a)
			case []string:
				strs = append(strs, a...)
			case *bytes.Buffer:
				stderr = a
			}
		}
		var b []byte
		var err error
		if stderr != nil {
			cmd := command(dir, extra, strs...)
			cmd.Stderr = stderr
			b, err = cmd.Output()
		} else {
			b, err = runOut(dir, extra, strs...)
		}
		if ctx.Err() != nil {
			logf(name, b)
			panic(errDeadline)
		}
		return b, err
	}

	// The module's source, writable, in a git repository of its own.
	dl, err := runOut(out, []string{"GOWORK=off"}, "go", "mod", "download", "-json", mod)
	if err != nil {
		r.Err = "download failed"
		logf("download", dl)
		return r
	}
	var info struct{ Dir, Version string }
	check(json.Unmarshal(dl, &info))
	r.Version = info.Version
	run(out, nil, "cp", "-r", info.Dir, work)
	run(out, nil, "chmod", "-R", "u+w", work)
	if _, err := os.Stat(filepath.Join(work, "go.mod")); err != nil {
		// A module published without go.mod (+incompatible) that keeps
		// its requirements in vendor.mod: its own scripts make go.mod a
		// link to vendor.mod (and go.sum to vendor.sum) to build.
		if _, err := os.Stat(filepath.Join(work, "vendor.mod")); err != nil {
			r.Err = "no go.mod (nor vendor.mod)"
			return r
		}
		run(work, nil, "cp", "vendor.mod", "go.mod")
		if _, err := os.Stat(filepath.Join(work, "vendor.sum")); err == nil {
			run(work, nil, "cp", "vendor.sum", "go.sum")
		}
		r.Notes = append(r.Notes, "no go.mod: built with vendor.mod and vendor.sum copied to go.mod and go.sum, as its scripts/with-go-mod.sh does")
	}
	r.GoBefore = goLine(work)
	// Only the replace: taskvet -fix adds the requirement, as it would for
	// a user, and the tests before the fix run on the module as published.
	if b, err := runOut(work, env, "go", "mod", "edit", "-replace=github.com/tasktuple/task="+core); err != nil {
		logf("replace", b)
		r.Err = "go mod edit -replace failed"
		return r
	}
	r.BuildBefore = "ok"
	pkgs := []string{"./..."}
	if *scopeFlag == "errgroup" {
		pkgs = errgroupDirs(work)
		r.Notes = append(r.Notes, "built and analyzed: the packages whose files import errgroup ("+strings.Join(pkgs, " ")+"), not ./...")
	}
	buildBefore, err := heavy("build-before", work, env, "go", "build", pkgs)
	logf("build-before", buildBefore)
	if err != nil {
		// A module of a repository of several modules may replace its
		// siblings by their directories (../sdk, or a nested module,
		// ./internal/httpclient), which its zip does not hold. Without those replaces the versions it requires come from
		// the proxy, as when it is a dependency.
		if drops := localReplaces(work); len(drops) > 0 {
			args := []string{"go", "mod", "edit"}
			for _, d := range drops {
				args = append(args, "-dropreplace="+d)
			}
			run(work, env, args...)
			r.Notes = append(r.Notes, "its go.mod replaces modules by directories outside its zip ("+strings.Join(drops, ", ")+"): built with those replaces dropped, the versions it requires from the proxy")
			logf("build-before-with-replaces", buildBefore)
			buildBefore, err = heavy("build-before", work, env, "go", "build", pkgs)
			logf("build-before", buildBefore)
		}
	}
	if err != nil {
		r.BuildBefore = "FAILS: " + buildFailure(buildBefore)
	}
	run(work, nil, "git", "init", "-q")
	run(work, nil, "git", "add", "-A")
	run(work, []string{"GIT_AUTHOR_NAME=m", "GIT_AUTHOR_EMAIL=m@m", "GIT_COMMITTER_NAME=m", "GIT_COMMITTER_EMAIL=m@m"}, "git", "commit", "-q", "-m", "pristine")

	r.SitePos = sites(work)
	r.Sites = len(r.SitePos)

	// The diagnostics, then the fix, which runs as many passes as it needs
	// (fixes that edit the same line are applied one pass after the
	// other) and then prints what is left.
	js, _ := heavy("diagnostics", work, env, taskvet, "-test=false", "-json", "-errgroupfix", pkgs)
	logf("diagnostics", js)
	for _, d := range diagnostics(js) {
		if d.Analyzer == "errgroupfix" && !d.Fix {
			r.Nofix++
		}
	}
	fixLog, _ := heavy("fix", work, env, taskvet, "-test=false", "-fix", "-errgroupfix", pkgs)
	logf("fix", fixLog)
	// Migrated: the groups that the fixes removed.
	r.LeftPos = sites(work)
	r.Migrated = r.Sites - len(r.LeftPos)
	names, _ := runOut(work, nil, "git", "diff", "--name-only", "--", "*.go")
	seen := map[string]bool{}
	var changedFiles []string
	for line := range strings.Lines(string(names)) {
		if line = strings.TrimSpace(line); line != "" {
			changedFiles = append(changedFiles, line)
			pkg := "./" + filepath.ToSlash(filepath.Dir(line))
			if !seen[pkg] {
				seen[pkg] = true
				r.Changed = append(r.Changed, pkg)
			}
		}
	}
	slices.Sort(r.Changed)
	b, err := heavy("build", work, env, "go", "build", pkgs)
	logf("build", b)
	r.GoAfter = goLine(work)
	diff, _ := runOut(work, nil, "git", "diff")
	check(os.WriteFile(filepath.Join(logs, "fix.diff"), diff, 0o644))
	r.Build = "ok"
	if err != nil {
		r.Build = "FAILS: " + buildFailure(b)
		if r.BuildBefore != "ok" {
			if slices.Equal(failedPackages(b), failedPackages(buildBefore)) {
				r.Build += " (the same packages as before)"
			}
		}
	}
	// The files this build leaves out that taskvet analyzed with another
	// GOOS, GOARCH or tags: their packages are built in that environment
	// too, where the fix changed one of them (a file there, or a file of
	// every platform that one there uses).
	for _, o := range otherBuilds(fixLog) {
		r.Notes = append(r.Notes, "taskvet analyzed "+strings.Join(o.files, ", ")+" with "+o.name)
		if !slices.ContainsFunc(o.dirs, func(d string) bool { return slices.Contains(r.Changed, d) }) {
			continue
		}
		build := append([]string{"go", "build"}, o.dirs...)
		b, err := heavy("build "+o.name, work, o.environ(), build)
		logf("build "+o.name, b)
		res := "ok"
		if err != nil {
			res = "FAILS: " + buildFailure(b)
			// The module as published, in the same environment.
			before := func() ([]byte, error) {
				run(work, nil, "git", "stash", "-q", "-u")
				defer func() {
					// What the build wrote (go.sum with -mod=mod)
					// would keep the fix from coming back.
					runOut(work, nil, "git", "reset", "-q", "--hard")
					runOut(work, nil, "git", "stash", "pop", "-q")
				}()
				return heavy("build-before "+o.name, work, o.environ(), build)
			}
			bb, err := before()
			logf("build-before "+o.name, bb)
			if err != nil && slices.Equal(failedPackages(b), failedPackages(bb)) {
				res += " (the same packages as before)"
			} else if err != nil {
				res += " (before: FAILS: " + buildFailure(bb) + ")"
			}
		}
		r.Build += "; " + o.name + ": " + res
	}
	// What is left, and why: taskvet on the fixed code.
	// (With -json the diagnostics are on the standard output; the lines
	// of files the build leaves out, "not analyzed", on the error output.)
	var stderr bytes.Buffer
	js, _ = heavy("diagnostics-after", work, env, taskvet, "-test=false", "-json", "-errgroupfix", pkgs, &stderr)
	logf("diagnostics-after", js)
	logf("diagnostics-after-stderr", stderr.Bytes())
	for line := range strings.Lines(stderr.String()) {
		if posn, msg, ok := strings.Cut(strings.TrimSpace(line), ": "); ok && strings.Contains(msg, "not analyzed") {
			r.Left = append(r.Left, diagnostic{Analyzer: "taskvet", Posn: posn, Message: msg})
		}
	}
	for _, d := range diagnostics(js) {
		if d.Analyzer == "errgroupfix" {
			r.Left = append(r.Left, d)
		} else {
			r.Others = append(r.Others, d)
		}
	}
	if len(r.Changed) == 0 {
		return r
	}
	if !*testsFlag {
		r.Notes = append(r.Notes, "tests not run (-tests=false)")
		return r
	}
	// The tests and go vet run in this build's configuration: a package
	// whose changed files it leaves out all (engine_windows.go on Linux)
	// is only built, above, in the environment taskvet analyzed it in.
	tested := r.Changed
	if ignored := ignoredFiles(work, r.Changed); len(ignored) > 0 {
		tested = nil
		for _, pkg := range r.Changed {
			if slices.ContainsFunc(changedFiles, func(f string) bool {
				return "./"+filepath.ToSlash(filepath.Dir(f)) == pkg && !ignored[f]
			}) {
				tested = append(tested, pkg)
			} else {
				r.Untested = append(r.Untested, pkg)
			}
		}
		if len(r.Untested) > 0 {
			r.Notes = append(r.Notes, "changed only in files this build leaves out, so not vetted nor tested: "+strings.Join(r.Untested, ", "))
		}
		if len(tested) == 0 {
			return r
		}
	}
	if b, err := heavy("vet", work, env, append([]string{"go", "vet"}, tested...)); err != nil {
		logf("vet", b)
		r.Build += ", vet fails"
	}

	// The tests of the changed packages, after the fix, then before; then
	// the same with -race. One package at a time (-p 1, and one go test
	// a package): the machine is shared.
	testArgs := []string{"go", "test", "-p", "1", "-count=1", "-json", "-timeout", timeoutFlag.String()}
	if skip != "" {
		testArgs = append(testArgs, "-skip", skip)
	}
	raceArgs := append(slices.Clone(testArgs[:2]), append([]string{"-race"}, testArgs[2:]...)...)
	r.TestsRun = true
	r.RaceRun = *raceFlag
	type runKind struct {
		name string
		args []string
		race bool
	}
	kinds := []runKind{{"test", testArgs, false}}
	if *raceFlag {
		kinds = append(kinds, runKind{"test-race", raceArgs, true})
	}
	results := map[string][]byte{} // by kind and when
	for _, k := range kinds {
		var all []byte
		for _, pkg := range tested {
			b, err := heavy(k.name+"-after "+pkg, work, env, append(slices.Clone(k.args), pkg))
			all = append(all, noRun(pkg, b, err)...)
		}
		logf(k.name+"-after", all)
		results[k.name+"-after"] = all
	}
	// Before the fix: the module as published. With -before-cache, the
	// runs of a package before the fix are kept, and taken again by a
	// later measurement of the same module (the same code, the same
	// toolchain: only which packages the fix changes differs); the packages
	// that hold a group are run too, to fill the cache for such a run.
	run(work, nil, "git", "stash", "-q", "-u")
	defer runOut(work, nil, "git", "stash", "pop", "-q")
	beforePkgs := tested
	if *cacheFlag != "" {
		for _, p := range r.SitePos {
			file, _, _ := strings.Cut(p, ":")
			beforePkgs = append(beforePkgs, "./"+filepath.ToSlash(filepath.Dir(file)))
		}
		beforePkgs = slices.Compact(slices.Sorted(slices.Values(beforePkgs)))
	}
	for _, k := range kinds {
		var all []byte
		for _, pkg := range beforePkgs {
			var cache string
			if *cacheFlag != "" {
				cache = filepath.Join(*cacheFlag, dirName(mod), fmt.Sprintf("%s.%s.skip=%q.json", strings.ReplaceAll(pkg, "/", "_"), k.name, skip))
				if b, err := os.ReadFile(cache); err == nil {
					if slices.Contains(tested, pkg) {
						r.BeforeCached = append(r.BeforeCached, k.name+" "+pkg)
						all = append(all, b...)
					}
					continue
				}
			}
			b, err := heavy(k.name+"-before "+pkg, work, env, append(slices.Clone(k.args), pkg))
			b = noRun(pkg, b, err)
			if cache != "" {
				check(os.MkdirAll(filepath.Dir(cache), 0o755))
				check(os.WriteFile(cache, b, 0o644))
			}
			if slices.Contains(tested, pkg) {
				all = append(all, b...)
			}
		}
		logf(k.name+"-before", all)
		results[k.name+"-before"] = all
	}
	r.PassAfter, r.FailAfter = testResults(results["test-after"])
	r.PassBefore, r.FailBefore = testResults(results["test-before"])
	for _, f := range r.FailAfter {
		if !slices.Contains(r.FailBefore, f) {
			r.Regressions = append(r.Regressions, f)
		}
	}
	if *raceFlag {
		r.RacePass, r.RaceFailAfter = testResults(results["test-race-after"])
		r.RacePassBefore, r.RaceFailBefore = testResults(results["test-race-before"])
		for _, f := range r.RaceFailAfter {
			if !slices.Contains(r.RaceFailBefore, f) {
				r.Regressions = append(r.Regressions, f+" (-race)")
			}
		}
	}
	return r
}

// localReplaces lists the modules that go.mod replaces by a directory
// outside dir.
func localReplaces(dir string) []string {
	js, err := runStdout(dir, env, "go", "mod", "edit", "-json")
	if err != nil {
		return nil
	}
	var f struct {
		Replace []struct {
			Old, New struct{ Path, Version string }
		}
	}
	if json.Unmarshal(js, &f) != nil {
		return nil
	}
	var drops []string
	for _, r := range f.Replace {
		if r.New.Version != "" || !(strings.HasPrefix(r.New.Path, "./") || strings.HasPrefix(r.New.Path, "../")) {
			continue
		}
		if rel, err := filepath.Rel(dir, filepath.Join(dir, r.New.Path)); err == nil && !strings.HasPrefix(rel, "..") {
			if _, err := os.Stat(filepath.Join(dir, r.New.Path, "go.mod")); err == nil {
				continue // inside the module's copy
			}
			// A nested module, which the zip of this one leaves out.
		}
		old := r.Old.Path
		if r.Old.Version != "" {
			old += "@" + r.Old.Version
		}
		drops = append(drops, old)
	}
	return drops
}

// goLine returns the go line of the module's go.mod.
func goLine(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return "?"
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "go "); ok {
			return strings.TrimSpace(v)
		}
	}
	return "none"
}

var failedPkg = regexp.MustCompile(`(?m)^# (\S+)`)

// failedPackages lists the packages that a go build's output names.
func failedPackages(out []byte) []string {
	var pkgs []string
	for _, m := range failedPkg.FindAllSubmatch(out, -1) {
		pkgs = append(pkgs, string(m[1]))
	}
	slices.Sort(pkgs)
	return slices.Compact(pkgs)
}

// buildFailure sums up a failed build: the packages, or its first line.
func buildFailure(out []byte) string {
	if pkgs := failedPackages(out); len(pkgs) > 0 {
		return strings.Join(pkgs, ", ")
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return line
}

// sites lists (file:line) the errgroup groups that the production code
// (not tests, testdata or vendor) makes or declares: WithContext calls,
// zero Groups (var, literal, new) and fields of type errgroup.Group.
// errgroupDirs returns the package directories below dir ("./a/b") whose
// production files import errgroup, whatever their build constraints.
func errgroupDirs(dir string) []string {
	var dirs []string
	for _, p := range sites(dir) {
		file, _, _ := strings.Cut(p, ":")
		d := "./" + filepath.ToSlash(filepath.Dir(file))
		if d == "./." {
			d = "."
		}
		if !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	if len(dirs) == 0 {
		return []string{"./..."}
	}
	slices.Sort(dirs)
	return dirs
}

func sites(dir string) []string {
	var pos []string
	fset := token.NewFileSet()
	check(filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "testdata", "vendor", ".git":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil
		}
		name := ""
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "golang.org/x/sync/errgroup" {
				name = "errgroup"
				if imp.Name != nil {
					name = imp.Name.Name
				}
			}
		}
		if name == "" {
			return nil
		}
		rel, _ := filepath.Rel(dir, path)
		add := func(n ast.Node, k int) {
			for range k {
				pos = append(pos, fmt.Sprintf("%s:%d", filepath.ToSlash(rel), fset.Position(n.Pos()).Line))
			}
		}
		isGroup := func(e ast.Expr) bool {
			if s, ok := e.(*ast.StarExpr); ok {
				e = s.X
			}
			sel, ok := e.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "Group" {
				return false
			}
			id, ok := sel.X.(*ast.Ident)
			return ok && id.Name == name
		}
		ast.Inspect(f, func(node ast.Node) bool {
			switch node := node.(type) {
			case *ast.CallExpr:
				if sel, ok := node.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "WithContext" {
					if id, ok := sel.X.(*ast.Ident); ok && id.Name == name {
						add(node, 1)
					}
				}
				if id, ok := node.Fun.(*ast.Ident); ok && id.Name == "new" && len(node.Args) == 1 && isGroup(node.Args[0]) {
					add(node, 1)
				}
			case *ast.CompositeLit:
				if isGroup(node.Type) {
					add(node, 1)
				}
			case *ast.ValueSpec:
				if node.Type != nil && isGroup(node.Type) && len(node.Values) == 0 {
					if _, ptr := node.Type.(*ast.StarExpr); !ptr {
						add(node, len(node.Names))
					}
				}
			case *ast.StructType:
				// A component that owns a group.
				for _, fld := range node.Fields.List {
					if isGroup(fld.Type) {
						add(fld, max(1, len(fld.Names)))
					}
				}
			}
			return true
		})
		return nil
	}))
	return pos
}

// diagnostics reads taskvet -json's output: one object per package,
// {"pkg": {"analyzer": [diag, ...]}} (or {"error": ...} for an analyzer
// that failed, which is reported as a diagnostic of "error").
func diagnostics(js []byte) []diagnostic {
	type diag struct {
		Posn    string            `json:"posn"`
		Message string            `json:"message"`
		Fixes   []json.RawMessage `json:"suggested_fixes"`
	}
	var all []diagnostic
	dec := json.NewDecoder(strings.NewReader(string(js)))
	for {
		var m map[string]map[string]json.RawMessage
		if err := dec.Decode(&m); err != nil {
			break
		}
		for pkg, byAnalyzer := range m {
			for analyzer, raw := range byAnalyzer {
				var ds []diag
				if json.Unmarshal(raw, &ds) != nil {
					var e struct{ Error string }
					if json.Unmarshal(raw, &e) == nil && e.Error != "" {
						all = append(all, diagnostic{Analyzer: "error", Posn: pkg, Message: analyzer + ": " + e.Error})
					}
					continue
				}
				for _, d := range ds {
					all = append(all, diagnostic{Analyzer: analyzer, Posn: d.Posn, Message: d.Message, Fix: len(d.Fixes) > 0})
				}
			}
		}
	}
	// taskvet analyzes a package again for the files of another platform
	// (GOOS=windows): the files of every platform are analyzed twice, and
	// their diagnostics printed twice.
	slices.SortFunc(all, func(a, b diagnostic) int {
		return cmp.Or(strings.Compare(a.Posn, b.Posn), strings.Compare(a.Analyzer, b.Analyzer), strings.Compare(a.Message, b.Message))
	})
	return slices.Compact(all)
}

// An otherBuild is an environment in which taskvet analyzed files that
// this build leaves out, as its lines "taskvet: fixing FILES with ENV" and
// "taskvet: analyzing FILES with ENV" say.
type otherBuild struct {
	name  string   // ENV: GOOS=windows, GOFLAGS=-tags=integration
	files []string // relative to the module's directory
	dirs  []string // their packages, ./dir
}

// otherBuilds reads the environments from taskvet's output.
func otherBuilds(out []byte) []otherBuild {
	var builds []otherBuild
	for line := range strings.Lines(string(out)) {
		line = strings.TrimSpace(line)
		rest, ok := strings.CutPrefix(line, "taskvet: analyzing ")
		if !ok {
			rest, ok = strings.CutPrefix(line, "taskvet: fixing ")
		}
		i := strings.LastIndex(rest, " with ")
		if !ok || i < 0 || slices.ContainsFunc(builds, func(o otherBuild) bool { return o.name == rest[i+len(" with "):] }) {
			continue
		}
		o := otherBuild{name: rest[i+len(" with "):], files: strings.Split(rest[:i], ", ")}
		for _, f := range o.files {
			if dir := "./" + filepath.ToSlash(filepath.Dir(f)); !slices.Contains(o.dirs, dir) {
				o.dirs = append(o.dirs, dir)
			}
		}
		builds = append(builds, o)
	}
	return builds
}

// environ returns env with the variables of the environment, whose
// GOFLAGS adds to env's.
func (o otherBuild) environ() []string {
	vars := slices.Clone(env)
	for _, v := range strings.Fields(o.name) {
		if flags, ok := strings.CutPrefix(v, "GOFLAGS="); ok {
			for _, e := range env {
				if old, ok := strings.CutPrefix(e, "GOFLAGS="); ok {
					v = "GOFLAGS=" + old + " " + flags
				}
			}
		}
		vars = append(vars, v)
	}
	return vars
}

// ignoredFiles returns the files (relative to dir) of the packages that
// this build leaves out, as go list says.
func ignoredFiles(dir string, pkgs []string) map[string]bool {
	out, err := runStdout(dir, env, append([]string{"go", "list", "-e", "-f", "{{$d := .Dir}}{{range .IgnoredGoFiles}}{{$d}}/{{.}}\n{{end}}"}, pkgs...)...)
	if err != nil {
		return nil
	}
	ignored := map[string]bool{}
	for line := range strings.Lines(string(out)) {
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		if rel, err := filepath.Rel(dir, line); err == nil {
			ignored[filepath.ToSlash(rel)] = true
		}
	}
	return ignored
}

// noRun adds to a go test -json output that failed without a result for
// any package (go.mod that does not parse, a package that does not load)
// a failure of the package, named by the first line of the output: a test
// run that could not start fails, and a run that starts before the fix and
// not after it is a regression.
func noRun(pkg string, out []byte, err error) []byte {
	if err == nil {
		return out
	}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var ev struct{ Action, Test string }
		if json.Unmarshal(sc.Bytes(), &ev) == nil && ev.Test == "" && (ev.Action == "pass" || ev.Action == "fail" || ev.Action == "skip") {
			return out
		}
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	ev, _ := json.Marshal(struct{ Action, Package string }{"fail", pkg + " [go test did not run: " + line + "]"})
	return append(append(out, '\n'), ev...)
}

// testResults returns the number of tests that passed and the names of
// those that failed (package and test), in go test -json output; a package
// that does not build fails as "pkg [build]".
func testResults(js []byte) (pass int, fail []string) {
	sc := bufio.NewScanner(strings.NewReader(string(js)))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var ev struct{ Action, Package, Test string }
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			continue
		}
		switch {
		case ev.Action == "pass" && ev.Test != "":
			pass++
		case ev.Action == "fail" && ev.Test != "":
			fail = append(fail, ev.Package+"."+ev.Test)
		case ev.Action == "fail" && ev.Test == "":
			fail = append(fail, ev.Package+" [package]")
		}
	}
	return pass, fail
}

// pause waits while the file that MEASURE_PAUSE_FILE names exists.
func pause() {
	file := os.Getenv("MEASURE_PAUSE_FILE")
	if file == "" {
		return
	}
	for said := false; ; said = true {
		if _, err := os.Stat(file); err != nil {
			return
		}
		if !said {
			fmt.Fprintf(os.Stderr, "measure: %s exists, waiting\n", file)
		}
		time.Sleep(30 * time.Second)
	}
}

func run(dir string, extra []string, args ...string) {
	if b, err := runOut(dir, extra, args...); err != nil {
		fatalf("%s: %v\n%s", strings.Join(args, " "), err, b)
	}
}

// command makes a command that -until ends, with its children (go test's
// test binaries).
func command(dir string, extra []string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), extra...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	return cmd
}

func runOut(dir string, extra []string, args ...string) ([]byte, error) {
	return command(dir, extra, args...).CombinedOutput()
}

// runStdout runs the command and returns its standard output only.
func runStdout(dir string, extra []string, args ...string) ([]byte, error) {
	return command(dir, extra, args...).Output()
}

func check(err error) {
	if err != nil {
		fatalf("%v", err)
	}
}

func fatalf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "measure: "+format+"\n", args...)
	os.Exit(1)
}
