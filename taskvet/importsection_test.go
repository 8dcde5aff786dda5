package taskvet

import (
	"slices"
	"testing"
)

func TestParseLocalPrefixes(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"v1 goimports string", "linters-settings:\n  goimports:\n    local-prefixes: github.com/org/a,github.com/org/b\n", []string{"github.com/org/a", "github.com/org/b"}},
		{"v2 goimports list", "formatters:\n  settings:\n    goimports:\n      local-prefixes:\n        - github.com/org/a\n        - \"github.com/org/b\"\n    other: 1\n", []string{"github.com/org/a", "github.com/org/b"}},
		{"gci sections", "linters-settings:\n  gci:\n    sections:\n      - standard\n      - default\n      - prefix(github.com/org)\n      - localmodule\n", []string{"github.com/org"}},
		{"json", `{"formatters": {"settings": {"goimports": {"local-prefixes": ["github.com/org/a"]}}}}`, []string{"github.com/org/a"}},
		{"toml", "[formatters.settings.goimports]\nlocal-prefixes = [\"github.com/org/a\"]\n", []string{"github.com/org/a"}},
		{"commented", "#    local-prefixes: github.com/org/a\n", nil},
	} {
		if got := parseLocalPrefixes([]byte(tc.src)); !slices.Equal(got, tc.want) {
			t.Errorf("%s: parseLocalPrefixes() = %q; want %q", tc.name, got, tc.want)
		}
	}
}
