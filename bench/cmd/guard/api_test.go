package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestNewerAPI: a tree whose library declares NewGroup builds the
// benchmarks that need it; one that does not (a1ba8fa) leaves them out, and
// a test file's NewGroup does not count.
func TestNewerAPI(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  bool
	}{
		{"declared", map[string]string{"group.go": "package task\n\nfunc NewGroup(ctx context.Context) {}\n"}, true},
		{"absent", map[string]string{"scope.go": "package task\n\nfunc Scope() {}\n"}, false},
		{"in a test only", map[string]string{"x_test.go": "package task\n\nfunc NewGroup() {}\n"}, false},
		{"a method of that name", map[string]string{"g.go": "package task\n\nfunc (g *G) NewGroup() {}\n"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for name, text := range tc.files {
				if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := newerAPI(root)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("newerAPI = %v; want %v", got, tc.want)
			}
		})
	}
}
