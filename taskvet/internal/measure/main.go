// Command measure runs taskvet -fix on real modules from the module proxy
// and checks that the migrated code builds and passes its tests.
//
// For each module@version (from the command line, or modules.txt beside
// this file), it copies the module from the module cache (go mod download)
// into a work directory, points github.com/tasktuple/task at a local
// checkout of the library by a replace (with -rev, a git archive of that
// revision), counts the errgroup groups of the production code, runs
// taskvet -test=false -fix (the tests stay as they are: they are the
// oracle), counts the groups left, builds the module, and runs the tests
// of every changed package after the fix and, on the same packages, before
// it, each time also with -race (-race=false to skip), one package at a
// time (go test -p 1). A test that passes before and fails after is a bug
// of the fix.
//
//	go run ./internal/measure -rev HEAD -out /tmp/measure            # from taskvet/
//	go run ./internal/measure -core .. -out /tmp/measure github.com/google/ko@v0.19.1
//
// It prints a Markdown table, one row per module, and leaves in -out/NAME
// the fix's diff (fix.diff) and the logs of every step.
package main

import (
	"bufio"
	_ "embed"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

//go:embed modules.txt
var defaultModules string

var (
	coreFlag    = flag.String("core", "", "the directory of github.com/tasktuple/task to migrate to (default: the repository that holds this program)")
	revFlag     = flag.String("rev", "", "migrate to this git revision of -core's repository (a git archive of it in -out/core) rather than its working tree")
	outFlag     = flag.String("out", "", "the work directory (default: a new temporary directory)")
	timeoutFlag = flag.Duration("timeout", 10*time.Minute, "the go test -timeout of each run")
	raceFlag    = flag.Bool("race", true, "run the tests again with -race, after the fix and before it")
)

func main() {
	flag.Parse()
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
		hash, err := runStdout(core, nil, "git", "rev-parse", "--verify", *revFlag+"^{commit}")
		if err != nil {
			fatalf("-rev %s: not a commit of %s", *revFlag, core)
		}
		dir := filepath.Join(out, "core")
		check(os.RemoveAll(dir))
		check(os.MkdirAll(dir, 0o755))
		tar := filepath.Join(out, "core.tar")
		run(core, nil, "git", "archive", "-o", tar, strings.TrimSpace(string(hash)))
		run(dir, nil, "tar", "-xf", tar)
		fmt.Fprintf(os.Stderr, "measure: library at %s (%s)\n", *revFlag, strings.TrimSpace(string(hash)))
		core = dir
	}

	// taskvet itself, from the module that holds this program.
	taskvet := filepath.Join(out, "taskvet")
	run(".", nil, "go", "build", "-o", taskvet, "../../cmd/taskvet")

	mods := flag.Args()
	if len(mods) == 0 {
		for line := range strings.Lines(defaultModules) {
			if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
				mods = append(mods, line)
			}
		}
	}
	fmt.Println("| module | version | errgroup sites (production) | migrated | diagnostics without a fix | packages changed | build | tests after the fix (pass/fail) | failing before too | -race after (pass/fail) | -race failing before too | regressions |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, mod := range mods {
		r := measure(mod, core, out, taskvet)
		fmt.Println(r.row())
	}
	fmt.Fprintf(os.Stderr, "measure: logs and diffs in %s\n", out)
}

// A result is the measurement of one module.
type result struct {
	path, version   string
	sites           int
	migrated, nofix int
	changed         []string // packages
	build           string
	passAfter       int
	failAfter       []string
	failBefore      []string
	racePass        int
	raceFailAfter   []string
	raceFailBefore  []string
	raceRun         bool
	regressions     []string
	err             string
}

