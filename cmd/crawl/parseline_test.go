package main

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// The parsing line says which pages stay on the loop, and its count of
// pages parsed off it is the crawl's: every HTML page of 4 KiB or more,
// and none under. Pages padded to either side of 4 KiB show both.
func TestTheParsingLineSaysWhichPagesStayOnTheLoop(t *testing.T) {
	line := regexp.MustCompile(`(?m)^crawl: parsing: (\d+) pages off the loop on 2 workers, the rest \(pages under 4 KiB\) on the loop; `)
	for _, bytes := range []string{"3000", "6000"} {
		out := filepath.Join(t.TempDir(), "out.jsonl")
		stderr := crawlDemo(t, "-o", out, "--parse_workers", "2", "--max_pages", "30", "--demo_page_bytes", bytes)
		m := line.FindStringSubmatch(stderr)
		if m == nil {
			t.Fatalf("--demo_page_bytes %s: no parsing line that names 4 KiB:\n%s", bytes, stderr)
		}
		big := 0
		for _, r := range readJSONL(t, out) {
			if size, _ := r["size"].(float64); r["content_type"] == "text/html" && size >= 4<<10 {
				big++
			}
		}
		if off, _ := strconv.Atoi(m[1]); off != big {
			t.Errorf("--demo_page_bytes %s: %d pages off the loop, but %d HTML pages of 4 KiB or more", bytes, off, big)
		}
		if bytes == "6000" && big == 0 {
			t.Errorf("--demo_page_bytes 6000: no page of 4 KiB or more: the test shows nothing")
		}
	}
}

// crawlDemo runs the command on the demo site and returns its stderr.
func crawlDemo(t *testing.T, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run(args, &stdout, &stderr, nil); code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, stderr.String())
	}
	return stderr.String()
}
