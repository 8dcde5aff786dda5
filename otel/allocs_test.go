package taskotel_test

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/tasktuple/task"
	taskotel "github.com/tasktuple/task/otel"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// run2Allocs is the number of allocations of a Run2 whose functions do not
// look at their ctx.
func run2Allocs() float64 {
	ctx := context.Background()
	f1, f2 := value(1), value("a")
	return testing.AllocsPerRun(200, func() {
		_, _, _ = task.Run2(ctx, f1, f2)
	})
}

// TestAllocsUninstalled measures Run2 with nothing installed, in a process
// of its own: Install cannot be undone.
func TestAllocsUninstalled(t *testing.T) {
	if os.Getenv("TASKOTEL_UNINSTALLED") != "1" {
		t.Skip("run by TestAllocs, in a process of its own")
	}
	os.Stdout.WriteString("allocs " + strconv.FormatFloat(run2Allocs(), 'f', -1, 64) + "\n")
}

// TestAllocs reports the allocations of a Run2 with nothing installed,
// with the probe and a no-op provider, with an SDK provider that samples
// nothing, and with one that records every span (and exports none).
func TestAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestAllocsUninstalled$", "-test.count=1")
	cmd.Env = append(os.Environ(), "TASKOTEL_UNINSTALLED=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var none float64
	for line := range strings.Lines(string(out)) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "allocs "); ok {
			none, _ = strconv.ParseFloat(v, 64)
		}
	}

	measure := func(tp trace.TracerProvider) float64 {
		taskotel.Install(taskotel.WithTracerProvider(tp))
		return run2Allocs()
	}
	noopAllocs := measure(noop.NewTracerProvider())
	unsampled := sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.NeverSample()))
	unsampledAllocs := measure(unsampled)
	sampled := sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.AlwaysSample()))
	sampledAllocs := measure(sampled)
	taskotel.Install(taskotel.WithTracerProvider(noop.NewTracerProvider()))
	_ = unsampled.Shutdown(context.Background())
	_ = sampled.Shutdown(context.Background())

	t.Logf("allocations per Run2 (3 spans): nothing installed %v; installed, no-op provider %v; SDK, never sampled %v; SDK, always sampled %v",
		none, noopAllocs, unsampledAllocs, sampledAllocs)
	if raceEnabled {
		return
	}
	for _, c := range []struct {
		what       string
		got, limit float64
	}{
		{"nothing installed", none, 2}, // the core's own ceiling
		{"no-op provider", noopAllocs, 16},
		{"SDK, never sampled", unsampledAllocs, 22},
		{"SDK, always sampled", sampledAllocs, 26},
	} {
		if c.got > c.limit {
			t.Errorf("%s: %v allocations per Run2, want at most %v", c.what, c.got, c.limit)
		}
	}
}

// BenchmarkRun2 is a Run2 with the probe and a no-op provider, and with an
// SDK provider that records every span and exports none.
func BenchmarkRun2(b *testing.B) {
	for _, c := range []struct {
		name string
		tp   trace.TracerProvider
	}{
		{"noop", noop.NewTracerProvider()},
		{"sdk", sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.AlwaysSample()))},
	} {
		b.Run(c.name, func(b *testing.B) {
			taskotel.Install(taskotel.WithTracerProvider(c.tp))
			defer taskotel.Install(taskotel.WithTracerProvider(noop.NewTracerProvider()))
			ctx := context.Background()
			f1, f2 := value(1), value("a")
			b.ReportAllocs()
			for b.Loop() {
				_, _, _ = task.Run2(ctx, f1, f2)
			}
		})
	}
}