func (r *result) row() string {
	if r.err != "" {
		return fmt.Sprintf("| %s | %s | %d | | | | %s | | | | | |", r.path, r.version, r.sites, r.err)
	}
	race, raceBefore := "not run", ""
	if r.raceRun {
		race, raceBefore = fmt.Sprintf("%d/%d", r.racePass, len(r.raceFailAfter)), fmt.Sprint(len(r.raceFailBefore))
	}
	return fmt.Sprintf("| %s | %s | %d | %d | %d | %d | %s | %d/%d | %d | %s | %s | %s |", r.path, r.version, r.sites, r.migrated, r.nofix,
		len(r.changed), r.build, r.passAfter, len(r.failAfter), len(r.failBefore), race, raceBefore, listOrNone(r.regressions))
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

func measure(line, core, out, taskvet string) (r *result) {
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
	r = &result{path: path, version: version}
	name := strings.NewReplacer("/", "_", "@", "_").Replace(mod)
	logs := filepath.Join(out, name)
	check(os.RemoveAll(logs))
	check(os.MkdirAll(logs, 0o755))
	logf := func(step string, data []byte) {
		check(os.WriteFile(filepath.Join(logs, step+".log"), data, 0o644))
	}

	// The module's source, writable, in a git repository of its own.
	dl, err := runOut(out, nil, "go", "mod", "download", "-json", mod)
	if err != nil {
		r.err = "download failed"
		logf("download", dl)
		return r
	}
	var info struct{ Dir, Version string }
	check(json.Unmarshal(dl, &info))
	r.version = info.Version
	work := filepath.Join(logs, "src")
	run(out, nil, "cp", "-r", info.Dir, work)
	run(out, nil, "chmod", "-R", "u+w", work)
	run(work, env, "go", "mod", "edit", "-require=github.com/tasktuple/task@v0.0.0", "-replace=github.com/tasktuple/task="+core)
	if b, err := runOut(work, env, "go", "build", "./..."); err != nil {
		logf("build-before", b)
		r.err = "does not build before the fix"
		return r
	}
	run(work, nil, "git", "init", "-q")
	run(work, nil, "git", "add", "-A")
	run(work, []string{"GIT_AUTHOR_NAME=m", "GIT_AUTHOR_EMAIL=m@m", "GIT_COMMITTER_NAME=m", "GIT_COMMITTER_EMAIL=m@m"}, "git", "commit", "-q", "-m", "pristine")

	r.sites = countSites(work)

	// The diagnostics, then the fix, which runs as many passes as it needs
	// (fixes that edit the same line are applied one pass after the
	// other) and then prints what is left.
	js, _ := runStdout(work, env, taskvet, "-test=false", "-json", "-errgroupfix", "./...")
	logf("diagnostics", js)
	_, r.nofix = countDiagnostics(js)
	fixLog, _ := runOut(work, env, taskvet, "-test=false", "-fix", "-errgroupfix", "./...")
	logf("fix", fixLog)
	// Migrated: the groups that the fixes removed.
	r.migrated = r.sites - countSites(work)
	diff, _ := runOut(work, nil, "git", "diff")
	check(os.WriteFile(filepath.Join(logs, "fix.diff"), diff, 0o644))
	names, _ := runOut(work, nil, "git", "diff", "--name-only", "--", "*.go")
	seen := map[string]bool{}
	for line := range strings.Lines(string(names)) {
		if line = strings.TrimSpace(line); line != "" {
			pkg := "./" + filepath.ToSlash(filepath.Dir(line))
			if !seen[pkg] {
				seen[pkg] = true
				r.changed = append(r.changed, pkg)
			}
		}
	}
	slices.Sort(r.changed)
	if b, err := runOut(work, env, "go", "build", "./..."); err != nil {
		logf("build", b)
		r.build = "FAILS"
		return r
	}
	r.build = "ok"
	if len(r.changed) == 0 {
		return r
	}
	if b, err := runOut(work, env, append([]string{"go", "vet"}, r.changed...)...); err != nil {
		logf("vet", b)
		r.build = "ok, vet fails"
	}

	// The tests of the changed packages, after the fix, then before; then
	// the same with -race. One package at a time (-p 1): the machine is
	// shared.
	testArgs := []string{"go", "test", "-p", "1", "-count=1", "-json", "-timeout", timeoutFlag.String()}
	if skip != "" {
		testArgs = append(testArgs, "-skip", skip)
	}
	raceArgs := append(slices.Clone(testArgs[:2]), append([]string{"-race"}, testArgs[2:]...)...)
	testArgs = append(testArgs, r.changed...)
	raceArgs = append(raceArgs, r.changed...)
	after, _ := runOut(work, env, testArgs...)
	logf("test-after", after)
	var raceAfter []byte
	if *raceFlag {
		raceAfter, _ = runOut(work, env, raceArgs...)
		logf("test-race-after", raceAfter)
	}
	run(work, nil, "git", "stash", "-q")
	before, _ := runOut(work, env, testArgs...)
	logf("test-before", before)
	var raceBefore []byte
	if *raceFlag {
		raceBefore, _ = runOut(work, env, raceArgs...)
		logf("test-race-before", raceBefore)
	}
	run(work, nil, "git", "stash", "pop", "-q")
	passA, failA := testResults(after)
	_, failB := testResults(before)
	r.passAfter, r.failAfter, r.failBefore = passA, failA, failB
	for _, f := range failA {
		if !slices.Contains(failB, f) {
			r.regressions = append(r.regressions, f)
		}
	}
	if *raceFlag {
		r.raceRun = true
		r.racePass, r.raceFailAfter = testResults(raceAfter)
		_, r.raceFailBefore = testResults(raceBefore)
		for _, f := range r.raceFailAfter {
			if !slices.Contains(r.raceFailBefore, f) {
				r.regressions = append(r.regressions, f+" (-race)")
			}
		}
	}
	return r
}

// countSites counts the errgroup groups that the production code (not
// tests, testdata or vendor) makes or declares: WithContext calls, zero
// Groups (var, literal, new) and fields of type errgroup.Group.
func countSites(dir string) int {
	n := 0
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
						n++
					}
				}
				if id, ok := node.Fun.(*ast.Ident); ok && id.Name == "new" && len(node.Args) == 1 && isGroup(node.Args[0]) {
					n++
				}
			case *ast.CompositeLit:
				if isGroup(node.Type) {
					n++
				}
			case *ast.ValueSpec:
				if node.Type != nil && isGroup(node.Type) && len(node.Values) == 0 {
					if _, ptr := node.Type.(*ast.StarExpr); !ptr {
						n += len(node.Names)
					}
				}
			case *ast.StructType:
				// A component that owns a group.
				for _, fld := range node.Fields.List {
					if isGroup(fld.Type) {
						n += max(1, len(fld.Names))
					}
				}
			}
			return true
		})
		return nil
	}))
	return n
}

