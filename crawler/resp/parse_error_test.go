package resp_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"loopkit/crawler/resp"
)

// errorCases are malformed replies and the kind of error each must give,
// with a word its message must contain.
var errorCases = []struct {
	name, in string
	kind     error
	mention  string
}{
	{"unknown type byte", "?\r\n", resp.ErrProtocol, "type byte"},
	{"an HTTP server", "HTTP/1.1 400 Bad Request\r\n", resp.ErrProtocol, "type byte"},
	{"RESP3 map", "%1\r\n+a\r\n:1\r\n", resp.ErrProtocol, "RESP3"},
	{"RESP3 null", "_\r\n", resp.ErrProtocol, "RESP3"},
	{"RESP3 double", ",1.5\r\n", resp.ErrProtocol, "RESP3"},
	{"RESP3 boolean", "#t\r\n", resp.ErrProtocol, "RESP3"},
	{"RESP3 blob error", "!3\r\nERR\r\n", resp.ErrProtocol, "RESP3"},
	{"RESP3 verbatim string", "=7\r\ntxt:abc\r\n", resp.ErrProtocol, "RESP3"},
	{"RESP3 big number", "(12\r\n", resp.ErrProtocol, "RESP3"},
	{"RESP3 set", "~1\r\n+a\r\n", resp.ErrProtocol, "RESP3"},
	{"RESP3 attribute", "|1\r\n+a\r\n+b\r\n", resp.ErrProtocol, "RESP3"},
	{"RESP3 push", ">1\r\n+a\r\n", resp.ErrProtocol, "RESP3"},
	{"bare LF", "+OK\n", resp.ErrProtocol, "LF"},
	{"bare CR inside", "+O\rK\r\n", resp.ErrProtocol, "CR"},
	{"bare CR first in a line", "+\rOK\r\n", resp.ErrProtocol, "CR"},
	{"empty integer", ":\r\n", resp.ErrProtocol, "integer"},
	{"lone minus", ":-\r\n", resp.ErrProtocol, "integer"},
	{"integer with a letter", ":12a\r\n", resp.ErrProtocol, "integer"},
	{"integer with a plus", ":+1\r\n", resp.ErrProtocol, "integer"},
	{"integer over int64", ":9223372036854775808\r\n", resp.ErrProtocol, "integer"},
	{"integer under int64", ":-9223372036854775809\r\n", resp.ErrProtocol, "integer"},
	{"twenty digits", ":00000000000000000001\r\n", resp.ErrProtocol, "integer"},
	{"negative bulk length", "$-2\r\n", resp.ErrProtocol, "length"},
	{"empty bulk length", "$\r\n", resp.ErrProtocol, "length"},
	{"bulk length with a plus", "$+5\r\nhello\r\n", resp.ErrProtocol, "length"},
	{"bulk length not a number", "$five\r\n", resp.ErrProtocol, "length"},
	{"bulk longer than said", "$3\r\nabcd\r\n", resp.ErrProtocol, "CRLF"},
	{"bulk ended by LF only", "$3\r\nabc\n", resp.ErrProtocol, "CRLF"},
	{"negative array length", "*-2\r\n", resp.ErrProtocol, "length"},
	{"bad element", "*2\r\n:1\r\n!\r\n", resp.ErrProtocol, "RESP3"},
	{"bulk length overflowing", "$99999999999999999999999\r\n", resp.ErrTooLarge, "bulk"},
	{"array length overflowing", "*99999999999999999999999\r\n", resp.ErrTooLarge, "array"},
}

// Each malformed reply fails with its kind of error, in one read and byte
// by byte alike; every error is a *ParseError.
func TestMalformedRepliesFailWithTheirKind(t *testing.T) {
	for _, tc := range errorCases {
		t.Run(tc.name, func(t *testing.T) {
			for how, pieces := range map[string][][]byte{"one read": oneRead(tc.in), "bytewise": bytewise(tc.in)} {
				got := parsePieces(resp.Limits{}, pieces)
				var perr *resp.ParseError
				if !errors.Is(got.err, tc.kind) || !errors.As(got.err, &perr) || !strings.Contains(got.err.Error(), tc.mention) {
					t.Errorf("%s: got %v (value %v), want %v mentioning %q", how, got.err, got.v, tc.kind, tc.mention)
				}
			}
		})
	}
}

// small are limits a test can reach in a few bytes.
var small = resp.Limits{MaxLineBytes: 8, MaxBulkBytes: 16, MaxArrayLen: 4, MaxDepth: 3, MaxReplyBytes: 64}

