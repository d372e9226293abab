package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"loopkit/site"
)

func TestBadUsageIsOneLineAndExitStatus2(t *testing.T) {
	for _, args := range [][]string{
		{"--max_tasks", "zero"},
		{"--no_such_flag"},
		{"--exclude", "("},
		{"--max_tasks", "0"},
		{"--poller", "select", "127.0.0.1:1"},
		{"ftp://example.invalid/"},
		{"http://"},
		{"--ca", "/no/such/file.pem", "example.invalid"},
		{"--ca", "main_test.go", "example.invalid"}, // a file, but no certificate in it
		{"--redis", "redis://127.0.0.1:1/0", "--crawl_id", "c", "--lease", "100ms"}, // refused before any connection
	} {
		var stdout, stderr bytes.Buffer
		code := run(args, &stdout, &stderr, nil)
		lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
		if code != 2 || len(lines) != 1 || !strings.HasPrefix(lines[0], "crawl: ") || stdout.Len() != 0 {
			t.Errorf("%v: exit %d, stderr %q, stdout %q", args, code, stderr.String(), stdout.String())
		}
	}
}

func TestHelpGoesToStdout(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-h"}, &stdout, &stderr, nil); code != 0 || !strings.Contains(stdout.String(), "-max_tasks") {
		t.Fatalf("exit %d, stdout %q", code, stdout.String())
	}
}

// With no root, the command crawls its built-in demo site and says so;
// the report has the chapter's shape, and -o writes one JSON object per
// recorded URL.
func TestNoRootCrawlsTheDemoSite(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out.jsonl")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-o", out}, &stdout, &stderr, nil); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "demo site at http://127.0.0.1:") {
		t.Errorf("stderr does not say it crawls the demo site: %q", stderr.String())
	}
	report := stdout.String()
	for _, re := range []string{
		`(?m)^\*\*\* Report \*\*\*$`,
		`(?m)^http://127\.0\.0\.1:\d+/ 200 text/html utf-8 \d+ \d+/\d+$`,
		`(?m)^http://127\.0\.0\.1:\d+/old/\d+ 301 redirect http://`,
		`(?m)^Finished \d+ urls in \d+\.\d{3} secs \(max_tasks=100\) \(\d+\.\d{3} urls/sec/task\)$`,
		`(?m)^Todo: 0$`, `(?m)^Done: \d+$`, `(?m)^Date: .* local time$`,
	} {
		if !regexp.MustCompile(re).MatchString(report) {
			t.Errorf("report lacks %s:\n%s", re, head(report))
		}
	}
	recs := readJSONL(t, out)
	done := regexp.MustCompile(`(?m)^Done: (\d+)$`).FindStringSubmatch(report)
	if done == nil || len(recs) == 0 || done[1] != itoa(len(recs)) {
		t.Fatalf("%d JSON lines, report says Done: %v", len(recs), done)
	}
	for _, key := range []string{"url", "next_url", "status", "exception", "size", "content_type",
		"encoding", "num_urls", "num_new_urls", "depth", "tries", "elapsed_ms"} {
		if _, ok := recs[0][key]; !ok {
			t.Errorf("record lacks %q: %v", key, recs[0])
		}
	}
}

// --demo_hosts splits the demo site over several hosts: the crawl finds
// every host, fetches each one's robots.txt once, and records exactly the
// URLs the site says a polite crawler fetches.
func TestDemoHostsCrawlsEveryHost(t *testing.T) {
	cfg := site.Config{Pages: 300, Hosts: 3}
	ref, err := site.Start(cfg, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	want := len(ref.Expected(true))
	ref.Close()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-q", "--demo_hosts", "3", "--demo_pages", "300"}, &stdout, &stderr, nil); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	report := stdout.String()
	if done := reportCount(t, report, "Done"); done != want {
		t.Fatalf("Done: %d, the site has %d URLs a polite crawler fetches", done, want)
	}
	if !regexp.MustCompile(`(?m)^ +3 robots_fetches$`).MatchString(report) {
		t.Fatalf("want one robots.txt per host:\n%s", report[strings.LastIndex(report, "Finished"):])
	}
}

// Ctrl-C mid-crawl: the crawl stops taking work, the report of what was
// done is printed, the output file is complete JSON Lines with one line
// per recorded URL, and the exit status says it was interrupted.
func TestInterruptMidCrawlKeepsEverythingRecorded(t *testing.T) {
	s, err := site.Start(site.Config{Pages: 2000}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	out := filepath.Join(t.TempDir(), "out.jsonl")
	interrupt := make(chan struct{})
	go func() {
		// Interrupt once the crawl is well under way.
		for s.Stats().Requests < 200 {
			time.Sleep(time.Millisecond)
		}
		close(interrupt)
	}()
	var stdout, stderr bytes.Buffer
	code := run([]string{"-o", out, "--max_tasks", "4", s.URL() + "catalogue/category/books_1/page-1.html", s.URL()}, &stdout, &stderr, interrupt)
	if code != 130 {
		t.Fatalf("exit %d, want 130: %s", code, stderr.String())
	}
	recs := readJSONL(t, out)
	done := regexp.MustCompile(`(?m)^Done: (\d+)$`).FindStringSubmatch(stdout.String())
	todo := regexp.MustCompile(`(?m)^Todo: (\d+)$`).FindStringSubmatch(stdout.String())
	if done == nil || todo == nil || done[1] != itoa(len(recs)) || todo[1] == "0" {
		t.Fatalf("%d JSON lines; report says %v %v", len(recs), done, todo)
	}
	if len(recs) >= len(s.Expected(true)) {
		t.Fatalf("the interrupt did not stop the crawl (%d records)", len(recs))
	}
	if !strings.Contains(stdout.String(), "Interrupted") {
		t.Error("the report does not say it was interrupted")
	}
}

func readJSONL(t *testing.T, path string) []map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var recs []map[string]any
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("line %d is not JSON: %v: %q", len(recs)+1, err, sc.Text())
		}
		recs = append(recs, m)
	}
	return recs
}

func itoa(n int) string { return strconv.Itoa(n) }

func head(s string) string { return s[:min(len(s), 800)] }
