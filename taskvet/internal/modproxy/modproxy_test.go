package modproxy

import (
	"archive/zip"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/module"
)

const syncArchive = "../../testdata/mod/golang.org_x_sync_v0.24.0.txtar"

// goCmd returns a go command run in dir that fetches modules from the
// proxy at proxy only, into a module cache of its own, and checks them
// against go.sum only.
func goCmd(t *testing.T, dir, proxy string, args ...string) *exec.Cmd {
	t.Helper()
	u, err := URL(proxy)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-modcacherw", "GOPROXY="+u, "GOSUMDB=off",
		"GOMODCACHE="+t.TempDir())
	return cmd
}

func write(t *testing.T, name, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestAddTxtar serves golang.org/x/sync from the archive in testdata: its
// files hash to the lines of go.sum that sum.golang.org has, and a module
// that imports errgroup builds with those lines alone and the proxy.
func TestAddTxtar(t *testing.T) {
	proxy := t.TempDir()
	sums, err := AddTxtar(proxy, syncArchive)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"golang.org/x/sync v0.24.0 h1:iqiDrGoDgyuvAKrhLQthUEzU/R378N78gXbBjxed7oA=",
		"golang.org/x/sync v0.24.0/go.mod h1:sUUOizhqBxiL6pEWpqNLUiaJn1ShEbZ6BBqskPbjZm0=",
	}
	if !slices.Equal(sums, want) {
		t.Errorf("AddTxtar() = %q; want %q", sums, want)
	}
	list, err := os.ReadFile(filepath.Join(proxy, "golang.org/x/sync/@v/list"))
	if err != nil || string(list) != "v0.24.0\n" {
		t.Errorf("@v/list = %q, %v; want v0.24.0", list, err)
	}
	if testing.Short() {
		return
	}
	dir := t.TempDir()
	write(t, filepath.Join(dir, "go.mod"), "module example.com/m\n\ngo 1.26.0\n\nrequire golang.org/x/sync v0.24.0\n")
	write(t, filepath.Join(dir, "go.sum"), strings.Join(sums, "\n")+"\n")
	write(t, filepath.Join(dir, "m.go"), "package m\n\nimport \"golang.org/x/sync/errgroup\"\n\nvar G errgroup.Group\n")
	if out, err := goCmd(t, dir, proxy, "build", "-mod=readonly", "./...").CombinedOutput(); err != nil {
		t.Errorf("go build from the proxy: %v\n%s", err, out)
	}
}

// TestAddTxtarAltered: an archive whose files are not those of the module
// it names is refused.
func TestAddTxtarAltered(t *testing.T) {
	data, err := os.ReadFile(syncArchive)
	if err != nil {
		t.Fatal(err)
	}
	altered := filepath.Join(t.TempDir(), "altered.txtar")
	write(t, altered, strings.Replace(string(data), "package errgroup", "package errgroup // altered", 1))
	if _, err := AddTxtar(t.TempDir(), altered); err == nil || !strings.Contains(err.Error(), "not to the lines of its comment") {
		t.Errorf("AddTxtar(altered) = %v; want an error that the files do not hash to the comment's lines", err)
	}
}