// countDiagnostics counts errgroupfix's diagnostics in taskvet -json
// output: with a fix, and without.
func countDiagnostics(js []byte) (fixes, nofix int) {
	type diag struct {
		Fixes []json.RawMessage `json:"suggested_fixes"`
	}
	// taskvet -json prints one object per package:
	// {"pkg": {"errgroupfix": [diag, ...]}}
	dec := json.NewDecoder(strings.NewReader(string(js)))
	for {
		var m map[string]map[string]json.RawMessage
		if err := dec.Decode(&m); err != nil {
			break
		}
		for _, byAnalyzer := range m {
			raw, ok := byAnalyzer["errgroupfix"]
			if !ok {
				continue
			}
			var ds []diag
			if json.Unmarshal(raw, &ds) != nil {
				continue
			}
			for _, d := range ds {
				if len(d.Fixes) > 0 {
					fixes++
				} else {
					nofix++
				}
			}
		}
	}
	return fixes, nofix
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

func run(dir string, extra []string, args ...string) {
	if b, err := runOut(dir, extra, args...); err != nil {
		fatalf("%s: %v\n%s", strings.Join(args, " "), err, b)
	}
}

func runOut(dir string, extra []string, args ...string) ([]byte, error) {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), extra...)
	return cmd.CombinedOutput()
}

// runStdout runs the command and returns its standard output only.
func runStdout(dir string, extra []string, args ...string) ([]byte, error) {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), extra...)
	return cmd.Output()
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