// Every limit passes a reply exactly at it and refuses one a byte (or an
// element, or a level) over it, in one read and byte by byte.
func TestLimitsAtTheirEdge(t *testing.T) {
	bulkOf := func(n int) string { return "$" + strconv.Itoa(n) + "\r\n" + strings.Repeat("b", n) + "\r\n" }
	nested := func(depth int, inner string) string { return strings.Repeat("*1\r\n", depth) + inner }
	// An array of 4 bulk strings whose whole is n bytes on the wire:
	// "*4\r\n" is 4 bytes, and each "$9\r\n...9...\r\n" 15.
	replyOf := func(n int) string { return "*4\r\n" + strings.Repeat(bulkOf(9), 3) + bulkOf(n-4-45-6) }
	cases := []struct {
		name      string
		at, over  string
		mentionAt string
	}{
		{"line", "+" + strings.Repeat("l", 8) + "\r\n", "+" + strings.Repeat("l", 9) + "\r\n", "line"},
		{"error line", "-" + strings.Repeat("e", 8) + "\r\n", "-" + strings.Repeat("e", 9) + "\r\n", "line"},
		{"bulk string", bulkOf(16), bulkOf(17), "bulk string"},
		{"array length", "*4\r\n:1\r\n:2\r\n:3\r\n:4\r\n", "*5\r\n:1\r\n:2\r\n:3\r\n:4\r\n:5\r\n", "array"},
		{"depth", nested(3, ":1\r\n"), nested(4, ":1\r\n"), "nested"},
		{"depth of an empty array", nested(2, "*0\r\n"), nested(3, "*0\r\n"), "nested"},
		{"reply size", replyOf(64), replyOf(65), "reply"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for how, split := range map[string]func(string) [][]byte{"one read": oneRead, "bytewise": bytewise} {
				if got := parsePieces(small, split(tc.at)); got.err != nil || !got.done || got.used != len(tc.at) {
					t.Errorf("%s: at the limit: %v, done %v, used %d of %d", how, got.err, got.done, got.used, len(tc.at))
				}
				got := parsePieces(small, split(tc.over))
				if !errors.Is(got.err, resp.ErrTooLarge) || !strings.Contains(got.err.Error(), tc.mentionAt) {
					t.Errorf("%s: over the limit: %v (value %v), want ErrTooLarge mentioning %q", how, got.err, got.v, tc.mentionAt)
				}
			}
		})
	}
}

// Limits left at zero take the documented defaults: with no MaxDepth set,
// arrays nested exactly DefaultMaxDepth deep are read, and one level more
// is refused.
func TestDefaultDepthLimitAtItsEdge(t *testing.T) {
	nested := func(depth int) string { return strings.Repeat("*1\r\n", depth) + ":7\r\n" }
	at := nested(resp.DefaultMaxDepth)
	got := parsePieces(resp.Limits{}, oneRead(at))
	if got.err != nil || !got.done || got.used != len(at) {
		t.Fatalf("nested %d deep: %v, done %v, used %d of %d", resp.DefaultMaxDepth, got.err, got.done, got.used, len(at))
	}
	v := got.v
	for range resp.DefaultMaxDepth {
		if v.Kind != resp.KindArray || len(v.Elems) != 1 {
			t.Fatalf("nested %d deep: got %v, want arrays of one element down to :7", resp.DefaultMaxDepth, got.v)
		}
		v = v.Elems[0]
	}
	if v.Kind != resp.KindInteger || v.Int != 7 {
		t.Fatalf("innermost element: %v, want :7", v)
	}
	got = parsePieces(resp.Limits{}, oneRead(nested(resp.DefaultMaxDepth+1)))
	if !errors.Is(got.err, resp.ErrTooLarge) || !strings.Contains(got.err.Error(), "nested") {
		t.Fatalf("nested %d deep: %v, want ErrTooLarge mentioning nesting", resp.DefaultMaxDepth+1, got.err)
	}
}

// A length the limits cannot fit is refused as soon as its line ends,
// before the bytes it announces arrive or anything is allocated for them:
// a server cannot make the client wait for, or reserve, what it will
// refuse anyway.
func TestOversizedLengthsAreRefusedBeforeTheirBytes(t *testing.T) {
	lim := resp.Limits{MaxBulkBytes: 1 << 20, MaxArrayLen: 1 << 20, MaxReplyBytes: 64}
	for _, in := range []string{
		"$2000000\r\n", // over MaxBulkBytes
		"$60\r\n",      // under it, but the reply would pass 64 bytes
		"*30\r\n",      // 30 elements take at least 90 bytes
		"*1\r\n*1\r\n$50\r\n",
	} {
		got := parsePieces(lim, oneRead(in))
		if !errors.Is(got.err, resp.ErrTooLarge) || got.used != len(in) {
			t.Errorf("%q: %v after %d bytes, want ErrTooLarge at its end", in, got.err, got.used)
		}
	}
}

