package main

import (
	"testing"
	"time"

	"loopkit/crawler"
	"loopkit/crawler/http1"
	"loopkit/loop"
)

// barOf moves an attempt onto the timeline's clock — its queueing, its
// start and each phase's end — and says what it was: a retry (not a
// first try), a failure (an error, or an error status for a page, not
// for a robots.txt, whose 404 is no failure), with a tooltip naming the
// URL, the try, the loop, the connection and the outcome.
func TestBarOfAnAttempt(t *testing.T) {
	const offset = time.Second
	a := &crawler.Attempt{URL: "https://h.example:8443/a/b?c=d", Loop: 1, Try: 2, Queued: 5 * time.Millisecond, Status: 200,
		Trace: http1.Trace{Conn: 3, Start: 10 * time.Millisecond,
			Timings: http1.Timings{Connect: time.Millisecond, Done: 4 * time.Millisecond}}}
	b := barOf(a, offset)
	if b.Lane != 3 || b.Loop != 1 || b.Host != "h.example:8443" || b.Label != "/a/b?c=d" {
		t.Errorf("lane %d, loop %d, host %q, label %q", b.Lane, b.Loop, b.Host, b.Label)
	}
	if want := "https://h.example:8443/a/b?c=d\ntry 2, loop 1, connection 3: status 200"; b.Detail != want {
		t.Errorf("detail %q, want %q", b.Detail, want)
	}
	if b.Queued != offset+5*time.Millisecond || b.Start != offset+10*time.Millisecond {
		t.Errorf("queued %v, start %v: not moved by the offset", b.Queued, b.Start)
	}
	// https: after the connect comes the TLS handshake, not the write.
	if len(b.Phases) != 2 || b.Phases[0].End != offset+11*time.Millisecond || b.Phases[1].End != offset+14*time.Millisecond ||
		b.Phases[1].Name != "tls" {
		t.Errorf("phases %+v", b.Phases)
	}
	if !b.Retry || b.Failed || b.Robots {
		t.Errorf("retry %v, failed %v, robots %v", b.Retry, b.Failed, b.Robots)
	}
	for _, tc := range []struct {
		a                     crawler.Attempt
		retry, failed, robots bool
		outcome               string
	}{
		{crawler.Attempt{URL: "http://h/", Try: 1, Status: 200}, false, false, false, "status 200"},
		{crawler.Attempt{URL: "http://h/", Try: 1, Status: 399}, false, false, false, "status 399"},
		{crawler.Attempt{URL: "http://h/", Try: 1, Status: 400}, false, true, false, "status 400"},
		{crawler.Attempt{URL: "http://h/robots.txt", Try: 1, Status: 404, Robots: true}, false, false, true, "status 404"},
		{crawler.Attempt{URL: "http://h/robots.txt", Try: 3, Err: "timeout", Robots: true}, true, true, true, "timeout"},
		{crawler.Attempt{URL: "http://h/", Try: 1, Err: "connection refused"}, false, true, false, "connection refused"},
	} {
		b := barOf(&tc.a, 0)
		if b.Retry != tc.retry || b.Failed != tc.failed || b.Robots != tc.robots || b.Detail[len(b.Detail)-len(tc.outcome):] != tc.outcome {
			t.Errorf("%+v: retry %v, failed %v, robots %v, detail %q", tc.a, b.Retry, b.Failed, b.Robots, b.Detail)
		}
	}
	if b := barOf(&crawler.Attempt{URL: "http://h/", Trace: http1.Trace{Timings: http1.Timings{Connect: time.Millisecond, Done: 2 * time.Millisecond}}}, 0); len(b.Phases) != 2 || b.Phases[1].Name != "write" {
		t.Errorf("http: the phase after the connect is %+v, want the write", b.Phases)
	}
}

// The stats line puts each number in its place: turns, waits, time
// asleep, callbacks, time busy, the longest callback and its function,
// and the p99 of the callbacks.
func TestStallLine(t *testing.T) {
	s := loop.Stats{Iterations: 7, Waits: 5, Asleep: 3 * time.Second, Callbacks: 200, Busy: 2 * time.Millisecond,
		Longest: 900 * time.Microsecond, LongestFunc: "loopkit/crawler.parse"}
	for range 98 {
		s.Durations.Add(time.Microsecond)
	}
	s.Durations.Add(500 * time.Microsecond)
	s.Durations.Add(900 * time.Microsecond)
	want := "loop: 7 turns, 5 waits, asleep 3s; 200 callbacks, busy 2ms; longest 900µs (crawler.parse), p99 524.3µs" // the top of 500µs's bucket
	if got := stallLine(s); got != want {
		t.Errorf("stallLine:\n got %q\nwant %q", got, want)
	}
}
