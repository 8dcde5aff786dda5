//go:build ignore

// gen.go writes the generated files of the bench module. Run it with
// go generate.
package main

import (
	"log"
	"os"
	"path/filepath"

	"github.com/tasktuple/task/bench/internal/peergen"
)

func main() {
	files, err := peergen.Files()
	if err != nil {
		log.Fatal(err)
	}
	for name, src := range files {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(name, src, 0o644); err != nil {
			log.Fatal(err)
		}
	}
}