// An array whose elements are all the smallest there are ("+\r\n", three
// bytes) fits a reply limit it meets exactly: the early refusal of a
// length the reply cannot fit counts three bytes an element, no more.
func TestAnArrayOfTheSmallestElementsFitsItsLimitExactly(t *testing.T) {
	in := "*20\r\n" + strings.Repeat("+\r\n", 20)
	got := parsePieces(resp.Limits{MaxReplyBytes: int64(len(in))}, oneRead(in))
	if got.err != nil || !got.done || len(got.v.Elems) != 20 {
		t.Fatalf("a %d-byte reply at a %d-byte limit: %v, done %v", len(in), len(in), got.err, got.done)
	}
}

// A line with no end in sight is refused once it is longer than the limit
// could allow, without waiting for its CRLF.
func TestEndlessLineIsRefused(t *testing.T) {
	got := parsePieces(resp.Limits{MaxLineBytes: 8}, oneRead("+"+strings.Repeat("x", 100)))
	if !errors.Is(got.err, resp.ErrTooLarge) {
		t.Fatalf("got %v", got.err)
	}
	// Exactly the limit and a CR, with the LF still to come: not yet.
	got = parsePieces(small, oneRead("+"+strings.Repeat("x", 8)+"\r"))
	if !errors.Is(got.err, resp.ErrTruncated) {
		t.Fatalf("a line at the limit waiting for its LF: %v, want ErrTruncated at EOF", got.err)
	}
}

// Limits left at zero, or set below it, take the defaults — 64 KiB a
// line, 16 MiB a bulk string, 2^20 elements an array, arrays 32 deep —
// each passing what is exactly at it and refusing one more. The numbers
// are written out, not taken from the Default constants, so that a
// changed default is seen. Lengths are judged from their line alone, so a
// 16 MiB bulk string or a million-element array is passed or refused
// without its bytes being sent.
func TestDefaultLimitsAtTheirEdge(t *testing.T) {
	line := func(n int) string { return "+" + strings.Repeat("l", n) + "\r\n" }
	nested := func(depth int) string { return strings.Repeat("*1\r\n", depth) + ":7\r\n" }
	cases := []struct {
		name, at, over, mention string
	}{
		{"line", line(64 << 10), line(64<<10 + 1), "line"},
		{"bulk length", "$16777216\r\n", "$16777217\r\n", "bulk"},
		{"array length", "*1048576\r\n", "*1048577\r\n", "array"},
		{"depth", nested(32), nested(33), "nested"},
	}
	for _, lim := range []resp.Limits{{}, {MaxLineBytes: -1, MaxBulkBytes: -1, MaxArrayLen: -1, MaxDepth: -1, MaxReplyBytes: -1}} {
		for _, tc := range cases {
			p := resp.NewParser(lim)
			if n, err := p.Feed([]byte(tc.at)); err != nil || n != len(tc.at) {
				t.Errorf("%+v: %s at the default: used %d of %d, %v", lim, tc.name, n, len(tc.at), err)
			}
			p = resp.NewParser(lim)
			if _, err := p.Feed([]byte(tc.over)); !errors.Is(err, resp.ErrTooLarge) || !strings.Contains(err.Error(), tc.mention) {
				t.Errorf("%+v: %s over the default: %v, want ErrTooLarge mentioning %q", lim, tc.name, err, tc.mention)
			}
		}
	}
}

// With no MaxReplyBytes set (zero or below), a reply of exactly
// DefaultMaxReplyBytes is allowed, and one a byte longer is refused. A
// bulk string's length line says how long the reply will be, so with
// MaxBulkBytes out of the way no byte of it needs sending.
func TestDefaultReplyLimitAtItsEdge(t *testing.T) {
	// 64 MiB, less "$" and CRLF around a length of 8 digits and the
	// string's own CRLF.
	at := 64<<20 - len("$12345678\r\n") - 2
	for _, unset := range []int64{0, -1} {
		lim := resp.Limits{MaxBulkBytes: 1 << 30, MaxReplyBytes: unset}
		in := "$" + strconv.Itoa(at) + "\r\n"
		if n, err := resp.NewParser(lim).Feed([]byte(in)); err != nil || n != len(in) {
			t.Errorf("MaxReplyBytes %d: a %d-byte bulk string, exactly the default reply limit: used %d, %v", unset, at, n, err)
		}
		in = "$" + strconv.Itoa(at+1) + "\r\n"
		_, err := resp.NewParser(lim).Feed([]byte(in))
		if !errors.Is(err, resp.ErrTooLarge) || !strings.Contains(err.Error(), "reply larger than") {
			t.Errorf("MaxReplyBytes %d: a reply a byte over the default limit: %v, want ErrTooLarge", unset, err)
		}
	}
}
