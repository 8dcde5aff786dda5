package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// baselineFile holds the commit the guard compares with by default, relative
// to the repository's root.
const baselineFile = ".ci/baseline"

// readBaseline returns the commit named in root's .ci/baseline.
func readBaseline(root string) (string, error) {
	f, err := os.Open(filepath.Join(root, baselineFile))
	if err != nil {
		return "", fmt.Errorf("no baseline: %w (name one with -base)", err)
	}
	defer f.Close()
	ref, err := parseBaseline(f)
	if err != nil {
		return "", fmt.Errorf("%s: %w", baselineFile, err)
	}
	return ref, nil
}

// parseBaseline returns the first word of the first line of r that is
// neither blank nor a comment (a line whose first non-space character is
// #). The rest of that line, and the lines after it, are free text.
func parseBaseline(r io.Reader) (string, error) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		return strings.Fields(line)[0], nil
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	return "", fmt.Errorf("no commit: every line is blank or a comment")
}
