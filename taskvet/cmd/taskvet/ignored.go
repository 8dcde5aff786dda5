package main

import (
	"fmt"
	"go/build"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// errgroupPath is the package whose users the errgroupfix analyzer migrates.
const errgroupPath = "golang.org/x/sync/errgroup"

// An environment is the configuration of one more run of the analysis: the
// platform and tags of a build that takes files this build leaves out.
type environment struct {
	vars  []string // GOOS=, GOARCH=, CGO_ENABLED= where they differ from this build's
	tags  []string // the tags that its files' //go:build lines require, but platforms
	files []string // the files left out of this build that it takes
	alone bool     // files is one file that no build takes, loaded as a package of its own
}

// how says how the environment's files are loaded, after their names in
// "taskvet: fixing FILES how".
func (e environment) how() string {
	if e.alone {
		return "as a package of its own (no build takes it)"
	}
	return "with " + e.String()
}

// String returns the variables that select the environment, as a shell
// would set them.
func (e environment) String() string {
	s := slices.Clone(e.vars)
	if len(e.tags) > 0 {
		s = append(s, "GOFLAGS=-tags="+strings.Join(e.tags, ","))
	}
	return strings.Join(s, " ")
}

// environ returns the variables to add to a run's environment: those of
// the environment, its tags added to the GOFLAGS of this build (a
// variable set for the run replaces the go env file's), and childEnv.
func (e environment) environ() []string {
	env := slices.Clone(e.vars)
	if len(e.tags) > 0 {
		env = append(env, "GOFLAGS="+withTags(goEnv("GOFLAGS"), e.tags))
	}
	return append(env, childEnv+"=1")
}

// withTags returns the GOFLAGS value flags with tags added to its -tags.
func withTags(flags string, tags []string) string {
	var out []string
	for _, f := range strings.Fields(flags) {
		name, value, _ := strings.Cut(strings.TrimLeft(f, "-"), "=")
		if name != "tags" {
			out = append(out, f)
			continue
		}
		for _, t := range strings.Split(value, ",") {
			if t != "" && !slices.Contains(tags, t) {
				tags = append(slices.Clone(tags), t)
			}
		}
	}
	return strings.Join(append(out, "-tags="+strings.Join(tags, ",")), " ")
}

// patterns returns the package directories of the environment's files, or
// the file of an environment alone.
func (e environment) patterns() []string {
	if e.alone {
		f := filepath.ToSlash(relative(e.files[0]))
		if !filepath.IsAbs(f) && !strings.HasPrefix(f, ".") {
			f = "./" + f
		}
		return []string{f}
	}
	var dirs []string
	for _, f := range e.files {
		dir := filepath.ToSlash(relative(filepath.Dir(f)))
		if dir != "." && !filepath.IsAbs(dir) {
			dir = "./" + dir
		}
		if !slices.Contains(dirs, dir) {
			dirs = append(dirs, dir)
		}
	}
	return dirs
}

// fileList names the environment's files.
func (e environment) fileList() string {
	var names []string
	for _, f := range e.files {
		names = append(names, relative(f))
	}
	return strings.Join(names, ", ")
}

// reportIgnored finds, in the packages of patterns, the files that the
// build configuration leaves out (//go:build ignore, _windows.go on Linux)
// and that import errgroup, test files only if tests. The analyzers see
// the files of one build configuration only: without another run, a group
// in such a file would be neither migrated nor reported. It returns the
// environments that take them, one per distinct platform and tags, for
// the caller to run the analysis in. A file that no build takes (a
// generator behind //go:build ignore, run with go run gen.go) is loaded as
// a package of its own, as the go command builds it when named, in an
// environment of its own; if it does not build so, or is a test file, it
// prints one line saying that it is not analyzed and why.
func reportIgnored(w io.Writer, patterns []string, tests bool) []environment {
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedFiles, Tests: tests}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil // the analysis run reports it
	}
	// ./... leaves out the directories whose files the build leaves out
	// all (a package of _windows.go files): load them by name.
	if dirs := unloadedDirs(patterns, pkgs); len(dirs) > 0 {
		if more, err := packages.Load(cfg, dirs...); err == nil {
			pkgs = append(pkgs, more...)
		}
	}
	var files []string
	for _, p := range pkgs {
		for _, f := range p.IgnoredFiles {
			if !strings.HasSuffix(f, ".go") || (!tests && strings.HasSuffix(f, "_test.go")) || slices.Contains(files, f) || !importsErrgroup(f) {
				continue
			}
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		return nil
	}
	slices.Sort(files)
	b := currentBuild()
	pairs := b.platforms()
	var envs []environment
	for _, f := range files {
		vars, tags, ok := b.howToLoad(f, pairs)
		if !ok {
			if strings.HasSuffix(f, "_test.go") {
				fmt.Fprintf(w, "%s: imports %s and is not analyzed: no build takes it (GOOS=%s GOARCH=%s), and a test file is not loaded on its own\n",
					relative(f), errgroupPath, b.goos, b.goarch)
				continue
			}
			if out, err := buildAlone(f); err != nil {
				fmt.Fprintf(w, "%s: imports %s and is not analyzed: no build takes it (GOOS=%s GOARCH=%s), and it does not build as a package of its own (go build %s: %s)\n",
					relative(f), errgroupPath, b.goos, b.goarch, filepath.Base(f), firstLine(out, err))
				continue
			}
			envs = append(envs, environment{files: []string{f}, alone: true})
			continue
		}
		i := slices.IndexFunc(envs, func(e environment) bool { return slices.Equal(e.vars, vars) && slices.Equal(e.tags, tags) })
		if i < 0 {
			i = len(envs)
			envs = append(envs, environment{vars: vars, tags: tags})
		}
		envs[i].files = append(envs[i].files, f)
	}
	return envs
}

