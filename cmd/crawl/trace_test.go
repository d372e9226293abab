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
)

// --trace writes one JSON object per turn of the loop, numbered in order,
// with the fields docs/tutorial.md describes; stderr ends with the loop's
// line (its worst stall) and the trace's summary. Without --trace the
// loop's line is there all the same, and -q silences both.
func TestTraceWritesATurnPerLineAndTheLoopsStatsAreSummed(t *testing.T) {
	defer time.AfterFunc(time.Minute, func() { panic("hung: the crawl of the demo site did not end in a minute") }).Stop()
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"--trace", trace, "--max_pages", "20"}, &stdout, &stderr, nil); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	f, err := os.Open(trace)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var turns, waits, readyFDs, registers int
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var rec struct {
			N         int     `json:"n"`
			Outside   bool    `json:"outside"`
			TimeoutUS float64 `json:"timeout_us"`
			Polled    bool    `json:"polled"`
			Ready     []struct {
				FD int  `json:"fd"`
				R  bool `json:"r"`
				W  bool `json:"w"`
			} `json:"ready"`
			Callbacks int    `json:"callbacks"`
			Longest   string `json:"longest"`
			Ops       []struct {
				Op string `json:"op"`
				FD int    `json:"fd"`
			} `json:"ops"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("line %d is not JSON: %v\n%s", turns+1, err, sc.Text())
		}
		if !rec.Outside {
			if turns++; rec.N != turns {
				t.Fatalf("turn %d is numbered %d", turns, rec.N)
			}
		}
		if rec.Polled {
			waits++
		}
		for _, r := range rec.Ready {
			if r.FD <= 0 || (!r.R && !r.W) {
				t.Fatalf("a ready fd with no readiness: %s", sc.Text())
			}
			readyFDs++
		}
		for _, op := range rec.Ops {
			if op.Op == "register" {
				registers++
			}
		}
		if rec.Callbacks > 0 && rec.Longest == "" {
			t.Fatalf("callbacks ran, but the longest is not named: %s", sc.Text())
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if turns == 0 || waits == 0 || readyFDs == 0 || registers == 0 {
		t.Fatalf("%d turns, %d waits, %d ready fds, %d registrations: a crawl has all four", turns, waits, readyFDs, registers)
	}
	loopLine := regexp.MustCompile(`(?m)^crawl: loop: (\d+) turns, (\d+) waits, asleep \S+; \d+ callbacks, busy \S+; longest \S+ \(.+\), p99 \S+$`)
	m := loopLine.FindStringSubmatch(stderr.String())
	if m == nil || m[1] != strconv.Itoa(turns) || m[2] != strconv.Itoa(waits) {
		t.Fatalf("the loop's line is missing or disagrees with the trace (%d turns, %d waits):\n%s", turns, waits, stderr.String())
	}
	if !strings.Contains(stderr.String(), "crawl: trace: "+strconv.Itoa(turns)+" turns, "+strconv.Itoa(waits)+" waits, "+strconv.Itoa(readyFDs)+" ready fds; calls: ") {
		t.Fatalf("no trace summary, or a wrong one:\n%s", stderr.String())
	}

	stderr.Reset()
	if code := run([]string{"--max_pages", "5", "--loops", "1"}, &stdout, &stderr, nil); code != 0 || !loopLine.MatchString(stderr.String()) {
		t.Fatalf("without --trace: exit %d, no loop line:\n%s", code, stderr.String())
	}
	stderr.Reset()
	eachLoop := regexp.MustCompile(`(?m)^crawl: loop (\d): \d+ turns, \d+ waits, asleep \S+; \d+ callbacks, busy \S+; longest \S+ \(.+\), p99 \S+$`)
	if code := run([]string{"--max_pages", "5", "--loops", "3"}, &stdout, &stderr, nil); code != 0 || len(eachLoop.FindAllString(stderr.String(), -1)) != 3 {
		t.Fatalf("--loops 3: exit %d, want a line for each loop:\n%s", code, stderr.String())
	}
	stderr.Reset()
	if code := run([]string{"-q", "--trace", trace, "--max_pages", "5"}, &stdout, &stderr, nil); code != 0 || stderr.Len() != 0 {
		t.Fatalf("-q: exit %d, stderr %q", code, stderr.String())
	}
}
