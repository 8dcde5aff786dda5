package main

import (
	"strings"
	"testing"
)

func TestParseBaseline(t *testing.T) {
	for _, tt := range []struct {
		name, in, want string
	}{
		{"bare", "30e8670\n", "30e8670"},
		{"no final newline", "30e8670", "30e8670"},
		{"after comments and blanks", "# the baseline\n#\n\n   \n30e8670\n", "30e8670"},
		{"indented comment", "  # a note\n30e8670\n", "30e8670"},
		{"first word only", "30e8670 taskvet: the last landed commit\n", "30e8670"},
		{"first line only", "30e8670\na1ba8fa\n", "30e8670"},
		{"indented, tab, CRLF", "# c\r\n\t30e8670\t# why\r\n", "30e8670"},
		{"a ref", "# c\nmain~3\n", "main~3"},
	} {
		got, err := parseBaseline(strings.NewReader(tt.in))
		if err != nil || got != tt.want {
			t.Errorf("%s: parseBaseline(%q) = %q, %v; want %q, nil", tt.name, tt.in, got, err, tt.want)
		}
	}
}

func TestParseBaselineNoCommit(t *testing.T) {
	for _, in := range []string{"", "\n\n", "# only\n# comments\n", "  \t\n#x\n"} {
		if got, err := parseBaseline(strings.NewReader(in)); err == nil {
			t.Errorf("parseBaseline(%q) = %q, nil; want an error", in, got)
		}
	}
}