// buildAlone builds the Go file name as the go command does when it is
// named (go build gen.go, go run gen.go): as a package of its own, whatever
// its build constraints.
func buildAlone(name string) ([]byte, error) {
	cmd := exec.Command("go", "build", "-o", os.DevNull, filepath.Base(name))
	cmd.Dir = filepath.Dir(name)
	return cmd.CombinedOutput()
}

// unloadedDirs returns, for the patterns that end in /... and name a
// directory, the directories below it that hold Go files and that no
// package of pkgs is in, as the go command matches them (not testdata,
// vendor, nor a directory whose name begins with . or _, nor another
// module).
func unloadedDirs(patterns []string, pkgs []*packages.Package) []string {
	loaded := map[string]bool{}
	for _, p := range pkgs {
		for _, list := range [][]string{p.GoFiles, p.OtherFiles, p.IgnoredFiles} {
			for _, f := range list {
				loaded[filepath.Dir(f)] = true
			}
		}
	}
	var dirs []string
	for _, pat := range patterns {
		root, ok := strings.CutSuffix(pat, "/...")
		if !ok || strings.Contains(root, "...") || !(build.IsLocalImport(root) || filepath.IsAbs(root)) {
			continue
		}
		root, err := filepath.Abs(root)
		if err != nil {
			continue
		}
		filepath.WalkDir(root, func(name string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() {
				if name != root {
					if n := d.Name(); n == "testdata" || n == "vendor" || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_") {
						return filepath.SkipDir
					}
					if _, err := os.Stat(filepath.Join(name, "go.mod")); err == nil {
						return filepath.SkipDir
					}
				}
				return nil
			}
			dir := filepath.Dir(name)
			if strings.HasSuffix(name, ".go") && !loaded[dir] {
				loaded[dir] = true
				p := filepath.ToSlash(relative(dir))
				if !filepath.IsAbs(p) {
					p = "./" + p
				}
				dirs = append(dirs, p)
			}
			return nil
		})
	}
	return dirs
}

// importsErrgroup reports whether the Go file imports errgroup.
func importsErrgroup(name string) bool {
	f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
	if err != nil {
		return false
	}
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == errgroupPath {
			return true
		}
	}
	return false
}

// A platform is a GOOS/GOARCH pair the toolchain builds for.
type platform struct{ goos, goarch string }

// A buildConfig is the configuration of this build, as the go command
// reads it from the environment and the go env file.
type buildConfig struct {
	goos, goarch string
	cgo          bool
}

func currentBuild() buildConfig {
	b := buildConfig{goos: build.Default.GOOS, goarch: build.Default.GOARCH, cgo: build.Default.CgoEnabled}
	if out, err := exec.Command("go", "env", "GOOS", "GOARCH", "CGO_ENABLED").Output(); err == nil {
		if f := strings.Fields(string(out)); len(f) == 3 {
			b.goos, b.goarch, b.cgo = f[0], f[1], f[2] == "1"
		}
	}
	return b
}

