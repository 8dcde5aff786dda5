package main

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

func TestParseFlagsDefaults(t *testing.T) {
	cfg, err := parseFlags(nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	want := config{rounds: 10, confirm: 10, benchtime: defaultBenchtime, threshold: 1.3, small: 1.1, alpha: 0.01, cpu: 1}
	if cfg != want {
		t.Errorf("parseFlags() = %+v; want %+v", cfg, want)
	}
}

func TestParseFlags(t *testing.T) {
	cfg, err := parseFlags(strings.Fields("-base a1ba8fa -rounds 5 -confirm 0 -benchtime 20ms -threshold 1.4 -small 1.2 -alpha 0.01 -cpu 2 -o /tmp/x"), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	want := config{base: "a1ba8fa", rounds: 5, confirm: 0, benchtime: "20ms", threshold: 1.4, small: 1.2, alpha: 0.01, cpu: 2, out: "/tmp/x"}
	if cfg != want {
		t.Errorf("parseFlags(...) = %+v; want %+v", cfg, want)
	}
}

func TestParseFlagsErrors(t *testing.T) {
	for _, args := range []string{
		"-rounds 0",
		"-rounds 4",             // smallest p-value 0.029: never below alpha 0.01
		"-rounds 10 -confirm 4", // the second run could confirm nothing
		"-rounds 2 -alpha 0.3",  // 0.33
		"-confirm -1",
		"-cpu 0",
		"-cpu 1,2",
		"-benchtime 0s",
		"-benchtime 100",
		"-benchtime x",
		"-benchtime 0x",
		"-threshold 0",
		"-threshold NaN",
		"-small 0",
		"-alpha 0",
		"-alpha 1.5",
		"-self -head f869a6c",
		"a1ba8fa",
		"-nosuchflag",
	} {
		if cfg, err := parseFlags(strings.Fields(args), io.Discard); err == nil {
			t.Errorf("parseFlags(%q) = %+v, nil; want an error", args, cfg)
		}
	}
}

func TestRunTimeout(t *testing.T) {
	for _, tt := range []struct {
		benchtime string
		want      time.Duration
	}{
		{"100ms", time.Minute + 10*time.Second},
		{"1s", time.Minute + 100*time.Second},
		{"1000x", 10 * time.Minute},
	} {
		if got, err := runTimeout(tt.benchtime); err != nil || got != tt.want {
			t.Errorf("runTimeout(%q) = %v, %v; want %v, nil", tt.benchtime, got, err, tt.want)
		}
	}
}

// TestMinRounds: the rounds a side that the U test needs for alpha, and
// that each setting just below them is refused.
func TestMinRounds(t *testing.T) {
	for _, c := range []struct {
		alpha float64
		n     int
	}{{0.01, 5}, {0.05, 4}, {0.001, 7}} {
		if got := minRounds(c.alpha); got != c.n {
			t.Errorf("minRounds(%v) = %d; want %d", c.alpha, got, c.n)
		}
		if _, err := parseFlags([]string{"-alpha", fmt.Sprint(c.alpha), "-rounds", fmt.Sprint(c.n)}, io.Discard); err != nil {
			t.Errorf("-alpha %v -rounds %d: %v", c.alpha, c.n, err)
		}
		if _, err := parseFlags([]string{"-alpha", fmt.Sprint(c.alpha), "-rounds", fmt.Sprint(c.n - 1)}, io.Discard); err == nil {
			t.Errorf("-alpha %v -rounds %d accepted; its smallest p-value is %v", c.alpha, c.n-1, minP(c.n-1))
		}
	}
}
