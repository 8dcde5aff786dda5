package modproxy

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
	"golang.org/x/tools/txtar"
)

// AddTxtar writes into the proxy at dir the module version that the txtar
// archive file holds, and returns its go.sum lines.
//
// The archive's comment holds the version's two lines of go.sum, as
// sum.golang.org has them, among lines of text; its files are the files of
// the module, go.mod among them. AddTxtar fails if the hashes of what it wrote are not those
// lines: the archive is then not the module it names, and a go command
// that fetched it would keep in its module cache a module that is not the
// real one under the real one's version.
func AddTxtar(dir, file string) ([]string, error) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		return nil, err
	}
	var want []string
	for line := range strings.Lines(string(ar.Comment)) {
		if f := strings.Fields(line); len(f) == 3 && strings.HasPrefix(f[2], "h1:") {
			want = append(want, strings.Join(f, " "))
		}
	}
	var m module.Version
	if f := strings.Fields(strings.Join(want, " ")); len(want) == 2 && f[0] == f[3] && f[1]+"/go.mod" == f[4] {
		m = module.Version{Path: f[0], Version: f[1]}
	} else {
		return nil, fmt.Errorf("%s: the comment does not hold the two go.sum lines of a module version", file)
	}
	var gomod []byte
	var files []zip.File
	for _, f := range ar.Files {
		if f.Name == "go.mod" {
			gomod = f.Data
		}
		files = append(files, archiveFile{f})
	}
	if gomod == nil {
		return nil, fmt.Errorf("%s: no go.mod", file)
	}
	err = add(dir, m, time.Time{}, gomod, func(w io.Writer) error { return zip.Create(w, m, files) })
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	got, err := Sums(dir, m)
	if err != nil {
		return nil, err
	}
	if !slices.Equal(got, want) {
		return nil, fmt.Errorf("%s: the files hash to\n\t%s\nnot to the lines of its comment\n\t%s", file, strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
	return got, nil
}

// archiveFile is a file of a txtar archive, as a file of a module zip.
type archiveFile struct{ f txtar.File }

func (a archiveFile) Path() string                { return a.f.Name }
func (a archiveFile) Lstat() (os.FileInfo, error) { return fileInfo(a), nil }
func (a archiveFile) Open() (io.ReadCloser, error) {
	return io.NopCloser(bytes.NewReader(a.f.Data)), nil
}

type fileInfo struct{ f txtar.File }

func (i fileInfo) Name() string       { return i.f.Name[strings.LastIndex(i.f.Name, "/")+1:] }
func (i fileInfo) Size() int64        { return int64(len(i.f.Data)) }
func (i fileInfo) Mode() os.FileMode  { return 0o644 }
func (i fileInfo) ModTime() time.Time { return time.Time{} }
func (i fileInfo) IsDir() bool        { return false }
func (i fileInfo) Sys() any           { return nil }
