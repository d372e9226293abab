package main

import (
	"strings"
	"testing"
	"time"

	"loopkit/docs/internal/doccheck"
	"loopkit/docs/stages/internal/stagetest"
)

func TestFetchesEveryPageAndCountsTheSpins(t *testing.T) {
	defer stagetest.Guard(t, time.Minute)()
	var out strings.Builder
	if err := run(&out, 3, 2*time.Millisecond); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if got := strings.Count(out.String(), " 200 "); got != 3 {
		t.Errorf("%d pages answered 200, want 3:\n%s", got, out.String())
	}
	// The server waits before it answers, so every read spins at least once.
	if strings.Contains(out.String(), "after asking 0 times") {
		t.Errorf("a page arrived without a single spin:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "fetched 3 pages") {
		t.Errorf("no summary:\n%s", out.String())
	}
}

// The tutorial quotes this stage's output: run it as main does, with a
// shorter wait, and check that what the tutorial shows is what it prints.
func TestTheTutorialQuotesWhatItPrints(t *testing.T) {
	defer stagetest.Guard(t, time.Minute)()
	var out strings.Builder
	if err := run(&out, 20, 2*time.Millisecond); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	doccheck.Quoted(t, "docs/tutorial.md", "go run ./docs/stages/2-busy-loop", out.String(), `asking in vain \d+ times`, `after asking \d+ times`)
}
