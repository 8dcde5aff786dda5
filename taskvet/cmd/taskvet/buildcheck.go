package main

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// A snapshot holds the Go files of a tree as they were before the fixes:
// the files of the directories below root, but those of vendor, testdata,
// hidden directories and nested modules.
type snapshot struct {
	root  string
	files map[string][]byte // by absolute path
}

// takeSnapshot reads the Go files below root.
func takeSnapshot(root string) *snapshot {
	s := &snapshot{root: root, files: map[string][]byte{}}
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			name := d.Name()
			if path != root && (name == "vendor" || name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			if path != root {
				if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") {
			if b, err := os.ReadFile(path); err == nil {
				s.files[path] = b
			}
		}
		return nil
	})
	return s
}

// A changedPackage is a directory whose Go files the fixes changed, with
// the environments whose builds take them: this build's (nil) if it takes
// one of them, and that of each file that this build leaves out.
type changedPackage struct {
	dir   string
	envs  []*environment
	files []string // absolute paths
	tests bool     // a _test.go file is among them
}

// changed returns the packages whose files differ from the snapshot, in
// the order of their directories.
func (s *snapshot) changed(envs []environment) []*changedPackage {
	envOf := func(path string) *environment {
		for i := range envs {
			for _, f := range envs[i].files {
				if abs, err := filepath.Abs(f); err == nil && abs == path {
					return &envs[i]
				}
			}
		}
		return nil
	}
	byDir := map[string]*changedPackage{}
	var pkgs []*changedPackage
	for path, old := range s.files {
		now, err := os.ReadFile(path)
		if err == nil && bytes.Equal(now, old) {
			continue
		}
		p := byDir[filepath.Dir(path)]
		if p == nil {
			p = &changedPackage{dir: filepath.Dir(path)}
			byDir[p.dir] = p
			pkgs = append(pkgs, p)
		}
		// This build's (nil) where it takes the file.
		if e := envOf(path); !slices.Contains(p.envs, e) {
			p.envs = append(p.envs, e)
		}
		p.files = append(p.files, path)
		p.tests = p.tests || strings.HasSuffix(path, "_test.go")
	}
	for _, p := range pkgs {
		slices.Sort(p.files)
	}
	slices.SortFunc(pkgs, func(a, b *changedPackage) int { return strings.Compare(a.dir, b.dir) })
	return pkgs
}

// build builds the package (and its tests, if a test file changed) in each
// of its environments, and returns the go command's output if that fails.
func (p *changedPackage) build() (string, bool) {
	for _, e := range p.envs {
		env := os.Environ()
		prefix := ""
		cmds := [][]string{{"go", "build", "-o", os.DevNull, "."}}
		if e != nil {
			env = append(env, e.vars...)
			if len(e.tags) > 0 {
				env = append(env, "GOFLAGS="+withTags(goEnv("GOFLAGS"), e.tags))
			}
			prefix = e.how() + ": "
		}
		if e != nil && e.alone {
			cmds = [][]string{{"go", "build", "-o", os.DevNull, filepath.Base(e.files[0])}}
		} else if p.tests {
			cmds = append(cmds, []string{"go", "test", "-c", "-o", os.DevNull, "."})
		}
		for _, args := range cmds {
			cmd := exec.Command(args[0], args[1:]...)
			cmd.Dir, cmd.Env = p.dir, env
			if out, err := cmd.CombinedOutput(); err != nil {
				return prefix + strings.TrimSpace(string(out)), false
			}
		}
	}
	return "", true
}

// checkBuilds builds each package that the fixes changed. Where one does
// not build, it puts back the package's files as they were before the
// fixes and builds it again: if it builds so, it says that it undid the
// fixes and why; if not, the package did not build before the fixes
// either, and their files stay fixed. It returns 1 if it undid any fix,
// else 0.
func checkBuilds(w io.Writer, s *snapshot, envs []environment) int {
	code := 0
	for _, p := range s.changed(envs) {
		out, ok := p.build()
		if ok {
			continue
		}
		fixed := map[string][]byte{}
		for _, f := range p.files {
			if b, err := os.ReadFile(f); err == nil {
				fixed[f] = b
			}
			if err := os.WriteFile(f, s.files[f], 0o666); err != nil {
				fmt.Fprintln(w, "taskvet:", err)
			}
		}
		where := p.dir
		if rel, err := filepath.Rel(s.root, p.dir); err == nil {
			where = "./" + filepath.ToSlash(rel)
		}
		if before, ok := p.build(); !ok {
			for f, b := range fixed {
				if err := os.WriteFile(f, b, 0o666); err != nil {
					fmt.Fprintln(w, "taskvet:", err)
				}
			}
			fmt.Fprintf(w, "taskvet: %s does not build after the fixes, nor as it was before them: kept the fixes of %s; before them:\n%s\n", where, fileNames(p.files), indentLines(before))
			continue
		}
		code = 1
		fmt.Fprintf(w, "taskvet: undid the fixes of %s: %s builds as it was and did not build after them, the go command said:\n%s\n", fileNames(p.files), where, indentLines(out))
	}
	return code
}

// fileNames returns the base names of files, comma separated.
func fileNames(files []string) string {
	var names []string
	for _, f := range files {
		names = append(names, filepath.Base(f))
	}
	return strings.Join(names, ", ")
}

// indentLines indents each line of s by a tab.
func indentLines(s string) string {
	return "\t" + strings.ReplaceAll(s, "\n", "\n\t")
}
