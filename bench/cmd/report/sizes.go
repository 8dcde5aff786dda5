package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// size is the size of one small program.
type size struct {
	name, what string
	bytes      int64
}

var sizePrograms = []struct{ dir, what string }{
	{"base", "fmt and context only"},
	{"await2", "task.Go, task.Await2 and task.Run2"},
	{"all", "every AwaitN (1..16) and RunN (2..16)"},
	{"errgroup", "errgroup.WithContext with two calls"},
}

// binarySizes builds the programs of internal/sizeprog and measures them.
func binarySizes() ([]size, error) {
	dir, err := os.MkdirTemp("", "tasktuple-sizes")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	var out []size
	for _, p := range sizePrograms {
		bin := filepath.Join(dir, p.dir)
		cmd := exec.Command("go", "build", "-trimpath", "-o", bin, "./internal/sizeprog/"+p.dir)
		if b, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("building %s: %v\n%s", p.dir, err, b)
		}
		st, err := os.Stat(bin)
		if err != nil {
			return nil, err
		}
		out = append(out, size{p.dir, p.what, st.Size()})
	}
	return out, nil
}
