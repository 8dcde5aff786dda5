// Gitproxy writes the module versions that git tags name into a module
// proxy on the file system, the layout the go command reads with
// GOPROXY=file:///dir:
//
//	go run ./taskvet/internal/gitproxy -repo . -o /tmp/proxy v0.1.0 otel/v0.1.0
//
// The tag v0.1.0 is the module at the root of the repository, otel/v0.1.0
// the module in its folder otel; each is served as the go command would
// fetch it from the repository. For each version it prints its two lines
// of go.sum. The release script (.ci/release) serves the core's new tag
// from such a proxy to the modules that require it before the tag is
// pushed, and the release rehearsal (.ci/rehearse) serves every module it
// tagged to a module outside the repository.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/tasktuple/task/taskvet/internal/modproxy"
)

func main() {
	repo := flag.String("repo", ".", "the git repository")
	out := flag.String("o", "", "the proxy's folder, created if need be (required)")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: gitproxy [-repo dir] -o proxy tag...\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *out == "" || flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	for _, tag := range flag.Args() {
		_, sums, err := modproxy.AddGit(*out, *repo, tag)
		if err != nil {
			fmt.Fprintf(os.Stderr, "gitproxy: %v\n", err)
			os.Exit(1)
		}
		for _, s := range sums {
			fmt.Println(s)
		}
	}
}
