package http1_test

import (
	"errors"
	"strings"
	"testing"

	"loopkit/crawler/http1"
)

// errorCase is input the parser must refuse: kind is the sentinel the
// error must match, msg a part of its text. An input that ends early is
// closed after its last byte, as by an EOF.
type errorCase struct {
	name   string
	method string
	lim    http1.Limits
	in     string
	kind   error
	msg    string
}

const okStatus = "HTTP/1.1 200 OK\r\n"

var tinyLimits = http1.Limits{MaxHeaderBytes: 64, MaxBodyBytes: 10}

var errorCases = []errorCase{
	// Status line.
	{name: "garbage", in: "FOO\r\n\r\n", kind: http1.ErrProtocol, msg: `bad status line "F`}, // found at the first byte
	{name: "HTTP/2", in: "HTTP/2 200 OK\r\n\r\n", kind: http1.ErrProtocol, msg: "bad status line"},
	{name: "HTTP/0.9 style body", in: "<html>hello</html>", kind: http1.ErrProtocol, msg: "bad status line"},
	{name: "lower-case version", in: "http/1.1 200 OK\r\n\r\n", kind: http1.ErrProtocol, msg: "bad status line"},
	{name: "version 1.x not a digit", in: "HTTP/1.x 200 OK\r\n\r\n", kind: http1.ErrProtocol, msg: "bad status line"},
	{name: "two-digit code", in: "HTTP/1.1 20 OK\r\n\r\n", kind: http1.ErrProtocol, msg: "bad status line"},
	{name: "four-digit code", in: "HTTP/1.1 2000 OK\r\n\r\n", kind: http1.ErrProtocol, msg: "bad status line"},
	{name: "code below 100", in: "HTTP/1.1 099 Low\r\n\r\n", kind: http1.ErrProtocol, msg: "bad status line"},
	{name: "non-digit code", in: "HTTP/1.1 2x0 OK\r\n\r\n", kind: http1.ErrProtocol, msg: "bad status line"},
	{name: "two spaces before the code", in: "HTTP/1.1  200 OK\r\n\r\n", kind: http1.ErrProtocol, msg: "bad status line"},
	{name: "no space after the code", in: "HTTP/1.1 200OK\r\n\r\n", kind: http1.ErrProtocol, msg: "bad status line"},
	{name: "empty line first", in: "\r\nHTTP/1.1 200 OK\r\n\r\n", kind: http1.ErrProtocol, msg: "bad status line"},
	{name: "101 never requested", in: "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n", kind: http1.ErrProtocol, msg: "101"},
	{name: "endless 100 Continue", in: strings.Repeat("HTTP/1.1 100 Continue\r\n\r\n", 9), kind: http1.ErrProtocol, msg: "interim"},

	// Header fields.
	{name: "space before colon", in: okStatus + "Content-Length : 0\r\n\r\n", kind: http1.ErrProtocol, msg: `invalid header name "Content-Length "`},
	{name: "space in name", in: okStatus + "Bad Name: x\r\n\r\n", kind: http1.ErrProtocol, msg: "invalid header name"},
	{name: "empty name", in: okStatus + ": x\r\n\r\n", kind: http1.ErrProtocol, msg: "invalid header name"},
	{name: "no colon", in: okStatus + "NoColonHere\r\n\r\n", kind: http1.ErrProtocol, msg: `malformed header line "NoColonHere"`},
	{name: "obs-fold before any field", in: okStatus + " X: y\r\n\r\n", kind: http1.ErrProtocol, msg: "whitespace before the first header field"},
	{name: "bare CR in a value", in: okStatus + "X: a\rb\r\n\r\n", kind: http1.ErrProtocol, msg: "bare CR"},
	{name: "NUL in a value", in: okStatus + "X: a\x00b\r\n\r\n", kind: http1.ErrProtocol, msg: "NUL"},
	{name: "too many fields", in: okStatus + strings.Repeat("A: b\r\n", 257) + "\r\n", kind: http1.ErrHeaderTooLarge, msg: "more than 256 header fields"},
	{name: "too many fields for the limit", lim: http1.Limits{MaxHeaderFields: 3}, in: okStatus + "A: 1\r\nB: 2\r\n C\r\nD: 3\r\nE: 4\r\n\r\n", kind: http1.ErrHeaderTooLarge, msg: "more than 3 header fields"},
	{name: "too many trailer fields", lim: http1.Limits{MaxHeaderFields: 2},
		in: okStatus + "Transfer-Encoding: chunked\r\n\r\n0\r\nT: 1\r\nU: 2\r\nV: 3\r\n\r\n", kind: http1.ErrHeaderTooLarge, msg: "more than 2 header fields"},
	{name: "header over the limit", lim: tinyLimits, in: okStatus + "X: " + strings.Repeat("a", 64) + "\r\n\r\n", kind: http1.ErrHeaderTooLarge, msg: "larger than 64 bytes"},
	{name: "endless header line", lim: tinyLimits, in: okStatus + strings.Repeat("a", 100), kind: http1.ErrHeaderTooLarge},
	// Trailers are checked like the head.
	{name: "NUL in a trailer", in: okStatus + "Transfer-Encoding: chunked\r\n\r\n0\r\nX: a\x00b\r\n\r\n", kind: http1.ErrProtocol, msg: "NUL"},
	{name: "bare CR in a trailer", in: okStatus + "Transfer-Encoding: chunked\r\n\r\n0\r\nX: a\rb\r\n\r\n", kind: http1.ErrProtocol, msg: "bare CR"},
	{name: "trailers over the limit", lim: http1.Limits{MaxHeaderBytes: 64},
		in: okStatus + "Transfer-Encoding: chunked\r\n\r\n0\r\nX: " + strings.Repeat("a", 64) + "\r\n\r\n", kind: http1.ErrHeaderTooLarge},

	// Framing.
	{name: "conflicting Content-Length in one field", in: okStatus + "Content-Length: 5, 6\r\n\r\nhello!", kind: http1.ErrProtocol, msg: "conflicting Content-Length 5 and 6"},
	{name: "conflicting Content-Length fields", in: okStatus + "Content-Length: 5\r\nContent-Length: 6\r\n\r\nhello!", kind: http1.ErrProtocol, msg: "conflicting Content-Length 5 and 6"},
	{name: "conflicting Content-Length after a zero", in: okStatus + "Content-Length: 0, 5\r\n\r\nhello", kind: http1.ErrProtocol, msg: "conflicting Content-Length 0 and 5"},
	{name: "Content-Length not a number", in: okStatus + "Content-Length: abc\r\n\r\n", kind: http1.ErrProtocol, msg: `invalid Content-Length "abc"`},
	{name: "negative Content-Length", in: okStatus + "Content-Length: -1\r\n\r\n", kind: http1.ErrProtocol, msg: "invalid Content-Length"},
	{name: "signed Content-Length", in: okStatus + "Content-Length: +5\r\n\r\nhello", kind: http1.ErrProtocol, msg: "invalid Content-Length"},
	{name: "empty Content-Length", in: okStatus + "Content-Length:\r\n\r\n", kind: http1.ErrProtocol, msg: "invalid Content-Length"},
	{name: "empty element in Content-Length", in: okStatus + "Content-Length: 5,,5\r\n\r\nhello", kind: http1.ErrProtocol, msg: "invalid Content-Length"},
	{name: "Content-Length overflow", in: okStatus + "Content-Length: 99999999999999999999\r\n\r\n", kind: http1.ErrProtocol, msg: "invalid Content-Length"},
	{name: "Content-Length one past the largest int64", in: okStatus + "Content-Length: 9223372036854775808\r\n\r\nhi", kind: http1.ErrProtocol, msg: "invalid Content-Length"},
	{name: "invalid Content-Length on HEAD", method: "HEAD", in: okStatus + "Content-Length: x\r\n\r\n", kind: http1.ErrProtocol},
	{name: "chunked not last", in: okStatus + "Transfer-Encoding: chunked, gzip\r\n\r\n", kind: http1.ErrProtocol, msg: `Transfer-Encoding "gzip" after chunked`},
	{name: "chunked twice", in: okStatus + "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n", kind: http1.ErrProtocol, msg: "after chunked"},
	{name: "empty Transfer-Encoding", in: okStatus + "Transfer-Encoding: \r\nContent-Length: 2\r\n\r\nhi", kind: http1.ErrProtocol, msg: "empty Transfer-Encoding"},
	{name: "empty Transfer-Encoding beside chunked", in: okStatus + "Transfer-Encoding: \r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", kind: http1.ErrProtocol, msg: "empty Transfer-Encoding"},
	{name: "an empty element before chunked", in: okStatus + "Transfer-Encoding: , chunked\r\n\r\n0\r\n\r\n", kind: http1.ErrProtocol, msg: `empty element in Transfer-Encoding ", chunked"`},
	{name: "an empty element after chunked", in: okStatus + "Transfer-Encoding: chunked,\r\n\r\n0\r\n\r\n", kind: http1.ErrProtocol, msg: "empty element"},
	{name: "an empty element between codings", in: okStatus + "Transfer-Encoding: gzip,,chunked\r\n\r\n0\r\n\r\n", kind: http1.ErrProtocol, msg: "empty element"},
	{name: "unknown transfer coding", in: okStatus + "Transfer-Encoding: br, chunked\r\n\r\n", kind: http1.ErrUnsupportedCoding, msg: `unsupported Transfer-Encoding "br"`},
	{name: "unknown content coding", in: okStatus + "Content-Encoding: br\r\nContent-Length: 2\r\n\r\nhi", kind: http1.ErrUnsupportedCoding, msg: `unsupported Content-Encoding "br"`},

	// Chunked coding.
	{name: "chunk size not hex", in: okStatus + "Transfer-Encoding: chunked\r\n\r\nzz\r\n", kind: http1.ErrProtocol, msg: `bad chunk size line "zz"`},
	{name: "empty chunk size", in: okStatus + "Transfer-Encoding: chunked\r\n\r\n\r\nhi\r\n0\r\n\r\n", kind: http1.ErrProtocol, msg: "bad chunk size"},
	{name: "0x prefix", in: okStatus + "Transfer-Encoding: chunked\r\n\r\n0x2\r\nhi\r\n0\r\n\r\n", kind: http1.ErrProtocol, msg: "bad chunk size"},
	{name: "leading space", in: okStatus + "Transfer-Encoding: chunked\r\n\r\n 2\r\nhi\r\n0\r\n\r\n", kind: http1.ErrProtocol, msg: "bad chunk size"},
	{name: "chunk size overflow", in: okStatus + "Transfer-Encoding: chunked\r\n\r\n10000000000000000\r\n", kind: http1.ErrProtocol, msg: "overflows"},
	{name: "bare CR in extension", in: okStatus + "Transfer-Encoding: chunked\r\n\r\n2;a\rb\r\nhi\r\n0\r\n\r\n", kind: http1.ErrProtocol, msg: "bad chunk size"},
	{name: "chunk longer than its size", in: okStatus + "Transfer-Encoding: chunked\r\n\r\n2\r\nhello\r\n0\r\n\r\n", kind: http1.ErrProtocol, msg: "not followed by CRLF"},
	{name: "CR CR LF after chunk data", in: okStatus + "Transfer-Encoding: chunked\r\n\r\n2\r\nhi\r\r\n0\r\n\r\n", kind: http1.ErrProtocol, msg: "not followed by CRLF"},
	// RFC 9112 §7.1: the framing's lines end in CRLF, nothing else.
	{name: "bare LF after a chunk size", in: okStatus + "Transfer-Encoding: chunked\r\n\r\n2\nhi\r\n0\r\n\r\n", kind: http1.ErrProtocol, msg: `chunk size line "2" ends in a bare LF`},
	{name: "bare LF after chunk data", in: okStatus + "Transfer-Encoding: chunked\r\n\r\n2\r\nhi\n0\r\n\r\n", kind: http1.ErrProtocol, msg: "not followed by CRLF"},
	{name: "bare LF after the last chunk", in: okStatus + "Transfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\n\r\n", kind: http1.ErrProtocol, msg: "bare LF"},
	{name: "bare LF after an extension", in: okStatus + "Transfer-Encoding: chunked\r\n\r\n2;a=b\nhi\r\n0\r\n\r\n", kind: http1.ErrProtocol, msg: "bare LF"},
	// A 16-digit size is as long as an int64 gets: one that overflows it
	// must not wrap to a negative or small size and let data through.
	{name: "16 hex digits over int64", in: okStatus + "Transfer-Encoding: chunked\r\n\r\n8000000000000001\r\nhello\r\n0\r\n\r\n", kind: http1.ErrProtocol, msg: "overflows"},
	{name: "16 hex digits of ones", in: okStatus + "Transfer-Encoding: chunked\r\n\r\nffffffffffffffff\r\nhello\r\n0\r\n\r\n", kind: http1.ErrProtocol, msg: "overflows"},
	{name: "16 hex digits, the largest int64, then data", in: okStatus + "Transfer-Encoding: chunked\r\n\r\n7fffffffffffffff\r\nhello", kind: http1.ErrBodyTooLarge, msg: "chunked body larger than"},
	{name: "endless chunk size line", in: okStatus + "Transfer-Encoding: chunked\r\n\r\n1" + strings.Repeat(";", 5000), kind: http1.ErrProtocol, msg: "chunk size line longer"},
	// The same line ending in CRLF, so that a whole read finds its end:
	// still too long.
	{name: "long chunk size line with its CRLF", in: okStatus + "Transfer-Encoding: chunked\r\n\r\n1;" + strings.Repeat("e", 5000) + "\r\nx\r\n0\r\n\r\n", kind: http1.ErrProtocol, msg: "chunk size line longer than 4096 bytes"},
	{name: "corrupt gzip", in: okStatus + "Content-Encoding: gzip\r\nContent-Length: 5\r\n\r\nhello", kind: http1.ErrProtocol, msg: "bad gzip body"},
	{name: "gzip cut short", in: okStatus + "Content-Encoding: gzip\r\n\r\n" + gzipped("hello, hello")[:20], kind: http1.ErrTruncated, msg: "truncated gzip body"},

	// Size limits: refused as soon as the size is known, never truncated.
	{name: "Content-Length over the limit, refused at the head", lim: tinyLimits, in: okStatus + "Content-Length: 11\r\n\r\n", kind: http1.ErrBodyTooLarge, msg: "Content-Length 11 is over the 10 byte limit"},
	{name: "chunk over the limit, refused at its size", lim: tinyLimits, in: okStatus + "Transfer-Encoding: chunked\r\n\r\n6\r\nhello!\r\n5\r\n", kind: http1.ErrBodyTooLarge},
	// The limit bounds what is read, framing included: one-byte chunks
	// with kilobytes of extensions each must not be read without end.
	{name: "chunk extensions count against the limit", lim: http1.Limits{MaxBodyBytes: 100},
		in: okStatus + "Transfer-Encoding: chunked\r\n\r\n" + strings.Repeat("1;"+strings.Repeat("e", 40)+"\r\nx\r\n", 3), kind: http1.ErrBodyTooLarge, msg: "framing included"},
	{name: "trailers count against the limit", lim: http1.Limits{MaxBodyBytes: 100},
		in: okStatus + "Transfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n" + strings.Repeat("T: "+strings.Repeat("t", 20)+"\r\n", 5) + "\r\n", kind: http1.ErrBodyTooLarge, msg: "framing included"},
	{name: "close-delimited body over the limit", lim: tinyLimits, in: okStatus + "\r\n" + "hello, world", kind: http1.ErrBodyTooLarge},
	{name: "gzip expands over the limit", lim: http1.Limits{MaxBodyBytes: 50}, in: okStatus + "Content-Encoding: gzip\r\n\r\n" + gzipped(strings.Repeat("a", 51)),
		kind: http1.ErrBodyTooLarge, msg: "gzip body decodes to more than 50 bytes"},
	{name: "zip bomb", in: okStatus + "Content-Encoding: gzip\r\n\r\n" + gzipped(strings.Repeat("\x00", 10<<20+1)), kind: http1.ErrBodyTooLarge},

	// Truncation, found when the input is closed.
	{name: "closed before anything", in: "", kind: http1.ErrTruncated, msg: "before the response began"},
	{name: "closed in the status line", in: "HTTP/1.1 2", kind: http1.ErrTruncated, msg: "truncated header"},
	{name: "closed in the headers", in: okStatus + "Content-Le", kind: http1.ErrTruncated, msg: "truncated header"},
	{name: "closed after an interim response", in: "HTTP/1.1 100 Continue\r\n\r\n", kind: http1.ErrTruncated, msg: "after 1 interim"},
	{name: "closed in the body", in: okStatus + "Content-Length: 100\r\n\r\n" + "0123456789", kind: http1.ErrTruncated, msg: "truncated body: got 10 of 100 bytes"},
	{name: "closed in a chunk size", in: okStatus + "Transfer-Encoding: chunked\r\n\r\n1", kind: http1.ErrTruncated, msg: "truncated chunk"},
	{name: "closed in chunk data", in: okStatus + "Transfer-Encoding: chunked\r\n\r\n5\r\nhel", kind: http1.ErrTruncated, msg: "truncated chunk"},
	{name: "closed before the last chunk", in: okStatus + "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n", kind: http1.ErrTruncated, msg: "truncated chunk"},
	{name: "closed in the trailers", in: okStatus + "Transfer-Encoding: chunked\r\n\r\n0\r\nX: 1\r\n", kind: http1.ErrTruncated, msg: "truncated trailer"},
}

// TestParseErrors checks each bad input in one read and one byte per read:
// the same kind of error either way, and never a response.
func TestParseErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range errorCases {
		t.Run(tc.name, func(t *testing.T) {
			method := tc.method
			if method == "" {
				method = "GET"
			}
			for how, pieces := range map[string][][]byte{"whole": oneRead(tc.in), "bytewise": bytewise(tc.in)} {
				got := parsePieces(method, tc.lim, pieces)
				if !errors.Is(got.err, tc.kind) {
					t.Fatalf("%s: error %v, want %v", how, got.err, tc.kind)
				}
				if got.resp != nil {
					t.Errorf("%s: a response came with the error: %s", how, describe(got.resp))
				}
				if !strings.Contains(got.err.Error(), tc.msg) {
					t.Errorf("%s: error %q does not say %q", how, got.err, tc.msg)
				}
				var perr *http1.ParseError
				if !errors.As(got.err, &perr) || !strings.HasPrefix(perr.Error(), "http1: ") {
					t.Errorf("%s: %v is not a *ParseError with the package prefix", how, got.err)
				}
			}
		})
	}
}
