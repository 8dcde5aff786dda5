package main

import (
	"errors"
	"slices"
	"testing"
)

func TestNoRun(t *testing.T) {
	// go test that could not start: one failure for the package.
	out := noRun("./x", []byte("go: errors parsing go.mod:\ngo.mod:99:2: usage: require module/path v1.2.3\n"), errors.New("exit status 1"))
	pass, fail := testResults(out)
	if want := []string{"./x [go test did not run: go: errors parsing go.mod:] [package]"}; pass != 0 || !slices.Equal(fail, want) {
		t.Errorf("got %d passed, %q failed; want 0, %q", pass, fail, want)
	}
	// A run with a result is left as it is.
	js := []byte(`{"Action":"pass","Package":"p","Test":"TestA"}
{"Action":"fail","Package":"p","Test":"TestB"}
{"Action":"fail","Package":"p"}
`)
	pass, fail = testResults(noRun("./p", js, errors.New("exit status 1")))
	if want := []string{"p.TestB", "p [package]"}; pass != 1 || !slices.Equal(fail, want) {
		t.Errorf("got %d passed, %q failed; want 1, %q", pass, fail, want)
	}
}
