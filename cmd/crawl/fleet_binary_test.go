package main

import (
	"strings"
	"testing"

	"loopkit/internal/redistest"
	"loopkit/internal/wirelog"
)

// A process that joins a fleet's crawl with other politeness is refused,
// exit status 1, with both values said in the command's words (its
// flags, not the library's fields), and nothing fetched.
func TestAFleetJoinerWithOtherPolitenessIsRefusedInFlags(t *testing.T) {
	rds := redistest.Start(t, redistest.Options{})
	srv := wirelog.New(t)
	base := srv.Host("h", wirelog.Fan(2, nil))
	first := startCrawl(t, "-q", "--redis", rds.URL(), "--crawl_id", "polite", "--per_host", "2", "--delay", "10ms", base)
	if code := first.exit(t); code != 0 {
		t.Fatalf("the first process: exit %d; stderr: %s", code, first.stderr.String())
	}
	fetched := len(srv.Arrivals("h"))
	rude := startCrawl(t, "-q", "--redis", rds.URL(), "--crawl_id", "polite", "--per_host", "8")
	if code := rude.exit(t); code != 1 {
		t.Fatalf("a joiner with --per_host 8: exit %d, want 1; stderr: %s", code, rude.stderr.String())
	}
	stderr := rude.stderr.String()
	for _, want := range []string{"--crawl_id polite", "--per_host was 2, now 8", "--delay was 10ms, now 0s"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("the refusal does not say %q: %s", want, stderr)
		}
	}
	if strings.Contains(stderr, "Config.") || strings.Contains(stderr, "Options.") {
		t.Errorf("the refusal speaks the library's fields: %s", stderr)
	}
	if n := len(srv.Arrivals("h")); n != fetched {
		t.Fatalf("the refused process fetched %d pages", n-fetched)
	}
}
