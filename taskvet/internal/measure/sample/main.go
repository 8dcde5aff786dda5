// Command sample picks, by a rule fixed before any result was seen, the
// modules that measure runs taskvet on when nobody on the team chose them.
//
// The rule:
//
//  1. Read the module list (default
//     /work/.library/env/packages/go-partial.tsv: tab separated, a header
//     line, column 1 the module path, column 2 the newest version that go
//     get accepted, or a word such as not-served or untested). Take every
//     row whose column 2 is a semantic version (it starts with "v").
//  2. Order those rows by the hex SHA-256 of the module path (column 1
//     exactly as written, no newline), ascending.
//  3. Walk that order. Download each module at its column-2 version
//     (go mod download -json path@version, which gives its directory in
//     the module cache). A module that does not download is skipped
//     ("no download"; the download is tried twice).
//  4. Look at its production code: the .go files that do not end in
//     _test.go, outside any directory named testdata or vendor, and
//     outside nested modules (a subdirectory with its own go.mod, and
//     everything under it). Every such file is read whatever its build
//     constraints; a file that does not parse is not read.
//  5. The module is taken if that code creates at least one errgroup
//     group, errgroup being the package golang.org/x/sync/errgroup by
//     import path under any import name (a dot import too): a call of
//     errgroup.WithContext, new(errgroup.Group), a composite literal
//     errgroup.Group{...} (&errgroup.Group{} too), a variable declared
//     with type errgroup.Group or *errgroup.Group (var g errgroup.Group),
//     or a struct field (named or embedded) of one of those types.
//     Otherwise it is skipped ("no errgroup").
//  6. Stop at the 20th module taken.
//
// It prints the list (module@version, one a line, in the walk's order)
// after a comment header that gives the rule, the input file's first line
// and SHA-256, and how many modules were walked and skipped; with -walk
// FILE it also writes one line per module walked: its hash, its
// module@version and what was found. The same input file gives the same
// list, as long as the module proxy serves the same modules.
//
//	go run ./internal/measure/sample -walk internal/measure/sample-walk.txt > internal/measure/sample.txt  # from taskvet/
//
// Between modules it waits while the file named by MEASURE_PAUSE_FILE
// exists (the machine is shared).
package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
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

var (
	inFlag   = flag.String("in", "/work/.library/env/packages/go-partial.tsv", "the module list (tab separated, header line, module path, version)")
	nFlag    = flag.Int("n", 20, "how many modules to take")
	walkFlag = flag.String("walk", "", "write one line per module walked to this file")
)

type row struct {
	path, version, hash string
}

func main() {
	flag.Parse()
	data, err := os.ReadFile(*inFlag)
	check(err)
	sum := sha256.Sum256(data)
	lines := strings.Split(string(data), "\n")
	header := strings.TrimRight(lines[0], "\r")
	var rows []row
	for _, line := range lines[1:] {
		cols := strings.Split(strings.TrimRight(line, "\r"), "\t")
		if len(cols) < 2 || !strings.HasPrefix(cols[1], "v") {
			continue
		}
		h := sha256.Sum256([]byte(cols[0]))
		rows = append(rows, row{path: cols[0], version: cols[1], hash: hex.EncodeToString(h[:])})
	}
	slices.SortFunc(rows, func(a, b row) int { return strings.Compare(a.hash, b.hash) })

	// go mod download outside any module.
	tmp, err := os.MkdirTemp("", "sample-")
	check(err)
	defer os.RemoveAll(tmp)

	var walk *bufio.Writer
	if *walkFlag != "" {
		f, err := os.Create(*walkFlag)
		check(err)
		defer f.Close()
		walk = bufio.NewWriter(f)
		defer walk.Flush()
	}
	var taken []string
	walked, noDownload, noErrgroup := 0, 0, 0
	for _, r := range rows {
		if len(taken) == *nFlag {
			break
		}
		pause()
		walked++
		mod := r.path + "@" + r.version
		dir, err := download(tmp, mod)
		var what string
		switch {
		case err != nil:
			noDownload++
			what = "no download: " + err.Error()
		default:
			n, files := groups(dir)
			if n == 0 {
				noErrgroup++
				what = "no errgroup"
			} else {
				taken = append(taken, mod)
				what = fmt.Sprintf("taken: %d group(s) in %s", n, strings.Join(files, " "))
			}
		}
		fmt.Fprintf(os.Stderr, "sample: %d %s %s\n", walked, mod, what)
		if walk != nil {
			fmt.Fprintf(walk, "%s %s %s\n", r.hash, mod, what)
		}
	}

	fmt.Printf(`# Modules picked by a rule, not by a person (taskvet/internal/measure/sample
# prints this file; the rule is in its doc comment and in docs/taskvet.md).
# Rule: of the rows of the input whose column 2 is a version (starts with
# "v"), in the order of the hex SHA-256 of the module path, the first %d
# whose production code (non-_test.go files outside testdata/, vendor/ and
# nested modules) creates an errgroup group (errgroup.WithContext,
# new(errgroup.Group), errgroup.Group{}, a variable or struct field of type
# errgroup.Group or *errgroup.Group), each at its column-2 version.
# Input: %s (SHA-256 %x), first line:
# %s
# Walked %d of %d rows with a version: %d taken, %d skipped (%d did not
# download, %d create no errgroup group).
# After a module, skip=REGEXP leaves out tests that need the network
# (go test -skip), as in modules.txt.
`, *nFlag, *inFlag, sum, header, walked, len(rows), len(taken), noDownload+noErrgroup, noDownload, noErrgroup)
	for _, m := range taken {
		fmt.Println(m)
	}
	if len(taken) < *nFlag {
		fmt.Fprintf(os.Stderr, "sample: only %d modules taken\n", len(taken))
	}
}

