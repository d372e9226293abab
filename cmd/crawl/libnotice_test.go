package main

import (
	"bytes"
	"strings"
	"testing"

	"loopkit/internal/wirelog"
)

// The library's notices reach stderr in the command's words: a host's
// cap names --max_pages_per_host, not Config.MaxPagesPerHost.
func TestLibraryNoticesAreSaidInFlags(t *testing.T) {
	srv := wirelog.New(t)
	base := srv.Host("h", wirelog.Fan(5, nil))
	var stdout, stderr bytes.Buffer
	if code := run([]string{"--max_pages_per_host", "2", base + "/"}, &stdout, &stderr, nil); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "--max_pages_per_host") || strings.Contains(stderr.String(), "Config.") {
		t.Fatalf("stderr:\n%s", stderr.String())
	}
}

// Without --timeline nothing is drawn or said of a timeline, even when
// another trace is asked for; crawl -h describes --exclude without fault.
func TestNoTimelineUnlessAsked(t *testing.T) {
	out := crawlDemo(t, "--trace", t.TempDir()+"/t.jsonl", "--demo_pages", "10")
	if strings.Contains(out, "timeline") {
		t.Fatalf("stderr speaks of a timeline:\n%s", out)
	}
	var help bytes.Buffer
	parseFlags([]string{"-h"}, &help)
	if !strings.Contains(help.String(), "-exclude value") || strings.Contains(help.String(), "panic") {
		t.Fatalf("-h:\n%s", help.String())
	}
}
