package main

import (
	"strings"
	"testing"
	"time"

	"loopkit/docs/internal/doccheck"
	"loopkit/docs/stages/internal/stagetest"
)

func TestEveryPageIsCountedOffTheLoopAndReportedOnIt(t *testing.T) {
	defer stagetest.Guard(t, time.Minute)()
	var out strings.Builder
	if err := run(&out, 6, time.Millisecond, 2); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if got := strings.Count(out.String(), " words, counted by worker "); got != 6 {
		t.Errorf("%d pages counted, want 6:\n%s", got, out.String())
	}
	if strings.Contains(out.String(), " 0 words") || strings.Contains(out.String(), "by worker 0") {
		t.Errorf("a page failed or came back empty:\n%s", out.String())
	}
}

// The tutorial quotes this stage's output: run it as main does, with a
// shorter wait, and check that what the tutorial shows is what it prints.
func TestTheTutorialQuotesWhatItPrints(t *testing.T) {
	defer stagetest.Guard(t, time.Minute)()
	var out strings.Builder
	if err := run(&out, 20, 2*time.Millisecond, 3); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	doccheck.Quoted(t, "docs/tutorial.md", "go run ./docs/stages/8-threadsafe", out.String(), `worker \d+`)
}
