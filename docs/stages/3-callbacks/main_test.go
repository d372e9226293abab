package main

import (
	"strings"
	"testing"
	"time"

	"loopkit/docs/internal/doccheck"
	"loopkit/docs/stages/internal/stagetest"
)

func TestFetchesEveryPageConcurrently(t *testing.T) {
	defer stagetest.Guard(t, time.Minute)()
	var out strings.Builder
	if err := run(&out, 8, 5*time.Millisecond); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if got := strings.Count(out.String(), " 200 "); got != 8 {
		t.Errorf("%d pages answered 200, want 8:\n%s", got, out.String())
	}
	if !strings.Contains(out.String(), "fetched 8 pages") || !strings.Contains(out.String(), "(0 failed)") {
		t.Errorf("no clean summary:\n%s", out.String())
	}
}

// The tutorial quotes this stage's output: run it as main does, and check
// that what the tutorial shows is what it prints. The quote names the
// server's peak, so each answer waits long enough for all twenty requests
// to arrive first: 2 ms was too short under -race on a busy machine (the
// server saw 16 at once).
func TestTheTutorialQuotesWhatItPrints(t *testing.T) {
	defer stagetest.Guard(t, time.Minute)()
	var out strings.Builder
	if err := run(&out, 20, 100*time.Millisecond); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	doccheck.Quoted(t, "docs/tutorial.md", "go run ./docs/stages/3-callbacks", out.String())
}
