package modproxy

import (
	"fmt"
	"io"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
	"golang.org/x/mod/zip"
)

// AddGit writes into the proxy at dir the module version that tag names in
// the git repository repo, as the go command fetches it from the
// repository: the tag v0.1.0 is the module at the root, the tag
// otel/v0.1.0 the module in the folder otel. Its go.mod is the one of the
// tagged commit, its time the commit's, and its zip is made from the
// commit's tree (git archive), without nested modules. It returns the
// version and its go.sum lines.
func AddGit(dir, repo, tag string) (module.Version, []string, error) {
	subdir, version := "", tag
	if i := strings.LastIndex(tag, "/"); i >= 0 {
		subdir, version = tag[:i], tag[i+1:]
	}
	if !semver.IsValid(version) {
		return module.Version{}, nil, fmt.Errorf("modproxy: tag %s: %s is not a semantic version", tag, version)
	}
	commit := tag + "^{commit}"
	gomod, err := git(repo, "show", commit+":"+path.Join(subdir, "go.mod"))
	if err != nil {
		return module.Version{}, nil, err
	}
	modPath := modfile.ModulePath(gomod)
	if modPath == "" {
		return module.Version{}, nil, fmt.Errorf("modproxy: tag %s: %s has no module line", tag, path.Join(subdir, "go.mod"))
	}
	when, err := git(repo, "log", "-1", "--format=%cI", commit)
	if err != nil {
		return module.Version{}, nil, err
	}
	t, err := time.Parse(time.RFC3339, strings.TrimSpace(string(when)))
	if err != nil {
		return module.Version{}, nil, err
	}
	// zip.CreateFromVCS wants the folder whose .git is the repository: in
	// a worktree of it (.git a file), that of the main worktree, which
	// holds the same tags.
	common, err := git(repo, "rev-parse", "--path-format=absolute", "--git-common-dir")
	if err != nil {
		return module.Version{}, nil, err
	}
	root := strings.TrimSpace(string(common))
	if filepath.Base(root) != ".git" {
		return module.Version{}, nil, fmt.Errorf("modproxy: %s: the repository is at %s, not in the .git of a work tree", repo, root)
	}
	root = filepath.Dir(root)
	m := module.Version{Path: modPath, Version: version}
	err = add(dir, m, t, gomod, func(w io.Writer) error { return zip.CreateFromVCS(w, m, root, commit, subdir) })
	if err != nil {
		return module.Version{}, nil, err
	}
	sums, err := Sums(dir, m)
	return m, sums, err
}

func git(repo string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", append([]string{"-C", repo}, args...)...)
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			return nil, fmt.Errorf("git %s: %v\n%s", strings.Join(args, " "), err, ee.Stderr)
		}
		return nil, fmt.Errorf("git %s: %v", strings.Join(args, " "), err)
	}
	return out, nil
}
