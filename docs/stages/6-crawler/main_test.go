package main

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"loopkit/docs/internal/doccheck"
	"loopkit/docs/stages/internal/stagetest"
)

func TestCrawlsTheWholeSite(t *testing.T) {
	defer stagetest.Guard(t, time.Minute)()
	var out strings.Builder
	if err := run(&out, time.Millisecond, 5); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	report := out.String()
	m := regexp.MustCompile(`the site has (\d+) URLs`).FindStringSubmatch(report)
	if m == nil {
		t.Fatalf("no summary line:\n%s", report)
	}
	if !strings.Contains(report, "*** Report ***") || !strings.Contains(report, fmt.Sprintf("\nDone: %s\n", m[1])) {
		t.Errorf("the report should list all %s URLs:\n%s", m[1], report)
	}
	if !strings.Contains(report, "\nTodo: 0\n") {
		t.Errorf("the crawl left work undone:\n%s", report)
	}
	// PerHost 4 lets four page requests through at once, and the client
	// keeps one connection more for robots.txt: five at the very most.
	if !regexp.MustCompile(`at most [1-5] requests at once`).MatchString(report) {
		t.Errorf("the server saw more requests at once than PerHost allows:\n%s", report)
	}
}

// The tutorial quotes this stage's output: run it as main does, and check
// that what the tutorial shows is what it prints. The quote names the
// server's peak (four, the per-host limit), so each answer takes main's
// 20 ms: long enough for the fourth request to arrive before the first
// is answered, even under -race on a busy machine.
func TestTheTutorialQuotesWhatItPrints(t *testing.T) {
	defer stagetest.Guard(t, time.Minute)()
	var out strings.Builder
	if err := run(&out, 20*time.Millisecond, 10); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	doccheck.Quoted(t, "docs/tutorial.md", "go run ./docs/stages/6-crawler", out.String())
}
