package http1_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"loopkit/crawler/http1"
)

// A truncating parser cuts a gzip body whose compressed bytes fit the
// limit but whose decoded bytes do not, and says so: Truncated, like a
// body cut on the wire, so that a caller never takes the start of a page
// for the whole of it.
func TestTruncatedGzipBodyIsMarked(t *testing.T) {
	gz := gzipped(strings.Repeat("a", 1000))
	in := okStatus + "Content-Encoding: gzip\r\nContent-Length: " + strconv.Itoa(len(gz)) + "\r\n\r\n" + gz
	p := http1.NewParser("GET", http1.Limits{})
	p.LimitBody(100, true)
	if _, err := p.Feed([]byte(in)); err != nil || !p.Done() {
		t.Fatalf("Feed: %v, done %v", err, p.Done())
	}
	r := p.Response()
	if len(gz) > 100 {
		t.Fatalf("the compressed body is %d bytes: the test needs it under the limit", len(gz))
	}
	if string(r.Body) != strings.Repeat("a", 100) || !r.Truncated || !r.Decoded {
		t.Fatalf("got %d bytes, Truncated %v, Decoded %v; want the first 100, truncated and decoded", len(r.Body), r.Truncated, r.Decoded)
	}
}

// BodyRemaining follows the body: what a Content-Length body still lacks,
// -1 while a chunked body cannot tell, and 0 once the response is done.
func TestBodyRemaining(t *testing.T) {
	p := http1.NewParser("GET", http1.Limits{})
	if _, err := p.Feed([]byte(okStatus + "Content-Length: 10\r\n\r\n0123")); err != nil {
		t.Fatal(err)
	}
	if got := p.BodyRemaining(); got != 6 {
		t.Errorf("4 of 10 bytes in: BodyRemaining() = %d, want 6", got)
	}
	if _, err := p.Feed([]byte("456789")); err != nil || !p.Done() {
		t.Fatalf("Feed: %v, done %v", err, p.Done())
	}
	if got := p.BodyRemaining(); got != 0 {
		t.Errorf("done: BodyRemaining() = %d, want 0", got)
	}
	p.Reset("GET")
	if _, err := p.Feed([]byte(okStatus + "Transfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n")); err != nil {
		t.Fatal(err)
	}
	if got := p.BodyRemaining(); got != -1 {
		t.Errorf("chunked: BodyRemaining() = %d, want -1", got)
	}
}

// A body the caller does not want (WantBody) is read to its end, however
// long, even by a parser told to cut at a limit: nothing of it is kept,
// so the limit has nothing to bound, and the connection stays usable. The
// same holds for a parser that fails at its limit, chunks and framing
// included.
func TestASkippedBodyIsReadWholePastATruncatingLimit(t *testing.T) {
	for name, tc := range map[string]struct {
		in       string
		truncate bool
	}{
		"Content-Length, truncating": {in: okStatus + "Content-Length: 50\r\n\r\n" + strings.Repeat("x", 50), truncate: true},
		"chunked, failing":           {in: okStatus + "Transfer-Encoding: chunked\r\n\r\n" + chunked(strings.Repeat("x", 50), "y")},
	} {
		p := http1.NewParser("GET", http1.Limits{})
		p.LimitBody(10, tc.truncate)
		p.WantBody(func(*http1.Response) bool { return false })
		n, err := p.Feed([]byte(tc.in))
		if err != nil || !p.Done() || n != len(tc.in) {
			t.Fatalf("%s: Feed used %d of %d bytes: %v, done %v", name, n, len(tc.in), err, p.Done())
		}
		if r := p.Response(); !p.BodySkipped() || r.Truncated || r.Close || len(r.Body) != 0 {
			t.Fatalf("%s: got %s, skipped %v, Truncated %v; want a skipped body, the connection reusable", name, describe(r), p.BodySkipped(), r.Truncated)
		}
	}
}

