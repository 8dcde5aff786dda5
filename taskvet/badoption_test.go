package taskvet

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
)

// fakeTask is the fake of package task that the analyzers' tests use.
const fakeTask = "testdata/src/github.com/tasktuple/task"

// pairArgs are the arguments before the options of each function of
// package task that takes options, in the pairs' file (pairsHead declares
// them); RunN and AwaitN get N functions or tasks.
var pairArgs = map[string]string{
	"All":             "ctx, ts",
	"Map":             "ctx, in, 1, double",
	"ForEach":         "ctx, in, 1, check",
	"MapWithin":       "ctx, time.Second, in, 1, double",
	"MapSeq":          "ctx, seq, 1, double",
	"MapSeqUnordered": "ctx, seq, 1, double",
	"NewGroup":        "ctx",
	"Scope":           "ctx, body",
}

const pairsHead = `package pairs

import (
	"context"
	"iter"
	"time"

	"github.com/tasktuple/task"
)

func double(ctx context.Context, n int) (int, error) { return 2 * n, nil }
func check(ctx context.Context, n int) error         { return nil }
func f(ctx context.Context) (int, error)             { return 0, nil }
func body(ctx context.Context, g *task.Group) (int, error) { return 0, nil }

var (
	seq iter.Seq[int]
	in  []int
	t   *task.Task[int]
	ts  []*task.Task[int]
)

func pairs(ctx context.Context, opt task.Option) {
`

// pairsSource returns a file that calls every function of optionPanics
// with every option, alone and in a []task.Option literal, with the zero
// Option, with a variable, and with KeepGoing and StartAll together; each
// call that panics has a want comment with the panic's text.
func pairsSource(t *testing.T) string {
	var b strings.Builder
	b.WriteString(pairsHead)
	want := func(msgs ...string) string {
		var s []string
		for _, m := range msgs {
			s = append(s, "`^"+regexp.QuoteMeta(m)+"$`")
		}
		if len(s) == 0 {
			return ""
		}
		return " // want " + strings.Join(s, " ")
	}
	for _, call := range slices.Sorted(maps.Keys(optionPanics)) {
		args, ok := pairArgs[call]
		for prefix, arg := range map[string]string{"Run": ", f", "Await": ", t"} {
			if rest, found := strings.CutPrefix(call, prefix); found {
				if n, err := strconv.Atoi(rest); err == nil {
					args, ok = "ctx"+strings.Repeat(arg, n), true
				}
			}
		}
		if !ok {
			t.Errorf("%s takes options: give it arguments in pairArgs", call)
			continue
		}
		panics := optionPanics[call]
		fmt.Fprintf(&b, "\n\t// %s\n", call)
		for _, name := range optionNames {
			opt := "task." + name
			if name == "Grace" {
				opt = "task.Grace(time.Second)"
			}
			var msgs []string
			if msg, bad := panics[name]; bad {
				msgs = append(msgs, msg)
			}
			fmt.Fprintf(&b, "\ttask.%s(%s, %s)%s\n", call, args, opt, want(msgs...))
			fmt.Fprintf(&b, "\ttask.%s(%s, []task.Option{%s}...)%s\n", call, args, opt, want(msgs...))
		}
		fmt.Fprintf(&b, "\ttask.%s(%s, task.Option{})\n", call, args)
		fmt.Fprintf(&b, "\ttask.%s(%s, opt)\n", call, args)
		var msgs []string
		for _, name := range []string{"KeepGoing", "StartAll"} {
			if msg, bad := panics[name]; bad {
				msgs = append(msgs, msg)
			}
		}
		if msg, bad := startAllKeepGoingPanics[call]; bad {
			msgs = append(msgs, msg)
		}
		fmt.Fprintf(&b, "\ttask.%s(%s, task.KeepGoing, task.StartAll)%s\n", call, args, want(msgs...))
	}
	b.WriteString("}\n")
	return b.String()
}

// TestBadOptionPairs: badoption reports, for every function of the table
// and every option, the text the function panics with, and nothing for an
// option it takes.
func TestBadOptionPairs(t *testing.T) {
	if len(optionPanics) == 0 || len(optionNames) == 0 {
		t.Fatal("zoptionpanics.go: an empty table")
	}
	dir := t.TempDir()
	copyDir(t, fakeTask, filepath.Join(dir, "src/github.com/tasktuple/task"))
	writeFile(t, filepath.Join(dir, "src/pairs/pairs.go"), pairsSource(t))
	analysistest.Run(t, dir, BadOption, "pairs")
}

// TestBadOptionPairsCompile: the pairs' calls compile against the real
// package task (the repository's root), as they do against the fake: the
// fake takes options where the real package does, with the same
// arguments.
func TestBadOptionPairsCompile(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/pairs\n\ngo 1.26\n\nrequire github.com/tasktuple/task v0.0.0\n\nreplace github.com/tasktuple/task => "+root+"\n")
	writeFile(t, filepath.Join(dir, "pairs.go"), pairsSource(t))
	cmd := exec.Command("go", "build", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOPROXY=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
}

// TestFakeTakesOptions: the functions of the fake package task that take
// options are those of the table.
func TestFakeTakesOptions(t *testing.T) {
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(fakeTask, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var fake []string
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || len(fd.Type.Params.List) == 0 {
				continue
			}
			if e, ok := fd.Type.Params.List[len(fd.Type.Params.List)-1].Type.(*ast.Ellipsis); ok {
				if id, ok := e.Elt.(*ast.Ident); ok && id.Name == "Option" {
					fake = append(fake, fd.Name.Name)
				}
			}
		}
	}
	slices.Sort(fake)
	if want := slices.Sorted(maps.Keys(optionPanics)); !slices.Equal(fake, want) {
		t.Errorf("the fake's functions that take options are %v; the table's %v", fake, want)
	}
}

// copyDir copies the files of the folder from to the folder to.
func copyDir(t *testing.T, from, to string) {
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(to, e.Name()), string(b))
	}
}

// writeFile writes data to the file name, making its folder.
func writeFile(t *testing.T, name, data string) {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
