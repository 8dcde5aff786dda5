package main

import (
	"runtime/debug"

	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
)

// taskQuery is the version of the task module that the fixes are written
// for, as go get takes it: taskvet's own version, since the two are
// released together (docs/versioning.md); the commit of a pseudo-version
// (go install ...@main), the same in both modules; "latest" for a taskvet
// built from a working tree with changes, or with no version.
func taskQuery() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "latest"
	}
	return queryOf(bi.Main.Version)
}

// queryOf is taskQuery for taskvet's module version v.
func queryOf(v string) string {
	if !semver.IsValid(v) || semver.Build(v) != "" {
		return "latest" // "(devel)", none, or a tree with changes (+dirty)
	}
	if module.IsPseudoVersion(v) {
		if rev, err := module.PseudoVersionRev(v); err == nil {
			return rev
		}
		return "latest"
	}
	return v
}

// getLine is what to run by hand when taskvet cannot add the requirement.
func getLine() string { return "go get " + taskModule + "@" + taskQuery() }
