package taskvet

import (
	"bufio"
	"bytes"
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// The kinds of import, in the order of their sections: the standard
// library, third-party packages, the module's own (and what its
// golangci-lint configuration makes local).
const (
	kindStd = iota
	kindThird
	kindLocal
)

// importSections returns the specs of an import declaration in sections:
// runs of specs that no blank line separates, as gofmt sorts them.
func importSections(fset *token.FileSet, gd *ast.GenDecl) [][]*ast.ImportSpec {
	var sections [][]*ast.ImportSpec
	last := 0
	for _, s := range gd.Specs {
		spec := s.(*ast.ImportSpec)
		line := fset.PositionFor(spec.Pos(), false).Line
		if spec.Doc != nil {
			line = fset.PositionFor(spec.Doc.Pos(), false).Line
		}
		if len(sections) == 0 || line > last+1 {
			sections = append(sections, nil)
		}
		sections[len(sections)-1] = append(sections[len(sections)-1], spec)
		last = fset.PositionFor(spec.End(), false).Line
	}
	return sections
}

// importKinds returns the function that tells the kind of an import path
// in the importer's file: standard if its first element has no dot; local
// if it is, or is below, the module's path (the package path's first two
// elements, three for a code host, where the driver gives no module) or a
// prefix that the module's golangci-lint configuration makes local (gci's
// prefix(...) sections, goimports' local-prefixes); else third-party.
func (im *importer) importKinds() func(path string) int {
	local := localPrefixes(filepath.Dir(im.s.pass.Fset.File(im.file.Pos()).Name()))
	if m := im.s.pass.Module; m != nil && m.Path != "" {
		local = append(local, m.Path)
	} else if p := guessModule(im.s.pass.Pkg.Path()); p != "" {
		local = append(local, p)
	}
	return func(path string) int {
		if !strings.Contains(strings.Split(path, "/")[0], ".") {
			return kindStd
		}
		for _, l := range local {
			if path == l || strings.HasPrefix(path, strings.TrimSuffix(l, "/")+"/") {
				return kindLocal
			}
		}
		return kindThird
	}
}

// guessModule returns the probable module path of a package path: its
// first three elements on a code host, two elsewhere, none for a path
// without a domain.
func guessModule(pkg string) string {
	elems := strings.Split(pkg, "/")
	if !strings.Contains(elems[0], ".") {
		return ""
	}
	n := 2
	switch elems[0] {
	case "github.com", "gitlab.com", "bitbucket.org", "codeberg.org":
		n = 3
	}
	if len(elems) < n {
		return ""
	}
	return strings.Join(elems[:n], "/")
}

// golangciConfigs are the names of golangci-lint's configuration file.
var golangciConfigs = []string{".golangci.yml", ".golangci.yaml", ".golangci.toml", ".golangci.json"}

var localCache sync.Map // directory -> []string

// localPrefixes returns the import path prefixes that the golangci-lint
// configuration of the module that holds dir makes local: the first
// configuration file found in dir or above it, up to the directory of
// go.mod.
func localPrefixes(dir string) []string {
	if v, ok := localCache.Load(dir); ok {
		return v.([]string)
	}
	var prefixes []string
	for d := dir; ; {
		found := false
		for _, name := range golangciConfigs {
			if src, err := os.ReadFile(filepath.Join(d, name)); err == nil {
				prefixes, found = parseLocalPrefixes(src), true
				break
			}
		}
		if found {
			break
		}
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			break
		}
		up := filepath.Dir(d)
		if up == d {
			break
		}
		d = up
	}
	localCache.Store(dir, prefixes)
	return prefixes
}

var gciPrefix = regexp.MustCompile(`prefix\(([^)]*)\)`)

// parseLocalPrefixes reads, in a golangci-lint configuration (YAML, TOML
// or JSON, read as lines), gci's prefix(...) sections and goimports'
// local-prefixes, a comma-separated string or a list.
func parseLocalPrefixes(src []byte) []string {
	var out []string
	add := func(list string) {
		for _, p := range strings.Split(list, ",") {
			p = strings.Trim(strings.TrimSpace(p), `"'`)
			if p != "" {
				out = append(out, p)
			}
		}
	}
	for _, m := range gciPrefix.FindAllSubmatch(src, -1) {
		add(string(m[1]))
	}
	sc := bufio.NewScanner(bytes.NewReader(src))
	inList := false
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if inList {
			if item, ok := strings.CutPrefix(line, "-"); ok {
				add(item)
				continue
			}
			inList = false
		}
		key, value, ok := strings.Cut(line, "local-prefixes")
		if !ok || strings.HasPrefix(strings.TrimSpace(key), "#") {
			continue
		}
		value = strings.TrimSpace(strings.TrimLeft(value, `"' :=`))
		switch {
		case value == "":
			inList = true
		case value[0] == '[':
			list, _, _ := strings.Cut(value[1:], "]")
			add(list)
		case value[0] == '"':
			if q, err := strconv.QuotedPrefix(value); err == nil {
				u, _ := strconv.Unquote(q)
				add(u)
			}
		default:
			add(value)
		}
	}
	return out
}
