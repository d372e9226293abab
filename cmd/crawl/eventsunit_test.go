package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loopkit/crawler"
	"loopkit/crawler/http1"
	"loopkit/loop"
)

// The trace events of a few made-up requests, turns and a parse, written
// and read back: a connection's requests follow each other, each with its
// try and outcome and one slice per phase of some length; a host's
// counter has one value per instant and its levels nest, the longer
// first; a request of no time in flight is in none; a zero-timeout wait
// is a poll; the summary counts the pages parsed.
func TestTraceEventsOfMadeUpRequests(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.json")
	e, err := createEvents(path, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	e.describe("epoll")
	ms := time.Millisecond
	e.loop(0).write(&loop.Iteration{N: 1, End: ms, Polled: true, Timeout: 0}, 0)
	e.loop(0).write(&loop.Iteration{N: 2, Start: ms, End: 3 * ms, Polled: true, Timeout: -1, Asleep: ms}, 0)
	for _, a := range []crawler.Attempt{
		{URL: "http://h/a", Try: 2, Status: 200, Trace: http1.Trace{Conn: 1,
			Timings: http1.Timings{Connect: ms, Written: ms, FirstByte: 3 * ms, Done: 5 * ms}}},
		{URL: "http://h/b", Try: 1, Status: 404, Trace: http1.Trace{Conn: 1, Start: ms,
			Timings: http1.Timings{FirstByte: 6 * ms, Done: 7 * ms}}},
		{URL: "http://h/c", Try: 1, Err: "refused", Trace: http1.Trace{Conn: 2, Timings: http1.Timings{Done: 2 * ms}}},
		{URL: "http://h/d", Try: 1, Err: "cancelled", Trace: http1.Trace{Start: 9 * ms}},
	} {
		e.conns.attempted(&a, 0)
	}
	epoch := time.Now()
	e.parsed(epoch)(crawler.ParseEvent{Worker: 0, URL: "http://h/a", Bytes: 10, Start: epoch, End: epoch.Add(ms)})
	summary, err := e.close()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(summary, "4 requests on 2 connections, 1 page on 1 parse worker") {
		t.Errorf("summary %q", summary)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		TraceEvents []struct {
			Ph, Name, Cat string
			Pid, Tid      int
			Ts, Dur       int64
			Args          map[string]any
		}
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	var got []string
	for _, ev := range doc.TraceEvents {
		switch {
		case ev.Ph == "M":
		case ev.Cat == "request":
			got = append(got, fmt.Sprintf("request %s tid %d at %d for %d: try %v, %v", ev.Name, ev.Tid, ev.Ts, ev.Dur, ev.Args["try"], ev.Args["outcome"]))
		case ev.Ph == "C":
			got = append(got, fmt.Sprintf("counter %s at %d: %v", ev.Name, ev.Ts, ev.Args["requests"]))
		case ev.Cat == "net", ev.Cat == "host":
			got = append(got, fmt.Sprintf("%s %s %s at %d for %d", ev.Cat, ev.Ph, ev.Name, ev.Ts, ev.Dur))
		case ev.Cat == "loop" && ev.Name != "turn":
			got = append(got, fmt.Sprintf("%s timeout %v, woken by %v", ev.Name, ev.Args["timeout"], ev.Args["woken by"]))
		}
	}
	want := []string{
		"poll timeout 0s, woken by <nil>", // it could not sleep: nothing woke it
		"wait timeout forever, woken by nothing: the wait ran out",
		"request /a tid 1001 at 0 for 5000: try 2, status 200",
		"net X connect at 0 for 1000", // the write, which ended with the connect, is no slice
		"net X wait at 1000 for 2000",
		"net X read at 3000 for 2000",
		"request /b tid 1001 at 5000 for 3000: try 1, status 404", // after /a on its connection
		"net X wait at 5000 for 2000",
		"net X read at 7000 for 1000",
		"request /c tid 1002 at 0 for 2000: try 1, refused",
		"net X dns at 0 for 2000",
		"request /d tid 2000001 at 9000 for 0: try 1, cancelled", // no connection, and no time in flight
		"counter in flight: h at 0: 2",
		"counter in flight: h at 2000: 1",
		"counter in flight: h at 5000: 1", // /a's end and /b's start: one value
		"counter in flight: h at 8000: 0",
		"host X 1 in flight at 0 for 5000",
		"host X 2 in flight at 0 for 2000",
		"host X 1 in flight at 5000 for 3000",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A parse event from a worker beyond those the trace was made for is
// not in it, and closing the trace says so, even for one.
func TestTraceEventsSayALostParse(t *testing.T) {
	e, err := createEvents(filepath.Join(t.TempDir(), "events.json"), 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	e.describe("epoll")
	now := time.Now()
	e.parsed(now)(crawler.ParseEvent{Worker: 1, URL: "http://h/", Start: now, End: now})
	if _, err := e.close(); err == nil || !strings.Contains(err.Error(), "1 parse events came from workers beyond the 1 expected") {
		t.Fatalf("close: %v", err)
	}
}