// A skipped body's coding does not matter either: a coding the parser
// cannot undo — in Content-Encoding, alone or after gzip, or in a
// Transfer-Encoding — fails a body that is kept and not one that is
// skipped, which is read to its end all the same (the connection's end,
// for a Transfer-Encoding that is not chunked).
func TestASkippedBodyMayHaveAnyCoding(t *testing.T) {
	for _, tc := range []struct {
		fields string
		close  bool // the body ends with the connection
	}{
		{fields: "Content-Encoding: br\r\nContent-Length: 5\r\n"},
		{fields: "Content-Encoding: gzip, br\r\nContent-Length: 5\r\n"},
		{fields: "Transfer-Encoding: br\r\n", close: true},
	} {
		in := okStatus + tc.fields + "\r\nxxxxx"
		p := http1.NewParser("GET", http1.Limits{})
		if _, err := p.Feed([]byte(in)); !errors.Is(err, http1.ErrUnsupportedCoding) {
			t.Fatalf("%q, kept: %v, want ErrUnsupportedCoding", tc.fields, err)
		}
		p.Reset("GET")
		p.WantBody(func(*http1.Response) bool { return false })
		n, err := p.Feed([]byte(in))
		if err == nil && tc.close {
			err = p.CloseInput()
		}
		if err != nil || !p.Done() || n != len(in) {
			t.Fatalf("%q, skipped: Feed used %d of %d bytes: %v, done %v", tc.fields, n, len(in), err, p.Done())
		}
		if r := p.Response(); !p.BodySkipped() || r.Close != tc.close || len(r.Body) != 0 {
			t.Fatalf("%q: got %s, skipped %v; want a skipped body, Close %v", tc.fields, describe(r), p.BodySkipped(), tc.close)
		}
	}
}

// LimitBody with no size (0) changes only what happens at the limit: the
// limit stays the parser's own.
func TestLimitBodyWithoutASizeKeepsTheParsersLimit(t *testing.T) {
	p := http1.NewParser("GET", http1.Limits{MaxBodyBytes: 10})
	p.LimitBody(0, true)
	if _, err := p.Feed([]byte(okStatus + "Content-Length: 12\r\n\r\nhello, world")); err != nil || !p.Done() {
		t.Fatalf("Feed: %v, done %v", err, p.Done())
	}
	if r := p.Response(); !r.Truncated || string(r.Body) != "hello, wor" {
		t.Fatalf("got %s, want the body cut at the parser's 10 bytes", describe(r))
	}
}

// Head is nil until the final response's head is in, is that head (its
// body not there yet) once it is, and is nil again after a failure.
func TestHeadIsThereOnlyBetweenTheHeadAndAFailure(t *testing.T) {
	p := http1.NewParser("GET", http1.Limits{})
	if p.HeadDone() || p.Head() != nil {
		t.Fatal("a head before any input")
	}
	if _, err := p.Feed([]byte("HTTP/1.1 100 Continue\r\n\r\n" + okStatus + "Transfer-Encoding: chunked\r\n")); err != nil {
		t.Fatal(err)
	}
	if p.HeadDone() || p.Head() != nil {
		t.Fatal("a head before its empty line")
	}
	if _, err := p.Feed([]byte("\r\n2\r\nhi\r\n")); err != nil {
		t.Fatal(err)
	}
	if h := p.Head(); !p.HeadDone() || h == nil || h.StatusCode != 200 || h.Header.Get("Transfer-Encoding") != "chunked" || len(h.Body) != 0 {
		t.Fatalf("head in, body coming: HeadDone %v, Head %s", p.HeadDone(), describe(h))
	}
	if _, err := p.Feed([]byte("zz\r\n")); !errors.Is(err, http1.ErrProtocol) {
		t.Fatalf("a bad chunk size: %v", err)
	}
	if p.HeadDone() || p.Head() != nil {
		t.Fatalf("after a failure: HeadDone %v, Head %s", p.HeadDone(), describe(p.Head()))
	}
}

// A truncating limit cuts at the limit counted from the start of the
// body, when the body came in several reads before reaching it.
func TestATruncatingLimitCutsAtTheLimitAcrossReads(t *testing.T) {
	for name, head := range map[string]string{
		"Content-Length": okStatus + "Content-Length: 10\r\n\r\n",
		"close":          okStatus + "\r\n",
	} {
		p := http1.NewParser("GET", http1.Limits{})
		p.LimitBody(4, true)
		for _, in := range []string{head + "01", "2", "3456789"} {
			if _, err := p.Feed([]byte(in)); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		if r := p.Response(); r == nil || !r.Truncated || string(r.Body) != "0123" {
			t.Errorf("%s: got %s, want the body cut at 4 bytes", name, describe(r))
		}
	}
}
