package http1_test

import (
	"testing"

	"loopkit/crawler/http1"
)

// What a parser carries from one response to the next on a keep-alive
// connection: its limits as it was made, and nothing of what one
// response's caller asked for (LimitBody), nor of what a recycled
// Response held (Into).

// LimitBody is for the current response only: after Reset, the next
// response has the limits the parser was made with.
func TestResetForgetsLimitBody(t *testing.T) {
	p := http1.NewParser("GET", http1.Limits{})
	p.LimitBody(4, true)
	if _, err := p.Feed([]byte(okStatus + "Content-Length: 10\r\n\r\n0123456789")); err != nil || !p.Done() {
		t.Fatalf("first response: %v, done %v", err, p.Done())
	}
	if r := p.Response(); !r.Truncated || string(r.Body) != "0123" {
		t.Fatalf("first response %s, want cut at 4 bytes", describe(r))
	}
	p.Reset("GET")
	if _, err := p.Feed([]byte(okStatus + "Content-Length: 10\r\n\r\n0123456789")); err != nil || !p.Done() {
		t.Fatalf("second response: %v, done %v", err, p.Done())
	}
	if r := p.Response(); r.Truncated || string(r.Body) != "0123456789" {
		t.Fatalf("second response %s, want the whole body: Reset must restore the limits", describe(r))
	}
}

// A Response given to Into comes back holding the new response alone:
// every field of the old one is overwritten, not only those the new
// response sets (a chunked response declares no length; a plain one has
// no trailers and was neither cut nor decoded).
func TestIntoOverwritesEverythingTheResponseHeld(t *testing.T) {
	old := http1.Response{Proto: "HTTP/1.0", StatusCode: 404, Reason: "Gone",
		Header: http1.Header{{"A", "1"}, {"B", "2"}}, Trailer: http1.Header{{"X-Sum", "9"}},
		Body: []byte("old body"), ContentLength: 8, Close: true, Decoded: true, Truncated: true}
	p := http1.NewParser("GET", http1.Limits{})
	p.Into(&old)
	if _, err := p.Feed([]byte(okStatus + "Transfer-Encoding: chunked\r\n\r\n" + chunked("hi"))); err != nil || !p.Done() {
		t.Fatalf("Feed: %v, done %v", err, p.Done())
	}
	r := p.Response()
	if r != &old {
		t.Fatal("the response is not the one given to Into")
	}
	want := http1.Response{Proto: "HTTP/1.1", StatusCode: 200, Reason: "OK",
		Header: http1.Header{{"Transfer-Encoding", "chunked"}}, Body: []byte("hi"), ContentLength: -1}
	if describe(r) != describe(&want) || r.Trailer != nil || r.Truncated {
		t.Fatalf("got  %s Trailer=%v Truncated=%v\nwant %s", describe(r), r.Trailer, r.Truncated, describe(&want))
	}
}
