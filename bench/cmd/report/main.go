// Command report runs the side-by-side benchmarks of this module with
// repetitions (BenchmarkFanout, BenchmarkDynamic, BenchmarkLoop,
// BenchmarkStream, BenchmarkStreamHeap and BenchmarkScale), takes medians,
// and writes docs/benchmarks.md (tables in the shape of BenchmarkDotNet:
// Method | Mean | Ratio | Allocated | Alloc Ratio), docs/benchmarks.svg
// (time and allocations against N per library, for the fan-out of N typed
// calls) and docs/benchmarks.txt (the raw `go test -bench` output, for
// benchstat).
//
// Run it from the bench directory:
//
//	go run ./cmd/report            # the full run: -count 10, minutes
//	go run ./cmd/report -count 3 -benchtime 50ms   # a quicker look
//	go run ./cmd/report -input ../docs/benchmarks.txt  # re-render a run
//
// A run of some of the benchmarks (-bench '^BenchmarkDynamic$') renders
// the sections of the others as not measured, and keeps the chart; give
// it -docs to keep the full report:
//
//	go run ./cmd/report -bench '^BenchmarkLoop$' -docs /tmp/loop   # one set
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
)

func main() {
	count := flag.Int("count", 10, "repetitions of each benchmark: rounds of go test -count 1")
	benchtime := flag.String("benchtime", "50ms", "time per repetition (-benchtime of go test)")
	bench := flag.String("bench", "^Benchmark(Fanout|Dynamic|Loop|Stream|StreamHeap|Scale)$", "benchmarks to run (-bench of go test)")
	input := flag.String("input", "", "render this saved go test output instead of running the benchmarks")
	docs := flag.String("docs", "../docs", "folder to write benchmarks.md, .svg and .txt to")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("report: ")

	var raw []byte
	var err error
	if *input != "" {
		raw, err = os.ReadFile(*input)
	} else {
		raw, err = run(*bench, *count, *benchtime)
	}
	if err != nil {
		log.Fatal(err)
	}
	res, err := parse(bytes.NewReader(raw))
	if err != nil {
		log.Fatal(err)
	}
	if res.empty() {
		log.Fatal("no benchmark results")
	}
	if err := os.MkdirAll(*docs, 0o755); err != nil {
		log.Fatal(err)
	}
	sizes, err := binarySizes()
	if err != nil {
		log.Fatal(err)
	}
	env := environment(raw)
	env.count, env.benchtime = *count, *benchtime
	if *input != "" {
		env.count = res.countPerName() // -benchtime is not in the output: pass the one used
	}
	md := render(res, sizes, env)
	for name, data := range map[string][]byte{
		"benchmarks.md":  md,
		"benchmarks.txt": raw,
	} {
		if err := os.WriteFile(filepath.Join(*docs, name), data, 0o644); err != nil {
			log.Fatal(err)
		}
	}
	if fanout := res.of(benchFanout); len(fanout.rows) > 0 {
		if err := chart(fanout, filepath.Join(*docs, "benchmarks.svg")); err != nil {
			log.Fatal(err)
		}
	}
	os.Stdout.Write(tablesOnly(res))
	fmt.Printf("\nwrote %s/benchmarks.md, benchmarks.svg and benchmarks.txt\n", *docs)
}

// run runs go test -bench: once with -benchtime 1x to learn the names
// (and build the test binary), then count rounds of -count 1, with a
// progress bar. Rounds rather than -count: each round runs every
// benchmark once, so a slow minute on a shared machine falls on every
// implementation alike instead of on the few that -count would be
// repeating then.
func run(bench string, count int, benchtime string) ([]byte, error) {
	fmt.Fprintln(os.Stderr, "report: listing the benchmarks (one iteration each)...")
	list, err := exec.Command("go", "test", "-run", "^$", "-bench", bench, "-benchtime", "1x", ".").CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("go test -benchtime 1x: %v\n%s", err, list)
	}
	names := 0
	for _, l := range strings.Split(string(list), "\n") {
		if strings.HasPrefix(l, "Benchmark") && strings.Contains(l, "ns/op") {
			names++
		}
	}
	fmt.Fprintf(os.Stderr, "report: %d benchmarks × %d rounds of %s\n", names, count, benchtime)
	bar := progressbar.NewOptions(names*count,
		progressbar.OptionSetWriter(os.Stderr),
		progressbar.OptionSetDescription("benchmarks"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionClearOnFinish())
	var raw bytes.Buffer
	for round := range count {
		if err := runRound(bench, benchtime, &raw, func(name string) {
			bar.Add(1)
			bar.Describe(fmt.Sprintf("round %d/%d: %s", round+1, count, strings.TrimPrefix(name, "Benchmark")))
		}); err != nil {
			return nil, err
		}
	}
	bar.Finish()
	return raw.Bytes(), nil
}

// runRound runs every benchmark once, appends the output to raw and
// calls done with the name of each benchmark as it ends.
func runRound(bench, benchtime string, raw *bytes.Buffer, done func(name string)) error {
	cmd := exec.Command("go", "test", "-run", "^$", "-bench", bench, "-benchmem",
		"-count", "1", "-benchtime", benchtime, ".")
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	start := raw.Len()
	sc := bufio.NewScanner(io.TeeReader(out, raw))
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(l, "Benchmark") && strings.Contains(l, "ns/op") {
			name, _, _ := strings.Cut(l, " ")
			done(name)
		}
	}
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("go test -bench: %v\n%s", err, raw.Bytes()[start:])
	}
	return nil
}

// env describes where the numbers come from.
type env struct {
	cpu, goVersion, goos string
	cpus                 int
	peers                []string
	count                int
	benchtime            string
	date                 string
}

func environment(raw []byte) env {
	e := env{goVersion: runtime.Version(), goos: runtime.GOOS + "/" + runtime.GOARCH, cpus: runtime.NumCPU(),
		date: time.Now().UTC().Format("2006-01-02")}
	for _, l := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(l, "cpu: "); ok {
			e.cpu = strings.TrimSpace(v)
		}
	}
	if out, err := exec.Command("go", "version").Output(); err == nil {
		e.goVersion = strings.TrimSpace(string(out))
	}
	e.peers = peerVersions()
	return e
}
