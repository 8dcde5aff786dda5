package main

import (
	"encoding/json"
	"fmt"
	"go/parser"
	"go/token"
	"go/version"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
)

// syncPath is the module of errgroup, which the fixes stop importing.
const syncPath = "golang.org/x/sync"

// taskGoLine returns the go line of the task module's go.mod as the
// requirement would bring it: the replacement directory's, or the one the
// module proxy serves for taskQuery's version; "" if it cannot be read.
func (m *mainModule) taskGoLine() string {
	var name string
	if m.replaced {
		name = filepath.Join(m.replaceDir, "go.mod")
	} else {
		cmd := exec.Command("go", "mod", "download", "-json", taskModule+"@"+taskQuery())
		cmd.Dir = m.dir
		out, err := cmd.Output()
		if err != nil {
			return ""
		}
		var d struct{ GoMod string }
		if json.Unmarshal(out, &d) != nil {
			return ""
		}
		name = d.GoMod
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return ""
	}
	f, err := modfile.ParseLax(name, data, nil)
	if err != nil || f.Go == nil {
		return ""
	}
	return f.Go.Version
}

// goLineMove returns the go line that requiring the task module moves the
// module's to, or "" if it stays, and prints, before go.mod changes, one
// line that says so and what the newer line turns on.
func (m *mainModule) goLineMove(w io.Writer) string {
	to := m.taskGoLine()
	from := m.goVersion
	if from == "" {
		from = "1.16" // no go line: the go command reads 1.16
	}
	if to == "" || version.Compare("go"+to, "go"+from) <= 0 {
		return ""
	}
	turns := fmt.Sprintf("go test runs the vet checks of Go %s on every package it tests", to)
	if version.Compare("go"+from, "go1.22") < 0 {
		turns += ", and each iteration of a for loop declares new loop variables (Go 1.22)"
	}
	fmt.Fprintf(w, "taskvet: requiring %s moves the go line of %s from %s to %s: %s; to see what that changes first, run go mod edit -go=%s && go vet ./... && go test ./...\n",
		taskModule, filepath.Join(m.dir, "go.mod"), from, to, turns, to)
	return to
}

// tidySync drops the requirement of golang.org/x/sync once no Go file of
// the module, tests included, imports one of its packages, as go mod tidy
// would; if a dependency still uses it in any build configuration, the
// requirement stays, marked // indirect. A file of another platform (a
// _windows.go file on Linux) counts, as for go mod tidy, and so does a
// //go:build ignore file, which go mod tidy leaves out but go run builds.
// The module's other requirements and go.sum are left as they are.
func (m *mainModule) tidySync() {
	if moduleImports(m.dir, syncPath) {
		return
	}
	name := filepath.Join(m.dir, "go.mod")
	data, err := os.ReadFile(name)
	if err != nil {
		return
	}
	f, err := modfile.Parse(name, data, nil)
	if err != nil {
		return
	}
	var req *modfile.Require
	for _, r := range f.Require {
		if r.Mod.Path == syncPath {
			req = r
		}
	}
	if req == nil {
		return
	}
	if _, err := os.Stat(filepath.Join(m.dir, "vendor", "modules.txt")); err == nil {
		// go.mod and vendor/modules.txt change together.
		fmt.Fprintf(os.Stderr, "taskvet: no package of the module imports %s any more: run go mod tidy && go mod vendor\n", syncPath)
		return
	}
	// go mod why, as go mod tidy, reads the imports of every build
	// configuration: a dependency that only a _windows.go file imports
	// still needs the requirement, which GOOS=windows go build checks.
	// (-vendor leaves out the tests of dependencies, as go list -deps
	// -test ./... does.)
	cmd := exec.Command("go", "mod", "why", "-m", "-vendor", syncPath)
	cmd.Dir = m.dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "taskvet: no package of the module imports %s any more, and go mod why failed (%s): run go mod tidy\n", syncPath, firstLine(out, err))
		return
	}
	what := editSync(f, req, !strings.Contains(string(out), "(main module does not need"))
	if what == "" {
		return
	}
	formatted, err := f.Format()
	if err != nil || os.WriteFile(name, formatted, 0o644) != nil {
		return
	}
	fmt.Fprintf(os.Stderr, "taskvet: no package of the module imports %s any more: %s %s\n", syncPath, what, name)
}

// editSync drops req, the requirement of golang.org/x/sync in f, or, if a
// dependency still uses it (used), marks it // indirect; it says what it
// did, or "" if nothing.
func editSync(f *modfile.File, req *modfile.Require, used bool) string {
	if !used {
		if f.DropRequire(syncPath) != nil {
			return ""
		}
		f.Cleanup()
		return "dropped its requirement from"
	}
	if req.Indirect {
		return ""
	}
	setRequire(f, syncPath, req.Mod.Version, true)
	return "a dependency still uses it: marked it // indirect in"
}

// setRequire makes f require path at version, marked // indirect or not,
// where the go command puts such a line (go get, go mod tidy): a direct
// requirement in the last block of direct ones, an indirect one in the
// last block of indirect ones, in order; a line that changes its marking
// moves between the two. Every other requirement keeps its version and
// marking.
func setRequire(f *modfile.File, path, version string, indirect bool) {
	var reqs []*modfile.Require
	for _, r := range f.Require {
		if r.Mod.Path != path {
			reqs = append(reqs, &modfile.Require{Mod: r.Mod, Indirect: r.Indirect})
		}
	}
	reqs = append(reqs, &modfile.Require{Mod: module.Version{Path: path, Version: version}, Indirect: indirect})
	f.SetRequireSeparateIndirect(reqs)
	f.Cleanup()
}

// moduleImports reports whether a Go file of the module in dir (outside
// vendor, testdata and nested modules; any build constraints) imports the
// package path or one below it.
func moduleImports(dir, path string) bool {
	found := false
	filepath.WalkDir(dir, func(name string, d fs.DirEntry, err error) error {
		if err != nil || found {
			return filepath.SkipDir
		}
		if d.IsDir() {
			if name != dir {
				switch d.Name() {
				case "vendor", "testdata", ".git":
					return filepath.SkipDir
				}
				if _, err := os.Stat(filepath.Join(name, "go.mod")); err == nil {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			found = true // unreadable: keep the requirement
			return nil
		}
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == path || strings.HasPrefix(p, path+"/") {
				found = true
			}
		}
		return nil
	})
	return found
}
