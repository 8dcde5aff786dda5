package main

import "testing"

func TestQueryOf(t *testing.T) {
	for v, want := range map[string]string{
		"v0.1.0":                                   "v0.1.0",
		"v0.2.0-rc.1":                              "v0.2.0-rc.1",
		"v0.0.0-20261206051703-7dfae80abcde":       "7dfae80abcde",
		"v0.1.1-0.20261206051703-7dfae80abcde":     "7dfae80abcde",
		"v0.0.0-20261206051703-7dfae80abcde+dirty": "latest",
		"(devel)": "latest",
		"":        "latest",
	} {
		if got := queryOf(v); got != want {
			t.Errorf("queryOf(%q) = %q, want %q", v, got, want)
		}
	}
}
