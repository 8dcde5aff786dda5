package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"golang.org/x/mod/modfile"
)

// taskModule is the module that the fixes import.
const taskModule = "github.com/tasktuple/task"

// A mainModule is the module taskvet -fix runs in, as go mod edit -json
// shows its go.mod.
type mainModule struct {
	dir        string // the directory of go.mod
	goVersion  string // its go line, "" if none
	requires   bool   // it requires taskModule
	replaced   bool   // it replaces taskModule (with no version: any) by a directory
	replaceDir string // that directory
}

// findMainModule reads the go.mod of the module in the current directory;
// ok is false outside a module.
func findMainModule() (m mainModule, ok bool) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	gomod := strings.TrimSpace(string(out))
	if err != nil || gomod == "" || gomod == os.DevNull {
		return m, false
	}
	js, err := exec.Command("go", "mod", "edit", "-json", gomod).Output()
	if err != nil {
		return m, false
	}
	var f struct {
		Go      string
		Require []struct{ Path string }
		Replace []struct {
			Old struct{ Path, Version string }
			New struct{ Path, Version string }
		}
	}
	if json.Unmarshal(js, &f) != nil {
		return m, false
	}
	m.dir = filepath.Dir(gomod)
	for _, r := range f.Require {
		m.requires = m.requires || r.Path == taskModule
	}
	m.goVersion = f.Go
	for _, r := range f.Replace {
		if r.Old.Path == taskModule && r.Old.Version == "" {
			m.replaced = true
			m.replaceDir = r.New.Path
			if r.New.Version == "" && !filepath.IsAbs(m.replaceDir) {
				m.replaceDir = filepath.Join(m.dir, m.replaceDir)
			}
		}
	}
	return m, true
}

// importsTask reports whether a Go file of the module (outside vendor and
// testdata, and nested modules) imports the task package or one of its
// packages.
func importsTask(dir string) bool {
	found := false
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || found {
			return filepath.SkipDir
		}
		if d.IsDir() {
			if path != dir {
				switch d.Name() {
				case "vendor", "testdata", ".git":
					return filepath.SkipDir
				}
				if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err == nil && (strings.Contains(string(src), `"`+taskModule+`"`) || strings.Contains(string(src), `"`+taskModule+`/`)) {
			found = true
		}
		return nil
	})
	return found
}

// require makes the module require taskModule once the fixes import it, as
// go get would: with go get of the README's version, or, where go.mod
// replaces the module by a directory, the version go mod tidy writes for
// such a replace. It reports whether the module requires it now; if not,
// it has printed the one line to run.
func (m *mainModule) require() bool {
	if m.requires || !importsTask(m.dir) {
		return true
	}
	to := m.goLineMove(os.Stderr)
	name := filepath.Join(m.dir, "go.mod")
	if m.replaced {
		// As go mod tidy writes it: the version of a replaced module,
		// and the go line raised to the module's.
		if err := requireReplaced(name, to); err != nil {
			fmt.Fprintf(os.Stderr, "taskvet: the fixes import %s, which this module does not require, and adding it to %s failed (%v): run go mod tidy, then taskvet again\n", taskModule, name, err)
			return false
		}
		fmt.Fprintf(os.Stderr, "taskvet: the fixes import %s: added it to %s (%s %s, as go mod tidy writes a replaced module)\n", taskModule, name, taskModule, zeroVersion)
		m.requires = true
		return true
	}
	cmd := exec.Command("go", "get", taskModule+"@"+taskQuery())
	cmd.Dir = m.dir
	if out, err := cmd.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "taskvet: the fixes import %s, which this module does not require, and %q failed (%s): run %s, then taskvet again\n",
			taskModule, strings.Join(cmd.Args, " "), firstLine(out, err), getLine())
		return false
	}
	fmt.Fprintf(os.Stderr, "taskvet: the fixes import %s: added it to %s (%s)\n", taskModule, name, strings.Join(cmd.Args, " "))
	m.requires = true
	return true
}

// zeroVersion is the version go mod tidy writes for a module that a
// replace by a directory provides.
const zeroVersion = "v0.0.0-00010101000000-000000000000"

// requireReplaced adds the requirement of taskModule at zeroVersion to the
// go.mod file name, in the block where go mod tidy would put it, and moves
// its go line to goLine unless that is "".
func requireReplaced(name, goLine string) error {
	data, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	f, err := modfile.Parse(name, data, nil)
	if err != nil {
		return err
	}
	setRequire(f, taskModule, zeroVersion, false)
	if goLine != "" {
		if err := f.AddGoStmt(goLine); err != nil {
			return err
		}
	}
	out, err := f.Format()
	if err != nil {
		return err
	}
	return os.WriteFile(name, out, 0o644)
}

func firstLine(out []byte, err error) string {
	s := strings.TrimSpace(string(out))
	if s == "" {
		return err.Error()
	}
	line, _, _ := strings.Cut(s, "\n")
	return line
}
