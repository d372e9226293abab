package main

import (
	"strings"
	"testing"
	"time"

	"loopkit/docs/internal/doccheck"
	"loopkit/docs/stages/internal/stagetest"
)

func TestFetchesEveryPageOneAtATime(t *testing.T) {
	defer stagetest.Guard(t, time.Minute)()
	var out strings.Builder
	if err := run(&out, 5, time.Millisecond); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if got := strings.Count(out.String(), " 200 "); got != 5 {
		t.Errorf("%d pages answered 200, want 5:\n%s", got, out.String())
	}
	if !strings.Contains(out.String(), "fetched 5 pages") {
		t.Errorf("no summary:\n%s", out.String())
	}
	// One request at a time, so the server never sees two at once.
	if !strings.Contains(out.String(), "server saw at most 1 request(s) at once") {
		t.Errorf("the server saw requests overlap:\n%s", out.String())
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
	doccheck.Quoted(t, "docs/tutorial.md", "go run ./docs/stages/1-blocking", out.String())
}
