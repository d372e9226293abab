package main

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"loopkit/docs/internal/doccheck"
	"loopkit/docs/stages/internal/stagetest"
)

// The program prints timings; the test checks only that every way handled
// every request (speed is for the reader to see, not for a test to bet on).
func TestEveryWayHandlesEveryRequest(t *testing.T) {
	defer stagetest.Guard(t, time.Minute)()
	var out strings.Builder
	if err := run(&out, 4, 5*time.Millisecond); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if got := strings.Count(out.String(), "4 of 4 requests ok"); got != len(ways) {
		t.Errorf("%d of %d ways handled every request:\n%s", got, len(ways), out.String())
	}
	// The loop's stall stats see the blocking way's sleep: some callback
	// (a task's step) ran at least as long as the work it slept through.
	m := regexp.MustCompile(`longest callback (\S+)`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no longest callback:\n%s", out.String())
	}
	if d, err := time.ParseDuration(m[1]); err != nil || d < 5*time.Millisecond {
		t.Errorf("the blocking way's longest callback is %q, want at least the 5ms it slept:\n%s", m[1], out.String())
	}
}

// The tutorial quotes this stage's output: run it as main does, with a
// shorter wait, and check that what the tutorial shows is what it prints.
func TestTheTutorialQuotesWhatItPrints(t *testing.T) {
	defer stagetest.Guard(t, time.Minute)()
	var out strings.Builder
	if err := run(&out, 20, 5*time.Millisecond); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	doccheck.Quoted(t, "docs/tutorial.md", "go run ./docs/stages/7-blocking-mistake", out.String())
}