// download returns the module's directory in the module cache, trying
// twice.
func download(tmp, mod string) (string, error) {
	var last error
	for try := 0; try < 2; try++ {
		cmd := exec.Command("go", "mod", "download", "-json", mod)
		cmd.Dir = tmp
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
		out, err := cmd.Output()
		var info struct{ Dir, Error string }
		_ = json.Unmarshal(out, &info)
		if err == nil && info.Dir != "" {
			return info.Dir, nil
		}
		last = fmt.Errorf("%s", firstLine(info.Error, err))
	}
	return "", last
}

func firstLine(msg string, err error) string {
	if msg == "" && err != nil {
		msg = err.Error()
	}
	msg, _, _ = strings.Cut(msg, "\n")
	return msg
}

// groups counts the errgroup groups that the module's production code
// creates (rule, step 5) and names the files that create them.
func groups(root string) (int, []string) {
	n := 0
	var files []string
	fset := token.NewFileSet()
	check(filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path == root {
				return nil
			}
			if d.Name() == "testdata" || d.Name() == "vendor" {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // a nested module
			}
			return nil
		}
		if !d.Type().IsRegular() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil || !bytes.Contains(src, []byte("golang.org/x/sync/errgroup")) {
			return nil
		}
		f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
		if err != nil {
			return nil
		}
		if k := fileGroups(f); k > 0 {
			n += k
			rel, _ := filepath.Rel(root, path)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	}))
	return n, files
}

// fileGroups counts the groups one file creates.
func fileGroups(f *ast.File) int {
	var names []string // the import's names; "." for a dot import
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == "golang.org/x/sync/errgroup" {
			name := "errgroup"
			if imp.Name != nil {
				name = imp.Name.Name
			}
			if name != "_" {
				names = append(names, name)
			}
		}
	}
	if len(names) == 0 {
		return 0
	}
	// is reports whether e names errgroup's obj (Group, WithContext).
	is := func(e ast.Expr, obj string) bool {
		switch e := e.(type) {
		case *ast.SelectorExpr:
			id, ok := e.X.(*ast.Ident)
			return ok && e.Sel.Name == obj && slices.Contains(names, id.Name)
		case *ast.Ident:
			return e.Name == obj && slices.Contains(names, ".")
		}
		return false
	}
	isGroup := func(e ast.Expr) bool {
		if s, ok := e.(*ast.StarExpr); ok {
			e = s.X
		}
		if p, ok := e.(*ast.ParenExpr); ok {
			e = p.X
		}
		return is(e, "Group")
	}
	n := 0
	ast.Inspect(f, func(node ast.Node) bool {
		switch node := node.(type) {
		case *ast.CallExpr:
			if is(node.Fun, "WithContext") {
				n++
			}
			if id, ok := node.Fun.(*ast.Ident); ok && id.Name == "new" && len(node.Args) == 1 && isGroup(node.Args[0]) {
				n++
			}
		case *ast.CompositeLit:
			if node.Type != nil && isGroup(node.Type) {
				n++
			}
		case *ast.ValueSpec:
			if node.Type != nil && isGroup(node.Type) {
				n += len(node.Names)
			}
		case *ast.StructType:
			for _, fld := range node.Fields.List {
				if isGroup(fld.Type) {
					n += max(1, len(fld.Names))
				}
			}
		}
		return true
	})
	return n
}

// pause waits while the file named by MEASURE_PAUSE_FILE exists.
func pause() {
	file := os.Getenv("MEASURE_PAUSE_FILE")
	if file == "" {
		return
	}
	for {
		if _, err := os.Stat(file); err != nil {
			return
		}
		fmt.Fprintf(os.Stderr, "sample: %s exists, waiting\n", file)
		time.Sleep(30 * time.Second)
	}
}

func check(err error) {
	if err != nil {
		fmt.Fprintf(os.Stderr, "sample: %v\n", err)
		os.Exit(1)
	}
}