// goEnv returns the value of a go env variable, "" if it cannot be read.
func goEnv(name string) string {
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// platforms returns the pairs of go tool dist list, this build's first,
// then those of its GOARCH, then those of its GOOS, so that a file for
// another system is analyzed with this build's architecture where it can
// be (windows/amd64 on linux/amd64, not windows/386), and one for another
// architecture with its system (linux/arm64, not android/arm64).
func (b buildConfig) platforms() []platform {
	out, err := exec.Command("go", "tool", "dist", "list").Output()
	if err != nil {
		return nil
	}
	var ps []platform
	for line := range strings.Lines(string(out)) {
		if goos, goarch, ok := strings.Cut(strings.TrimSpace(line), "/"); ok {
			ps = append(ps, platform{goos, goarch})
		}
	}
	rank := func(p platform) int {
		switch {
		case p.goos == b.goos && p.goarch == b.goarch:
			return 0
		case p.goarch == b.goarch:
			return 1
		case p.goos == b.goos:
			return 2
		}
		return 3
	}
	slices.SortStableFunc(ps, func(a, b platform) int { return rank(a) - rank(b) })
	return ps
}

// defaultCgo reports whether the go command builds for p with cgo when
// CGO_ENABLED is not set for the run: as this build does for its own
// platform; for another, as CGO_ENABLED in the environment says, and else
// only natively, as the go command does.
func (b buildConfig) defaultCgo(p platform) bool {
	if p.goos == b.goos && p.goarch == b.goarch {
		return b.cgo
	}
	if v := os.Getenv("CGO_ENABLED"); v != "" {
		return v == "1"
	}
	return p.goos == runtime.GOOS && p.goarch == runtime.GOARCH
}

// howToLoad returns the environment that takes the file: the GOOS and
// GOARCH of the first platform whose build takes it, with cgo as the go
// command sets it for that platform or else set the other way
// (CGO_ENABLED=), and the tags of its //go:build line that name no
// platform. ok is false for a file that no build takes (//go:build
// ignore, a generator), or one that this build's configuration would
// take: nothing loads it but the go command given the file itself.
func (b buildConfig) howToLoad(name string, pairs []platform) (vars, tags []string, ok bool) {
	dir, base := filepath.Split(name)
	tags = buildTags(name, pairs)
	match := func(p platform, cgo bool) bool {
		ctx := build.Default
		ctx.GOOS, ctx.GOARCH, ctx.CgoEnabled = p.goos, p.goarch, cgo
		ctx.BuildTags = tags
		ok, err := ctx.MatchFile(dir, base)
		return err == nil && ok
	}
	for _, p := range pairs {
		for _, flip := range []bool{false, true} {
			cgo := b.defaultCgo(p) != flip
			if !match(p, cgo) {
				continue
			}
			if p.goos != b.goos {
				vars = append(vars, "GOOS="+p.goos)
			}
			if p.goarch != b.goarch {
				vars = append(vars, "GOARCH="+p.goarch)
			}
			if flip {
				vars = append(vars, "CGO_ENABLED="+map[bool]string{false: "0", true: "1"}[cgo])
			}
			return vars, tags, len(vars) > 0 || len(tags) > 0
		}
	}
	return nil, nil, false
}

// buildTags returns the tags that the file's //go:build line requires
// (not under a !) and that name neither a platform, a Go release, nor
// "ignore".
func buildTags(name string, pairs []platform) []string {
	src, err := os.ReadFile(name)
	if err != nil {
		return nil
	}
	known := map[string]bool{"ignore": true, "cgo": true, "gc": true, "gccgo": true, "unix": true}
	for _, p := range pairs {
		known[p.goos], known[p.goarch] = true, true
	}
	var tags []string
	for line := range strings.Lines(string(src)) {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "package ") {
			break
		}
		if !constraint.IsGoBuild(line) {
			continue
		}
		expr, err := constraint.Parse(line)
		if err != nil {
			return nil
		}
		walkTags(expr, false, func(tag string) {
			if !known[tag] && !strings.HasPrefix(tag, "go1.") && !slices.Contains(tags, tag) {
				tags = append(tags, tag)
			}
		})
	}
	return tags
}

// walkTags calls f for each tag of the expression that is not negated
// (under an even number of !).
func walkTags(expr constraint.Expr, negated bool, f func(string)) {
	switch x := expr.(type) {
	case *constraint.TagExpr:
		if !negated {
			f(x.Tag)
		}
	case *constraint.NotExpr:
		walkTags(x.X, !negated, f)
	case *constraint.AndExpr:
		walkTags(x.X, negated, f)
		walkTags(x.Y, negated, f)
	case *constraint.OrExpr:
		walkTags(x.X, negated, f)
		walkTags(x.Y, negated, f)
	}
}

// relative returns name relative to the current directory, where it is
// below it.
func relative(name string) string {
	wd, err := os.Getwd()
	if err != nil {
		return name
	}
	if rel, err := filepath.Rel(wd, name); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return name
}
