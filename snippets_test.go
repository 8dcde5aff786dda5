package task_test

import (
	"bufio"
	"bytes"
	"cmp"
	"flag"
	"fmt"
	"go/ast"
	"go/doc"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The Go blocks of README.md and docs/*.md compile, and the sample outputs
// they show are what the code prints. A ```go block may be preceded by a
// marker, an HTML comment on the line just before it (invisible on GitHub
// and pkg.go.dev), that says how it is checked:
//
//	<!-- snippet: from FILE [FUNC] -->
//		The block is code of the repository: its lines, with runs of blanks
//		folded, are consecutive lines of FILE (a path from the repository's
//		root), within the function FUNC if given. The module FILE belongs to
//		compiles it (for bench/, otel/, taskvet/ and temporal/, that module's
//		steps of .ci/run), and if FUNC is an Example or a test, runs it:
//		the preferred form.
//	<!-- snippet: file -->
//		A whole Go file, package clause and imports included.
//	<!-- snippet: decls -->
//		Top-level declarations, without package clause or imports.
//	<!-- snippet: body [func(PARAMS) RESULTS] -->
//		Statements: the body of a function of that signature (by default
//		func(ctx context.Context)).
//
// A Go block without a marker is checked as "from" any .go file of the
// repository that a module builds. (docs/temporal.md's blocks are also
// checked by temporal/guide_test.go, against the temporal module alone.)
//
// file, decls and body blocks are type-checked here, against the packages
// of this repository, the standard library, and errgroup (from the
// workspace). For decls and body, imports are added for the package names
// the block uses (see imports), and the names it uses but does not declare
// come from the fixtures below (loadUser, files, ...), so that a block
// shows only what a reader needs; a variable declared and not used is not
// an error there. Every other compile error is, and fails the test at the
// markdown file's line.
//
// A sample output is preceded by
//
//	<!-- output: FILE FUNC -->
//
// and its block (```text) is the `// Output:` of the example FUNC in FILE,
// line for line, so it cannot drift from what the example prints.

// imports maps the package names that decls and body blocks may use
// without importing them to their import paths.
var imports = map[string]string{
	"atomic":    "sync/atomic",
	"context":   "context",
	"errgroup":  "golang.org/x/sync/errgroup",
	"errors":    "errors",
	"fmt":       "fmt",
	"http":      "net/http",
	"io":        "io",
	"iter":      "iter",
	"log":       "log",
	"os":        "os",
	"pprof":     "runtime/pprof",
	"runtime":   "runtime",
	"signal":    "os/signal",
	"slices":    "slices",
	"slog":      "log/slog",
	"strings":   "strings",
	"sync":      "sync",
	"syscall":   "syscall",
	"task":      "github.com/tasktuple/task",
	"taskdump":  "github.com/tasktuple/task/taskdump",
	"taskpprof": "github.com/tasktuple/task/taskpprof",
	"tasktrace": "github.com/tasktuple/task/tasktrace",
	"time":      "time",
	"trace":     "runtime/trace",
}

// fixtures declares the names that decls and body blocks use without
// declaring them: fake services and inputs. A block gets the declarations
// of the names it uses (and of the names those use), and none of those it
// declares itself.
const fixtures = `package fixtures

type User struct{ Name string }

type Order struct{ ID string }

type Page struct {
	User   User
	Orders []Order
}

type Conn struct{}

func (*Conn) Close() error { return nil }

func loadUser(ctx context.Context) (User, error)        { return User{}, nil }
func loadOrders(ctx context.Context) ([]Order, error)   { return nil, nil }
func loadRecs(ctx context.Context) ([]string, error)    { return nil, nil }
func loadStock(ctx context.Context) (int, error)        { return 0, nil }
func upload(ctx context.Context, file string) error     { return nil }
func size(ctx context.Context, file string) (int64, error) { return 0, nil }
func fetch(ctx context.Context, url string) ([]string, error) { return nil, nil }
func dial(ctx context.Context) (*Conn, error)           { return nil, nil }
func handle(ctx context.Context, job string) error      { return nil }

var (
	files []string
	urls  []string
	root  string
	jobs  chan string
	seen  = &urlSet{}
)

// urlSet is a set of URLs safe for concurrent use.
type urlSet struct {
	mu sync.Mutex
	m  map[string]bool
}

// Add adds url and reports whether it was new.
func (s *urlSet) Add(url string) bool { s.mu.Lock(); defer s.mu.Unlock(); n := !s.m[url]; s.m[url] = true; return n }
`

// A snippet is one marked block of a markdown file.
type snippet struct {
	file string   // the markdown file, from the repository's root
	line int      // of the block's first line of code
	lang string   // after the opening fence
	mark []string // the marker's words: "snippet", "body", ...
	code string
}

func (s snippet) String() string { return s.file + ":" + strconv.Itoa(s.line) }

// TestDocSnippets checks every Go block and sample output of README.md
// and docs/*.md; see the comment at the top of this file.
func TestDocSnippets(t *testing.T) {
	docs, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	docs = append([]string{"README.md"}, docs...)
	sources, err := goSources()
	if err != nil {
		t.Fatal(err)
	}
	var check []snippet
	for _, name := range docs {
		snips, err := readSnippets(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range snips {
			switch {
			case s.mark == nil && s.lang == "go":
				checkUnmarked(t, s, sources)
			case s.mark == nil:
			case s.mark[0] == "output":
				checkOutput(t, s)
			case len(s.mark) > 1 && s.mark[1] == "from":
				checkFrom(t, s)
			default:
				check = append(check, s)
			}
		}
	}
	typeCheck(t, check)
}

// readSnippets returns the fenced blocks of a markdown file, with the
// marker before each, if any.
func readSnippets(name string) ([]snippet, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var (
		out  []snippet
		cur  *snippet
		mark []string
		n    int
	)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		n++
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		switch {
		case cur != nil && trimmed == "```":
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.code += line + "\n"
		case strings.HasPrefix(trimmed, "```"):
			cur = &snippet{file: name, line: n + 1, lang: strings.TrimPrefix(trimmed, "```"), mark: mark}
			mark = nil
		case strings.HasPrefix(trimmed, "<!-- snippet:") || strings.HasPrefix(trimmed, "<!-- output:"):
			words := strings.Fields(strings.TrimSuffix(strings.TrimPrefix(trimmed, "<!--"), "-->"))
			words[0] = strings.TrimSuffix(words[0], ":")
			mark = words
		case trimmed != "":
			mark = nil // a marker is on the line just before its block
		}
	}
	if cur != nil {
		return nil, fmt.Errorf("%s: a block that is never closed", cur)
	}
	return out, sc.Err()
}

// fold trims each line, folds runs of blanks into one space, and drops
// empty lines.
func fold(s string) []string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		if f := strings.Fields(line); len(f) > 0 {
			out = append(out, strings.Join(f, " "))
		}
	}
	return out
}

// parseFunc returns the source of the function name declared in file, a
// path from the repository's root, and the parsed file.
func parseFunc(file, name string) (string, *ast.File, *token.FileSet, error) {
	src, err := os.ReadFile(filepath.FromSlash(file))
	if err != nil {
		return "", nil, nil, err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.ParseComments)
	if err != nil {
		return "", nil, nil, err
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == name {
			return string(src[fset.Position(fd.Pos()).Offset:fset.Position(fd.End()).Offset]), f, fset, nil
		}
	}
	return "", nil, nil, fmt.Errorf("no func %s in %s", name, file)
}

// checkFrom checks a block marked "snippet: from FILE [FUNC]": its lines
// are consecutive lines of FILE, within FUNC if given.
func checkFrom(t *testing.T, s snippet) {
	if len(s.mark) != 3 && len(s.mark) != 4 {
		t.Errorf("%s: want <!-- snippet: from FILE [FUNC] -->, have %q", s, s.mark)
		return
	}
	file, where := s.mark[2], s.mark[2]
	var src string
	if len(s.mark) == 4 {
		var err error
		if src, _, _, err = parseFunc(file, s.mark[3]); err != nil {
			t.Errorf("%s: %v", s, err)
			return
		}
		where = s.mark[3] + " in " + file
	} else {
		b, err := os.ReadFile(filepath.FromSlash(file))
		if err != nil {
			t.Errorf("%s: %v", s, err)
			return
		}
		src = string(b)
	}
	if want := fold(s.code); len(want) == 0 || !containsRun(fold(src), want) {
		t.Errorf("%s: the block is not code of %s:\n%s", s, where, s.code)
	}
}

// goSources returns the folded lines of every .go file of the repository
// that a module builds (not under testdata, not ignored by a build
// constraint), by path.
func goSources() (map[string][]string, error) {
	out := map[string][]string{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != "." && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.Contains(src, []byte("//go:build ignore\n")) {
			return nil
		}
		out[filepath.ToSlash(path)] = fold(string(src))
		return nil
	})
	return out, err
}

// checkUnmarked checks a Go block without a marker: it must be code of
// the repository, consecutive lines of a .go file that a module builds.
func checkUnmarked(t *testing.T, s snippet, sources map[string][]string) {
	want := fold(s.code)
	for _, lines := range sources {
		if len(want) > 0 && containsRun(lines, want) {
			return
		}
	}
	t.Errorf("%s: a Go block without a marker that is not code of the repository: precede it with <!-- snippet: ... --> (see snippets_test.go), or, if it is not Go source (two columns side by side, pseudo-code), fence it as ```text\n%s", s, s.code)
}

// containsRun reports whether lines holds run as consecutive lines.
func containsRun(lines, run []string) bool {
	for i := 0; i+len(run) <= len(lines); i++ {
		if slices.Equal(lines[i:i+len(run)], run) {
			return true
		}
	}
	return false
}

// checkOutput checks a block marked "output: FILE FUNC": it is the output
// of the example FUNC in FILE.
func checkOutput(t *testing.T, s snippet) {
	if len(s.mark) != 3 {
		t.Errorf("%s: want <!-- output: FILE FUNC -->, have %q", s, s.mark)
		return
	}
	file, name := s.mark[1], s.mark[2]
	_, f, _, err := parseFunc(file, name)
	if err != nil {
		t.Errorf("%s: %v", s, err)
		return
	}
	for _, ex := range doc.Examples(f) {
		if "Example"+ex.Name != name {
			continue
		}
		if ex.Output == "" {
			t.Errorf("%s: %s has no // Output: to compare with", s, name)
		} else if strings.TrimSpace(ex.Output) != strings.TrimSpace(s.code) {
			t.Errorf("%s: the block is not the output of %s in %s:\nblock:\n%s\noutput:\n%s", s, name, file, s.code, ex.Output)
		}
		return
	}
	t.Errorf("%s: %s in %s is not an example", s, name, file)
}

// typeCheck type-checks the file, decls and body blocks.
func typeCheck(t *testing.T, snips []snippet) {
	fixDecls, err := parseFixtures()
	if err != nil {
		t.Fatal(err)
	}
	type unit struct {
		s    snippet
		src  string
		deps []string
	}
	var (
		units []unit
		paths = map[string]bool{}
	)
	for _, s := range snips {
		src, deps, err := assemble(s, fixDecls)
		if err != nil {
			t.Errorf("%s: %v", s, err)
			continue
		}
		for _, p := range deps {
			paths[p] = true
		}
		units = append(units, unit{s, src, deps})
	}
	exports, failed := exportData(t, paths)
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		if file, ok := exports[path]; ok {
			return os.Open(file)
		}
		return nil, fmt.Errorf("no export data for %s", path)
	})
	for _, u := range units {
		if p := slices.IndexFunc(u.deps, func(p string) bool { return failed[p] != "" }); p >= 0 {
			// Only a package outside this module can be missing: errgroup
			// without the workspace (GOWORK=off).
			t.Logf("%s: not checked: %s", u.s, failed[u.deps[p]])
			continue
		}
		f, err := parser.ParseFile(fset, u.s.file, u.src, parser.SkipObjectResolution)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		var (
			errs   []string
			unused []token.Pos
		)
		conf := types.Config{
			Importer: imp,
			Error: func(err error) {
				te := err.(types.Error)
				if te.Soft && strings.Contains(te.Msg, "declared and not used") && u.s.mark[1] != "file" {
					unused = append(unused, te.Pos)
					return
				}
				errs = append(errs, te.Error())
			},
		}
		info := &types.Info{Defs: map[*ast.Ident]types.Object{}}
		conf.Check("snippet", fset, []*ast.File{f}, info)
		if len(errs) > 0 {
			t.Errorf("%s: the block does not compile:\n\t%s\n%s", u.s, strings.Join(errs, "\n\t"), u.s.code)
		} else if *snippetsDir != "" {
			writeSnippet(t, u.s, u.src, fset, info, unused)
		}
	}
}

// snippetsDir is where TestDocSnippets writes the file, decls and body
// blocks it type-checks, for taskvet (see .ci/run).
var snippetsDir = flag.String("snippets", "", "TestDocSnippets: write each file, decls and body block, as it is checked, to a package of its own in this folder")

// writeSnippet writes src, the file that holds the block s, to a folder of
// its own in snippetsDir: a package that compiles, its variables declared
// and not used (at unused) used by a "_ = v" at the end of their scope,
// on the line where it ends, so that the //line directive still gives
// each line of the block its line in the markdown file (by its absolute
// path).
func writeSnippet(t *testing.T, s snippet, src string, fset *token.FileSet, info *types.Info, unused []token.Pos) {
	type insert struct {
		at   int
		text string
	}
	var ins []insert
	for id, obj := range info.Defs {
		if obj == nil || !slices.Contains(unused, id.Pos()) {
			continue
		}
		end := fset.PositionFor(obj.Parent().End(), false).Offset
		if end > 0 && src[end-1] == '}' {
			end-- // inside the block that ends the scope
		}
		ins = append(ins, insert{end, "; _ = " + id.Name + ";"})
	}
	if len(ins) != len(unused) {
		t.Errorf("%s: %d variables declared and not used, %d found", s, len(unused), len(ins))
		return
	}
	slices.SortFunc(ins, func(a, b insert) int { return cmp.Or(b.at-a.at, strings.Compare(a.text, b.text)) })
	for _, in := range ins {
		src = src[:in.at] + in.text + src[in.at:]
	}
	// A relative //line path is taken from the file's folder.
	md, err := filepath.Abs(filepath.FromSlash(s.file))
	if err != nil {
		t.Fatal(err)
	}
	src = strings.Replace(src, "//line "+s.file+":", "//line "+filepath.ToSlash(md)+":", 1)
	dir := filepath.Join(*snippetsDir, strings.NewReplacer("/", "_", ".", "_", ":", "_").Replace(s.String()))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "snippet.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}

// parseFixtures returns the declarations of fixtures by the name they
// declare; a method is listed under its receiver's type.
func parseFixtures() (map[string][]string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "fixtures", fixtures, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	decls := map[string][]string{}
	text := func(n ast.Node) string {
		return fixtures[fset.Position(n.Pos()).Offset:fset.Position(n.End()).Offset]
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			name := d.Name.Name
			if d.Recv != nil {
				typ := d.Recv.List[0].Type
				if st, ok := typ.(*ast.StarExpr); ok {
					typ = st.X
				}
				name = typ.(*ast.Ident).Name
			}
			decls[name] = append(decls[name], text(d))
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch spec := spec.(type) {
				case *ast.TypeSpec:
					decls[spec.Name.Name] = append(decls[spec.Name.Name], "type "+text(spec))
				case *ast.ValueSpec:
					for _, n := range spec.Names {
						decls[n.Name] = append(decls[n.Name], d.Tok.String()+" "+text(spec))
					}
				}
			}
		}
	}
	return decls, nil
}

// assemble returns the Go file that holds the block s, with a //line
// directive so that errors are reported at the block's lines, and the
// import paths it needs.
func assemble(s snippet, fixDecls map[string][]string) (string, []string, error) {
	kind := s.mark[1]
	line := fmt.Sprintf("//line %s:%d\n", s.file, s.line)
	if kind == "file" {
		f, err := parser.ParseFile(token.NewFileSet(), s.file, s.code, parser.ImportsOnly)
		if err != nil {
			return "", nil, err
		}
		var deps []string
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			deps = append(deps, p)
		}
		return line + s.code, deps, nil
	}
	var code string
	switch kind {
	case "decls":
		code = line + s.code
	case "body":
		sig := "func(ctx context.Context)"
		if len(s.mark) > 2 {
			sig = strings.Join(s.mark[2:], " ")
		}
		if !strings.HasPrefix(sig, "func(") {
			return "", nil, fmt.Errorf("want <!-- snippet: body func(PARAMS) RESULTS -->, have %q", s.mark)
		}
		code = "func _" + strings.TrimPrefix(sig, "func") + " {\n" + line + s.code + "}\n"
	default:
		return "", nil, fmt.Errorf("unknown marker %q: want from, file, decls or body", s.mark)
	}
	// Add fixtures for the names the code uses and does not declare, then
	// imports for the package names left.
	added := map[string]bool{}
	var fix []string
	for {
		src := "package snippet\n\n" + code + "\n//line fixtures.go:1\n" + strings.Join(fix, "\n")
		f, err := parser.ParseFile(token.NewFileSet(), s.file, src, 0)
		if err != nil {
			return "", nil, err
		}
		more := false
		var deps []string
		for _, id := range f.Unresolved {
			if decls, ok := fixDecls[id.Name]; ok && !added[id.Name] {
				added[id.Name] = true
				fix = append(fix, decls...)
				// A type's methods may name more fixtures.
				more = true
			} else if p, ok := imports[id.Name]; ok && !slices.Contains(deps, p) {
				deps = append(deps, p)
			}
		}
		if more {
			continue
		}
		slices.Sort(deps)
		var b strings.Builder
		b.WriteString("package snippet\n\n")
		for _, p := range deps {
			fmt.Fprintf(&b, "import %q\n", p)
		}
		b.WriteString("\n" + code + "\n//line fixtures.go:1\n" + strings.Join(fix, "\n") + "\n")
		return b.String(), deps, nil
	}
}

// exportData returns the export data files of the packages paths and
// their dependencies, from go list -export, and the packages it could not
// provide with why.
func exportData(t *testing.T, paths map[string]bool) (exports, failed map[string]string) {
	exports, failed = map[string]string{}, map[string]string{}
	if len(paths) == 0 {
		return
	}
	// go test puts the go command of its own toolchain first in PATH, so
	// that the export data is in the format of the test's go/importer.
	goTool := "go"
	list := func(ps []string) ([]byte, error) {
		args := append([]string{"list", "-e", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}\t{{with .Error}}{{.Err}}{{end}}"}, ps...)
		cmd := exec.Command(goTool, args...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("go list: %v\n%s", err, stderr.Bytes())
		}
		return out, nil
	}
	var ps []string
	for p := range paths {
		ps = append(ps, p)
	}
	slices.Sort(ps)
	out, err := list(ps)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		f := append(strings.SplitN(line, "\t", 3), "", "")
		switch {
		case f[2] != "":
			failed[f[0]] = f[2]
		case f[1] != "":
			exports[f[0]] = f[1]
		}
	}
	for _, p := range ps {
		if exports[p] == "" && failed[p] == "" {
			failed[p] = "no export data for " + p
		}
		if failed[p] != "" && !strings.Contains(p, ".") {
			t.Errorf("standard library package %s: %s", p, failed[p])
		}
		if failed[p] != "" && strings.HasPrefix(p, "github.com/tasktuple/task") {
			t.Errorf("%s does not build: %s", p, failed[p])
		}
	}
	return
}

// TestReadmeCommands: the README's test command is the one CI runs.
func TestReadmeCommands(t *testing.T) {
	ci, err := os.ReadFile(".ci/run")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	var cmd string
	for _, line := range strings.Split(string(ci), "\n") {
		if strings.HasPrefix(line, "go test -race ./... ") {
			cmd = line
		}
	}
	if cmd == "" {
		t.Fatal(".ci/run has no line that begins with go test -race ./...")
	}
	if !bytes.Contains(readme, []byte("\n"+cmd+"\n")) {
		t.Errorf("README.md does not show the test command of .ci/run:\n%s", cmd)
	}
	if !bytes.Contains(readme, []byte("\ngo run ./example\n")) || !bytes.Contains(ci, []byte("\ngo run ./example\n")) {
		t.Errorf("README.md and .ci/run should both run go run ./example")
	}
}
