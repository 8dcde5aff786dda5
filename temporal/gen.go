//go:build ignore

// gen.go writes the generated files of package wtask. Run it with
// go generate.
package main

import (
	"log"
	"os"

	"github.com/tasktuple/task/temporal/internal/wtaskgen"
)

func main() {
	files, err := wtaskgen.Files()
	if err != nil {
		log.Fatal(err)
	}
	for name, src := range files {
		if err := os.WriteFile(name, src, 0o644); err != nil {
			log.Fatal(err)
		}
	}
}
