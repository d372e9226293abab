package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// A demo site out of range is bad usage: exit 2, one line that says it
// was the demo site that could not start.
func TestDemoSiteOutOfRangeIsBadUsage(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run([]string{"--demo_hosts", "100000"}, &stdout, &stderr, nil)
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if code != 2 || len(lines) != 1 || !strings.HasPrefix(lines[0], "crawl: starting the demo site: ") || stdout.Len() != 0 {
		t.Fatalf("exit %d, stderr %q, stdout %q", code, stderr.String(), stdout.String())
	}
}

// The notices of a demo crawl on two hosts and two loops, with a seen set
// that spills to disk: the demo's first and last host, the loops and the
// poller, the queue's peak, the seen set on disk, and the links that
// crossed between the loops, and each loop's stats named by its index.
// On one loop no link crosses, and that line is not said; with -q none
// is.
func TestNoticesOfAMultiLoopDemoCrawl(t *testing.T) {
	args := []string{"--demo_hosts", "2", "--demo_pages", "60", "--seen_memory", "10", "--queue_memory", "7"}
	stderr := crawlDemo(t, append(args, "--loops", "2", "--poller", "poll")...)
	for _, re := range []string{
		`(?m)^crawl: no root given: crawling the built-in demo site on 2 hosts, http://127\.0\.0\.1:(\d+)/ to http://127\.0\.0\.1:(\d+)/$`,
		`(?m)^crawl: crawling \[http://127\.0\.0\.1:\d+/ http://127\.0\.0\.1:\d+/\] on 2 loops with the poll poller$`,
		`(?m)^crawl: queue: at most [1-9]\d* URLs waited in memory at once \(--queue_memory 7, the rest on disk\)$`,
		`(?m)^crawl: seen set: [1-9]\d* URLs on disk past --seen_memory 10; (\d+) links asked of it in (\d+) passes, (\d+) of them seen before$`, // none when the hash puts both hosts on one loop
		`(?m)^crawl: \d+ links crossed from one loop to another$`,
		`(?m)^crawl: loop 0: [1-9]\d* turns, \d+ waits, asleep \S+; [1-9]\d* callbacks, busy \S+; longest \S+ \(\S+\), p99 \S+$`,
		`(?m)^crawl: loop 1: [1-9]\d* turns, `,
	} {
		if !regexp.MustCompile(re).MatchString(stderr) {
			t.Errorf("stderr lacks %s:\n%s", re, stderr)
		}
	}
	// The demo's hosts are on consecutive ports, the first and the last said.
	if m := regexp.MustCompile(`demo site on 2 hosts, http://127\.0\.0\.1:(\d+)/ to http://127\.0\.0\.1:(\d+)/`).FindStringSubmatch(stderr); m != nil {
		if first, last := atoi(t, m[1]), atoi(t, m[2]); last != first+1 {
			t.Errorf("the demo's hosts said as ports %d to %d, want consecutive ones", first, last)
		}
	}
	// A pass asks the disk of at least one link, and a link is seen before
	// only if it was asked.
	if m := regexp.MustCompile(`; (\d+) links asked of it in (\d+) passes, (\d+) of them`).FindStringSubmatch(stderr); m != nil {
		if asked, passes, repeats := atoi(t, m[1]), atoi(t, m[2]), atoi(t, m[3]); passes > asked || repeats > asked {
			t.Errorf("%d links asked in %d passes, %d seen before: the counts are in the wrong places", asked, passes, repeats)
		}
	}
	one := crawlDemo(t, append(args, "--loops", "1")...)
	if !strings.Contains(one, " on 1 loop with the ") || strings.Contains(one, "crossed") ||
		!regexp.MustCompile(`(?m)^crawl: loop: [1-9]\d* turns, `).MatchString(one) {
		t.Errorf("on one loop:\n%s", one)
	}
	if quiet := crawlDemo(t, append(args, "-q", "--loops", "2")...); quiet != "" {
		t.Errorf("-q said:\n%s", quiet)
	}
}
