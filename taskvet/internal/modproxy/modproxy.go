// Package modproxy writes module versions in the layout that the go
// command reads from a module proxy on the file system
// (GOPROXY=file:///dir): for each module, under its escaped path, an @v
// folder with list, and for each version its .info, .mod and .zip. The zip
// is made by golang.org/x/mod/zip, as the go command makes it, so that its
// hash is the one go.sum records for the same files.
//
// taskvet's tests serve the modules their fixtures need from such a proxy,
// built from testdata (see [AddTxtar]), and never from the module cache or
// the network; the release rehearsal serves the repository's tagged
// modules from one (see [AddGit]).
package modproxy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
	"golang.org/x/mod/sumdb/dirhash"
)

// URL returns the GOPROXY value that serves the proxy at dir.
func URL(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // C:/x on Windows
	}
	return (&url.URL{Scheme: "file", Path: p}).String(), nil
}

// add writes version m of a module into the proxy at dir: gomod as its
// .mod, its .info (the version, and the time t unless it is zero), and its
// .zip as writeZip writes it; and it adds the version to the module's list.
func add(dir string, m module.Version, t time.Time, gomod []byte, writeZip func(io.Writer) error) error {
	if err := module.Check(m.Path, m.Version); err != nil {
		return err
	}
	if m.Version != module.CanonicalVersion(m.Version) {
		return fmt.Errorf("modproxy: %s: version %s is not canonical", m.Path, m.Version)
	}
	escPath, err := module.EscapePath(m.Path)
	if err != nil {
		return err
	}
	escVersion, err := module.EscapeVersion(m.Version)
	if err != nil {
		return err
	}
	v := filepath.Join(dir, filepath.FromSlash(escPath), "@v")
	if err := os.MkdirAll(v, 0o755); err != nil {
		return err
	}
	info := struct {
		Version string
		Time    *time.Time `json:",omitempty"`
	}{Version: m.Version}
	if !t.IsZero() {
		t = t.UTC()
		info.Time = &t
	}
	infoJSON, err := json.Marshal(info)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(v, escVersion+".info"), infoJSON, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(v, escVersion+".mod"), gomod, 0o644); err != nil {
		return err
	}
	z, err := os.Create(filepath.Join(v, escVersion+".zip"))
	if err != nil {
		return err
	}
	if err := writeZip(z); err != nil {
		z.Close()
		return fmt.Errorf("modproxy: zip of %s: %w", m, err)
	}
	if err := z.Close(); err != nil {
		return err
	}
	return addToList(filepath.Join(v, "list"), m.Version)
}

// addToList adds version to the list file, one version a line, in
// semantic version order.
func addToList(list, version string) error {
	data, err := os.ReadFile(list)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	versions := strings.Fields(string(data))
	if !slices.Contains(versions, version) {
		versions = append(versions, version)
	}
	semver.Sort(versions)
	var b bytes.Buffer
	for _, v := range versions {
		b.WriteString(v + "\n")
	}
	return os.WriteFile(list, b.Bytes(), 0o644)
}

// Sums returns the two lines of go.sum for version m of a module in the
// proxy at dir: the hash of its zip and the hash of its go.mod.
func Sums(dir string, m module.Version) ([]string, error) {
	escPath, err := module.EscapePath(m.Path)
	if err != nil {
		return nil, err
	}
	escVersion, err := module.EscapeVersion(m.Version)
	if err != nil {
		return nil, err
	}
	base := filepath.Join(dir, filepath.FromSlash(escPath), "@v", escVersion)
	zipSum, err := dirhash.HashZip(base+".zip", dirhash.Hash1)
	if err != nil {
		return nil, err
	}
	modSum, err := dirhash.Hash1([]string{"go.mod"}, func(string) (io.ReadCloser, error) { return os.Open(base + ".mod") })
	if err != nil {
		return nil, err
	}
	return []string{
		m.Path + " " + m.Version + " " + zipSum,
		m.Path + " " + m.Version + "/go.mod " + modSum,
	}, nil
}
