package main

import (
	"fmt"
	"go/build"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"io"
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

// reportIgnored prints, for each file of the packages that the build
// configuration leaves out (//go:build ignore, _windows.go on Linux) and
// that imports errgroup, one line saying that it was not analyzed and the
// command that analyzes it. The analyzers see the files of one build
// configuration only: without this line, a group in such a file would be
// neither migrated nor reported. It returns how many it printed.
func reportIgnored(w io.Writer, patterns []string) int {
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedFiles, Tests: true}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return 0 // the analysis run reports it
	}
	var files []string
	for _, p := range pkgs {
		for _, f := range p.IgnoredFiles {
			if !strings.HasSuffix(f, ".go") || slices.Contains(files, f) || !importsErrgroup(f) {
				continue
			}
			files = append(files, f)
		}
	}
	slices.Sort(files)
	var pairs []platform
	for _, f := range files {
		if pairs == nil {
			pairs = platforms()
		}
		fmt.Fprintf(w, "%s: imports %s and is not analyzed: its build constraints exclude it from this build (GOOS=%s GOARCH=%s); to analyze it, run %s\n",
			relative(f), errgroupPath, build.Default.GOOS, build.Default.GOARCH, howToLoad(f, pairs))
	}
	return len(files)
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

// platforms returns the pairs of go tool dist list, this machine's first,
// then those of its GOARCH, so that a file for another system is analyzed
// with the machine's architecture where it can be.
func platforms() []platform {
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
		case p.goos == runtime.GOOS && p.goarch == runtime.GOARCH:
			return 0
		case p.goarch == runtime.GOARCH:
			return 1
		}
		return 2
	}
	slices.SortStableFunc(ps, func(a, b platform) int { return rank(a) - rank(b) })
	return ps
}

// howToLoad returns the command that analyzes the file: with the GOOS and
// GOARCH of a platform whose build takes it, and the tags of its
// //go:build line that name no platform; or, for a file that no build
// takes (//go:build ignore, a generator), taskvet on the file itself,
// which the go command loads whatever its constraints.
func howToLoad(name string, pairs []platform) string {
	dir, base := filepath.Split(name)
	tags := buildTags(name, pairs)
	for _, p := range pairs {
		ctx := build.Default
		ctx.GOOS, ctx.GOARCH, ctx.CgoEnabled = p.goos, p.goarch, true
		ctx.BuildTags = tags
		if ok, err := ctx.MatchFile(dir, base); err != nil || !ok {
			continue
		}
		var env []string
		if p.goos != build.Default.GOOS {
			env = append(env, "GOOS="+p.goos)
		}
		if p.goarch != build.Default.GOARCH {
			env = append(env, "GOARCH="+p.goarch)
		}
		if len(tags) > 0 {
			env = append(env, "GOFLAGS=-tags="+strings.Join(tags, ","))
		}
		pkg := filepath.ToSlash(relative(filepath.Clean(dir)))
		if pkg != "." && !filepath.IsAbs(pkg) {
			pkg = "./" + pkg
		}
		return strings.Join(append(env, "taskvet", pkg), " ")
	}
	return "taskvet " + relative(name) + " (a file that no build takes, loaded as a package of its own)"
}

// buildTags returns the tags of the file's //go:build line that name
// neither a platform, a Go release, nor "ignore".
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
		walkTags(expr, func(tag string) {
			if !known[tag] && !strings.HasPrefix(tag, "go1.") && !slices.Contains(tags, tag) {
				tags = append(tags, tag)
			}
		})
	}
	return tags
}

// walkTags calls f for each tag of the expression.
func walkTags(expr constraint.Expr, f func(string)) {
	switch x := expr.(type) {
	case *constraint.TagExpr:
		f(x.Tag)
	case *constraint.NotExpr:
		walkTags(x.X, f)
	case *constraint.AndExpr:
		walkTags(x.X, f)
		walkTags(x.Y, f)
	case *constraint.OrExpr:
		walkTags(x.X, f)
		walkTags(x.Y, f)
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
