package main

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"loopkit/docs/internal/doccheck"
	"loopkit/docs/stages/internal/stagetest"
)

func TestFetchesEveryPageTwiceAndTheSemaphoreBoundsTheServer(t *testing.T) {
	defer stagetest.Guard(t, time.Minute)()
	var out strings.Builder
	if err := run(&out, 8, 5*time.Millisecond, 3); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if got := strings.Count(out.String(), " 200 "); got != 16 {
		t.Errorf("%d pages answered 200, want 8 in each of two rounds:\n%s", got, out.String())
	}
	summary := regexp.MustCompile(`fetched 8 pages in \S+ with limit (\d+); server peak in flight: (\d+)`)
	rounds := summary.FindAllStringSubmatch(out.String(), -1)
	if len(rounds) != 2 || rounds[0][1] != "0" || rounds[1][1] != "3" {
		t.Fatalf("want a summary for limit 0, then one for limit 3:\n%s", out.String())
	}
	// The server counts what it receives: with the semaphore it can never
	// see more than the limit, however the requests are timed.
	if peak, _ := strconv.Atoi(rounds[1][2]); peak < 1 || peak > 3 {
		t.Errorf("with limit 3 the server saw %d requests at once", peak)
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
	if err := run(&out, 20, 100*time.Millisecond, 5); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	doccheck.Quoted(t, "docs/tutorial.md", "go run ./docs/stages/5-tasks", out.String())
}
