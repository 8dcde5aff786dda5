package main

import (
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
	want := config{rounds: 10, confirm: 10, benchtime: defaultBenchtime, threshold: 1.3, alpha: 0.01, cpu: 1}
	if cfg != want {
		t.Errorf("parseFlags() = %+v; want %+v", cfg, want)
	}
}

func TestParseFlags(t *testing.T) {
	cfg, err := parseFlags(strings.Fields("-base a1ba8fa -rounds 2 -confirm 0 -benchtime 20ms -threshold 1.4 -alpha 0.01 -cpu 2 -o /tmp/x"), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	want := config{base: "a1ba8fa", rounds: 2, confirm: 0, benchtime: "20ms", threshold: 1.4, alpha: 0.01, cpu: 2, out: "/tmp/x"}
	if cfg != want {
		t.Errorf("parseFlags(...) = %+v; want %+v", cfg, want)
	}
}

func TestParseFlagsErrors(t *testing.T) {
	for _, args := range []string{
		"-rounds 0",
		"-confirm -1",
		"-cpu 0",
		"-cpu 1,2",
		"-benchtime 0s",
		"-benchtime 100",
		"-benchtime x",
		"-benchtime 0x",
		"-threshold 0",
		"-threshold NaN",
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
