package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"loopkit/bench/harness"
	"loopkit/bench/report"
)

// The test binary plays the children, as the real binary does.
func TestMain(m *testing.M) {
	if harness.IsChild() {
		os.Exit(harness.ChildMain(os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

func TestBadUsageExitsWithTwo(t *testing.T) {
	for _, args := range [][]string{
		{"-scenarios", "S10"},
		{"-variants", "threads"},
		{"-rounds", "-1"},
		{"-pin", "sometimes"},
		{"-nosuchflag"},
		{"extra"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), args, &stdout, &stderr); code != 2 {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", args, code, stderr.String())
		}
		if stderr.Len() == 0 {
			t.Errorf("%v: nothing said on stderr", args)
		}
	}
}

func TestQuickRunWritesTablesJSONAndMarkdown(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	t.Setenv("GORACE", "atexit_sleep_ms=0") // see bench/harness's end-to-end test
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	args := []string{"-quick", "-q", "-scenarios", "S1", "-variants", "reactor-tasks,channel-semaphore", "-o", dir}
	if code := run(context.Background(), args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "| C = 2 | loop: tasks |") {
		t.Errorf("no S1 table on stdout:\n%s", stdout.String())
	}
	if !strings.Contains(stdout.String(), report.QuickWarning) || strings.Contains(stdout.String(), "## Targets") {
		t.Error("a smoke run does not say its figures mean nothing, or checks targets")
	}
	if !strings.Contains(stdout.String(), "go run ./cmd/bench -quick -q -scenarios S1") {
		t.Error("the command is not in the report")
	}
	for _, name := range []string{"results.json", "results.md"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Error(err)
		}
	}
}
