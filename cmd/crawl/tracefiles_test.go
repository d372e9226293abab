package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// --trace_events with --parse_workers 0 (every page parsed on its loop)
// has no parse workers' lane, and says so.
func TestTraceEventsWithNoParseWorkers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.json")
	stderr := crawlDemo(t, "--parse_workers", "0", "--trace_events", path, "--demo_pages", "10")
	if !regexp.MustCompile(`(?m)^crawl: trace events: [1-9]\d* turns and [1-9]\d* callbacks on 1 loop, [1-9]\d* requests on [1-9]\d* connections?, 0 pages on 0 parse workers: \d+\.\d MB in ` + regexp.QuoteMeta(path) + ` \(`).MatchString(stderr) {
		t.Errorf("no summary of the trace events with no parse worker:\n%s", stderr)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ TraceEvents []map[string]any }
	if err := json.Unmarshal(b, &doc); err != nil || len(doc.TraceEvents) == 0 {
		t.Fatalf("not a trace: %v", err)
	}
	if strings.Contains(string(b), "parse workers") {
		t.Errorf("a parse workers' lane with --parse_workers 0")
	}
}

// A --trace, --trace_events or --timeline file that cannot be created is
// bad usage, said in one line, and nothing is crawled.
func TestTraceFileThatCannotBeCreatedIsBadUsage(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "no", "such", "dir", "f")
	for _, args := range [][]string{
		{"--trace", bad},
		{"--trace", filepath.Join(dir, "t.jsonl"), "--trace_events", bad},
	} {
		var stdout, stderr bytes.Buffer
		code := run(append(args, "127.0.0.1:1"), &stdout, &stderr, nil)
		lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
		if code != 2 || len(lines) != 1 || !strings.HasPrefix(lines[0], "crawl: ") || !strings.Contains(lines[0], bad) || stdout.Len() != 0 {
			t.Errorf("%v: exit %d, stderr %q, stdout %q", args, code, stderr.String(), stdout.String())
		}
	}
}
