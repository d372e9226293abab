package main

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// With --state and no ROOT, the demo site listens where the directory's
// crawl had it, so the same command goes on; a finished crawl run again
// says it was finished, fetches nothing and exits 0.
func TestDemoWithStateComesBackOnItsPort(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	args := []string{"--state", state, "--demo_pages", "20"}
	first := crawlDemo(t, args...)
	at := regexp.MustCompile(`demo site at (http://127\.0\.0\.1:\d+/)`)
	m1 := at.FindStringSubmatch(first)
	if m1 == nil {
		t.Fatalf("the first run does not say where the demo site is:\n%s", first)
	}
	var stdout, stderr bytes.Buffer
	if code := run(args, &stdout, &stderr, nil); code != 0 {
		t.Fatalf("the second run: exit %d: %s", code, stderr.String())
	}
	m2 := at.FindStringSubmatch(stderr.String())
	if m2 == nil || m2[1] != m1[1] {
		t.Fatalf("the second run's demo site is not where the first had it (%s):\n%s", m1[1], stderr.String())
	}
	if !strings.Contains(stderr.String(), "crawl: nothing was left to do: the crawl in --state was finished\n") {
		t.Fatalf("the second run does not say the crawl was finished:\n%s", stderr.String())
	}
	if reportCount(t, stdout.String(), "Done") != 0 {
		t.Fatalf("the second run did something:\n%s", stdout.String())
	}
}

// Only a demo's crawl, on 127.0.0.1 with a port, decides where the demo
// listens: a state whose root is elsewhere leaves it any free port.
func TestDemoAddrIgnoresOtherCrawlsState(t *testing.T) {
	if addr, why := demoAddr(""); addr != "127.0.0.1:0" || why != "" {
		t.Fatalf("no --state: %q %q", addr, why)
	}
	state := filepath.Join(t.TempDir(), "state")
	var stdout, stderr bytes.Buffer
	run([]string{"-q", "--state", state, "--max_tries", "1", "http://localhost:1/"}, &stdout, &stderr, nil)
	if addr, why := demoAddr(state); addr != "127.0.0.1:0" || why != "" {
		t.Fatalf("a state whose root is http://localhost:1/: %q %q (stderr %s)", addr, why, stderr.String())
	}
}
