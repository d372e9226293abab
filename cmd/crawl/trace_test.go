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

// traceCounts are what a --trace file holds, for one loop.
type traceCounts struct{ turns, waits, readyFDs, registers int }

// readJSONLTrace reads a --trace file: every line one JSON object, each
// loop's turns numbered in order; with several loops, each line says
// which loop's it is. It returns the counts by loop.
func readJSONLTrace(t *testing.T, path string, loops int) []traceCounts {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	counts := make([]traceCounts, loops)
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		var rec struct {
			Loop      *int    `json:"loop"`
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
			t.Fatalf("line %d is not JSON: %v\n%s", line, err, sc.Text())
		}
		i := 0
		switch {
		case loops == 1 && rec.Loop != nil:
			t.Fatalf("line %d names a loop, and there is only one: %s", line, sc.Text())
		case loops > 1 && (rec.Loop == nil || *rec.Loop < 0 || *rec.Loop >= loops):
			t.Fatalf("line %d does not say which of %d loops it is: %s", line, loops, sc.Text())
		case loops > 1:
			i = *rec.Loop
		}
		c := &counts[i]
		if !rec.Outside {
			if c.turns++; rec.N != c.turns {
				t.Fatalf("loop %d's turn %d is numbered %d", i, c.turns, rec.N)
			}
		}
		if rec.Polled {
			c.waits++
		}
		for _, r := range rec.Ready {
			if r.FD <= 0 || (!r.R && !r.W) {
				t.Fatalf("a ready fd with no readiness: %s", sc.Text())
			}
			c.readyFDs++
		}
		for _, op := range rec.Ops {
			if op.Op == "register" {
				c.registers++
			}
		}
		if rec.Callbacks > 0 && rec.Longest == "" {
			t.Fatalf("callbacks ran, but the longest is not named: %s", sc.Text())
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return counts
}

// --trace writes one JSON object per turn of each loop, numbered in
// order, with the fields docs/tutorial.md describes; stderr ends with each
// loop's line (its worst stall), whose counts are the trace's, and the
// trace's summary. With several loops each line says whose it is. Without
// --trace the loop's line is there all the same, and -q silences both.
func TestTraceWritesATurnPerLineAndTheLoopsStatsAreSummed(t *testing.T) {
	defer time.AfterFunc(time.Minute, func() { panic("hung: the crawl of the demo site did not end in a minute") }).Stop()
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	var stdout, stderr bytes.Buffer
	loopLine := regexp.MustCompile(`(?m)^crawl: loop( \d)?: (\d+) turns, (\d+) waits, asleep \S+; \d+ callbacks, busy \S+; longest \S+ \(.+\), p99 \S+$`)
	for _, loops := range []int{1, 2} {
		stderr.Reset()
		if code := run([]string{"--trace", trace, "--max_pages", "20", "--loops", strconv.Itoa(loops)}, &stdout, &stderr, nil); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
		counts := readJSONLTrace(t, trace, loops)
		var sum traceCounts
		lines := loopLine.FindAllStringSubmatch(stderr.String(), -1)
		if len(lines) != loops {
			t.Fatalf("--loops %d: %d loop lines on stderr:\n%s", loops, len(lines), stderr.String())
		}
		for i, c := range counts {
			if m := lines[i]; m[2] != strconv.Itoa(c.turns) || m[3] != strconv.Itoa(c.waits) {
				t.Fatalf("--loops %d: loop %d's line disagrees with the trace (%d turns, %d waits):\n%s", loops, i, c.turns, c.waits, stderr.String())
			}
			if c.turns == 0 {
				t.Fatalf("--loops %d: no turn of loop %d in the trace", loops, i)
			}
			sum.turns, sum.waits, sum.readyFDs, sum.registers = sum.turns+c.turns, sum.waits+c.waits, sum.readyFDs+c.readyFDs, sum.registers+c.registers
		}
		if sum.waits == 0 || sum.readyFDs == 0 || sum.registers == 0 {
			t.Fatalf("--loops %d: %+v: a crawl has waits, ready fds and registrations", loops, sum)
		}
		if !strings.Contains(stderr.String(), "crawl: trace: "+strconv.Itoa(sum.turns)+" turns, "+strconv.Itoa(sum.waits)+" waits, "+strconv.Itoa(sum.readyFDs)+" ready fds; calls: ") {
			t.Fatalf("--loops %d: no trace summary, or a wrong one:\n%s", loops, stderr.String())
		}
	}

	stderr.Reset()
	if code := run([]string{"--max_pages", "5", "--loops", "1"}, &stdout, &stderr, nil); code != 0 || len(loopLine.FindAllString(stderr.String(), -1)) != 1 {
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