// TestAddGit serves a module at the root of a repository and one in a
// folder from their tags: the root's zip leaves the nested module out, the
// nested one gets the root's LICENSE, the time is the commit's, the list
// grows with each version, and a module outside builds with both from the
// proxy. From a worktree of the repository, the zips are the same.
func TestAddGit(t *testing.T) {
	if testing.Short() {
		t.Skip("runs git and go build")
	}
	repo := t.TempDir()
	write(t, filepath.Join(repo, "go.mod"), "module example.com/r\n\ngo 1.24\n")
	write(t, filepath.Join(repo, "LICENSE"), "the license\n")
	write(t, filepath.Join(repo, "r.go"), "package r\n\nconst Name = \"r\"\n")
	write(t, filepath.Join(repo, "sub", "go.mod"), "module example.com/r/sub\n\ngo 1.24\n\nrequire example.com/r v0.1.0\n")
	write(t, filepath.Join(repo, "sub", "sub.go"), "package sub\n\nimport \"example.com/r\"\n\nconst Name = r.Name + \"/sub\"\n")
	write(t, filepath.Join(repo, "untracked.txt"), "not committed\n")
	git := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t",
			"GIT_COMMITTER_EMAIL=t@example.com", "GIT_COMMITTER_DATE=2026-01-02T03:04:05Z", "GIT_CONFIG_GLOBAL=/dev/null")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git(repo, "init", "-q")
	git(repo, "add", "go.mod", "LICENSE", "r.go", "sub")
	git(repo, "commit", "-q", "-m", "first")
	git(repo, "tag", "v0.1.0")
	git(repo, "tag", "-a", "-m", "sub v0.1.0", "sub/v0.1.0")

	proxy := t.TempDir()
	var all []string
	for _, tc := range []struct {
		tag   string
		m     module.Version
		files []string
	}{
		{"v0.1.0", module.Version{Path: "example.com/r", Version: "v0.1.0"}, []string{"LICENSE", "go.mod", "r.go"}},
		{"sub/v0.1.0", module.Version{Path: "example.com/r/sub", Version: "v0.1.0"}, []string{"LICENSE", "go.mod", "sub.go"}},
	} {
		m, sums, err := AddGit(proxy, repo, tc.tag)
		if err != nil {
			t.Fatalf("AddGit(%s): %v", tc.tag, err)
		}
		if m != tc.m || len(sums) != 2 {
			t.Errorf("AddGit(%s) = %v, %q; want %v and two lines of go.sum", tc.tag, m, sums, tc.m)
		}
		all = append(all, sums...)
		base := filepath.Join(proxy, filepath.FromSlash(tc.m.Path), "@v", tc.m.Version)
		zr, err := zip.OpenReader(base + ".zip")
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, f := range zr.File {
			names = append(names, strings.TrimPrefix(f.Name, tc.m.String()+"/"))
		}
		zr.Close()
		slices.Sort(names)
		if !slices.Equal(names, tc.files) {
			t.Errorf("%s: the zip holds %q; want %q", tc.tag, names, tc.files)
		}
		var info struct {
			Version string
			Time    time.Time
		}
		data, err := os.ReadFile(base + ".info")
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &info); err != nil || info.Version != "v0.1.0" || !info.Time.Equal(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)) {
			t.Errorf("%s: .info = %s (%v); want v0.1.0 at the commit's time", tc.tag, data, err)
		}
	}
	git(repo, "tag", "v0.2.0")
	if _, _, err := AddGit(proxy, repo, "v0.2.0"); err != nil {
		t.Fatal(err)
	}
	if list, _ := os.ReadFile(filepath.Join(proxy, "example.com/r/@v/list")); string(list) != "v0.1.0\nv0.2.0\n" {
		t.Errorf("@v/list = %q; want v0.1.0 and v0.2.0", list)
	}

	wt := filepath.Join(t.TempDir(), "wt")
	git(repo, "worktree", "add", "-q", "--detach", wt)
	for _, tag := range []string{"v0.1.0", "sub/v0.1.0"} {
		_, sums, err := AddGit(t.TempDir(), wt, tag)
		if err != nil || !slices.Contains(all, sums[0]) {
			t.Errorf("AddGit(%s) from a worktree = %q, %v; want %q", tag, sums, err, all)
		}
	}

	out := t.TempDir()
	write(t, filepath.Join(out, "go.mod"), "module example.com/out\n\ngo 1.24\n\nrequire example.com/r/sub v0.1.0\n\nrequire example.com/r v0.1.0 // indirect\n")
	write(t, filepath.Join(out, "go.sum"), strings.Join(all, "\n")+"\n")
	write(t, filepath.Join(out, "main.go"), "package main\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/r/sub\"\n)\n\nfunc main() { fmt.Println(sub.Name) }\n")
	run := goCmd(t, out, proxy, "run", "-mod=readonly", ".")
	var stderr strings.Builder
	run.Stderr = &stderr
	if b, err := run.Output(); err != nil || string(b) != "r/sub\n" {
		t.Errorf("go run of a module outside: %q, %v; want r/sub\n%s", b, err, stderr.String())
	}
}

// TestAddGitNotATag: a tag whose last element is not a semantic version
// is refused before anything is written.
func TestAddGitNotATag(t *testing.T) {
	proxy := t.TempDir()
	if _, _, err := AddGit(proxy, ".", "otel/latest"); err == nil || !strings.Contains(err.Error(), "not a semantic version") {
		t.Errorf("AddGit(otel/latest) = %v; want an error", err)
	}
	if entries, _ := os.ReadDir(proxy); len(entries) != 0 {
		t.Errorf("the proxy holds %d entries; want none", len(entries))
	}
}
