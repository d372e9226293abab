package http1_test

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"loopkit/crawler/http1"
)

// validCase is a response the parser must accept. in is the response
// itself; next, if any, is what follows it on the connection and must be
// left unused.
type validCase struct {
	name   string
	method string
	in     string
	next   string
	want   http1.Response
}

type hdr = http1.Header

var gzHello = gzipped("hello, hello, hello")

var validCases = []validCase{
	{
		name: "Content-Length body on a keep-alive connection",
		in:   "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5\r\n\r\nhello",
		want: http1.Response{Proto: "HTTP/1.1", StatusCode: 200, Reason: "OK",
			Header: hdr{{"Content-Type", "text/html"}, {"Content-Length", "5"}}, Body: []byte("hello"), ContentLength: 5},
	},
	{
		name: "bare LF line endings (RFC 9112 §2.2)",
		in:   "HTTP/1.1 200 OK\nContent-Length: 2\n\nhi",
		want: http1.Response{Proto: "HTTP/1.1", StatusCode: 200, Reason: "OK",
			Header: hdr{{"Content-Length", "2"}}, Body: []byte("hi"), ContentLength: 2},
	},
	{
		name: "CRLF and LF mixed",
		in:   "HTTP/1.1 200 OK\r\nA: 1\nContent-Length: 2\r\n\nhi",
		want: http1.Response{Proto: "HTTP/1.1", StatusCode: 200, Reason: "OK",
			Header: hdr{{"A", "1"}, {"Content-Length", "2"}}, Body: []byte("hi"), ContentLength: 2},
	},
	{
		name: "empty reason phrase",
		in:   "HTTP/1.1 404 \r\nContent-Length: 0\r\n\r\n",
		want: http1.Response{Proto: "HTTP/1.1", StatusCode: 404, Header: hdr{{"Content-Length", "0"}}, ContentLength: 0},
	},
	{
		name: "no space after the code when the reason is empty",
		in:   "HTTP/1.1 404\r\nContent-Length: 0\r\n\r\n",
		want: http1.Response{Proto: "HTTP/1.1", StatusCode: 404, Header: hdr{{"Content-Length", "0"}}, ContentLength: 0},
	},
	{
		name: "reason with spaces, status 999",
		in:   "HTTP/1.1 999 Very Odd Status\r\nContent-Length: 0\r\n\r\n",
		want: http1.Response{Proto: "HTTP/1.1", StatusCode: 999, Reason: "Very Odd Status",
			Header: hdr{{"Content-Length", "0"}}, ContentLength: 0},
	},
	{
		name: "values trimmed of OWS, inner spaces kept, empty value kept",
		in:   "HTTP/1.1 200 OK\r\nX-A: \t a  b \t\r\nX-Empty:\r\nX-Colon: a:b\r\nContent-Length: 0\r\n\r\n",
		want: http1.Response{Proto: "HTTP/1.1", StatusCode: 200, Reason: "OK",
			Header: hdr{{"X-A", "a  b"}, {"X-Empty", ""}, {"X-Colon", "a:b"}, {"Content-Length", "0"}}, ContentLength: 0},
	},
	{
		name: "obs-fold is unfolded into one space (RFC 9112 §5.2, user agents)",
		in:   "HTTP/1.1 200 OK\r\nX-Long: part one\r\n \t part two\r\n\tthree\r\nContent-Length: 0\r\n\r\n",
		want: http1.Response{Proto: "HTTP/1.1", StatusCode: 200, Reason: "OK",
			Header: hdr{{"X-Long", "part one part two three"}, {"Content-Length", "0"}}, ContentLength: 0},
	},
	{
		name: "obs-fold after an empty value: no leading space, empty folds add nothing",
		in:   "HTTP/1.1 200 OK\r\nX-Empty:\r\n  folded\r\n \r\nContent-Length: 0\r\n\r\n",
		want: http1.Response{Proto: "HTTP/1.1", StatusCode: 200, Reason: "OK",
			Header: hdr{{"X-Empty", "folded"}, {"Content-Length", "0"}}, ContentLength: 0},
	},
	{
		name: "HTTP/1.0 body delimited by close, completed by CloseInput",
		in:   "HTTP/1.0 200 OK\r\nServer: old\r\n\r\nall of this until EOF",
		want: http1.Response{Proto: "HTTP/1.0", StatusCode: 200, Reason: "OK",
			Header: hdr{{"Server", "old"}}, Body: []byte("all of this until EOF"), ContentLength: -1, Close: true},
	},
	{
		name: "HTTP/1.1 without any length reads until close",
		in:   "HTTP/1.1 200 OK\r\n\r\nuntil EOF",
		want: http1.Response{Proto: "HTTP/1.1", StatusCode: 200, Reason: "OK", Header: hdr{},
			Body: []byte("until EOF"), ContentLength: -1, Close: true},
	},
	{
		name: "HTTP/1.0 with Content-Length closes by default",
		in:   "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nhi",
		next: "HTTP/1.0 200 OK\r\n",
		want: http1.Response{Proto: "HTTP/1.0", StatusCode: 200, Reason: "OK",
			Header: hdr{{"Content-Length", "2"}}, Body: []byte("hi"), ContentLength: 2, Close: true},
	},
	{
		name: "HTTP/1.0 with keep-alive stays open",
		in:   "HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 2\r\n\r\nhi",
		want: http1.Response{Proto: "HTTP/1.0", StatusCode: 200, Reason: "OK",
			Header: hdr{{"Connection", "Keep-Alive"}, {"Content-Length", "2"}}, Body: []byte("hi"), ContentLength: 2},
	},
	{
		name: "HTTP/1.0 with keep-alive before another option stays open",
		in:   "HTTP/1.0 200 OK\r\nConnection: keep-alive, Upgrade\r\nContent-Length: 2\r\n\r\nhi",
		want: http1.Response{Proto: "HTTP/1.0", StatusCode: 200, Reason: "OK",
			Header: hdr{{"Connection", "keep-alive, Upgrade"}, {"Content-Length", "2"}}, Body: []byte("hi"), ContentLength: 2},
	},
	{
		name: "an empty obs-fold line ended by a bare LF does not end the head",
		in:   "HTTP/1.1 200 OK\r\nX: a\n \nContent-Length: 2\r\n\r\nhi",
		want: http1.Response{Proto: "HTTP/1.1", StatusCode: 200, Reason: "OK",
			Header: hdr{{"X", "a"}, {"Content-Length", "2"}}, Body: []byte("hi"), ContentLength: 2},
	},
	{
		name: "Connection: close in a list, any case",
		in:   "HTTP/1.1 200 OK\r\nConnection: keep-alive, CLOSE\r\nContent-Length: 2\r\n\r\nhi",
		want: http1.Response{Proto: "HTTP/1.1", StatusCode: 200, Reason: "OK",
			Header: hdr{{"Connection", "keep-alive, CLOSE"}, {"Content-Length", "2"}}, Body: []byte("hi"), ContentLength: 2, Close: true},
	},
	{
		name: "a later HTTP/1.x minor version is read as HTTP/1.1",
		in:   "HTTP/1.2 200 OK\r\nContent-Length: 2\r\n\r\nhi",
		want: http1.Response{Proto: "HTTP/1.2", StatusCode: 200, Reason: "OK",
			Header: hdr{{"Content-Length", "2"}}, Body: []byte("hi"), ContentLength: 2},
	},
	{
		name:   "HEAD: Content-Length reported, no body read",
		method: "HEAD",
		in:     "HTTP/1.1 200 OK\r\nContent-Length: 1234\r\n\r\n",
		next:   "HTTP/1.1 200 OK\r\nContent-Length: 1234\r\n\r\n",
		want: http1.Response{Proto: "HTTP/1.1", StatusCode: 200, Reason: "OK",
			Header: hdr{{"Content-Length", "1234"}}, ContentLength: 1234},
	},
	{
		name:   "HEAD: chunked framing ignored",
		method: "HEAD",
		in:     "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n",
		next:   "0\r\n\r\n",
		want: http1.Response{Proto: "HTTP/1.1", StatusCode: 200, Reason: "OK",
			Header: hdr{{"Transfer-Encoding", "chunked"}}, ContentLength: -1},
	},
	{
		name:   "HEAD: unknown Content-Encoding does not matter without a body",
		method: "HEAD",
		in:     "HTTP/1.1 200 OK\r\nContent-Encoding: br\r\nContent-Length: 10\r\n\r\n",
		want: http1.Response{Proto: "HTTP/1.1", StatusCode: 200, Reason: "OK",
			Header: hdr{{"Content-Encoding", "br"}, {"Content-Length", "10"}}, ContentLength: 10},
	},
	{
		name: "204 has no body",
		in:   "HTTP/1.1 204 No Content\r\n\r\n",
		next: "HTTP/1.1 200 OK\r\n",
		want: http1.Response{Proto: "HTTP/1.1", StatusCode: 204, Reason: "No Content", Header: hdr{}, ContentLength: -1},
	},
	{
		name: "304 has no body, even with a Content-Length",
		in:   "HTTP/1.1 304 Not Modified\r\nContent-Length: 100\r\n\r\n",
		next: "HTTP/1.1 200 OK\r\n",
		want: http1.Response{Proto: "HTTP/1.1", StatusCode: 304, Reason: "Not Modified",
			Header: hdr{{"Content-Length", "100"}}, ContentLength: 100},
	},
	{
		name: "100 Continue is skipped",
		in:   "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi",
		want: http1.Response{Proto: "HTTP/1.1", StatusCode: 200, Reason: "OK",
			Header: hdr{{"Content-Length", "2"}}, Body: []byte("hi"), ContentLength: 2},
	},
	{
		name: "eight interim responses, the most allowed, then the final one",
		in:   strings.Repeat("HTTP/1.1 100 Continue\r\n\r\n", 8) + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi",
		want: http1.Response{Proto: "HTTP/1.1", StatusCode: 200, Reason: "OK",
			Header: hdr{{"Content-Length", "2"}}, Body: []byte("hi"), ContentLength: 2},
	},
	{
		name: "several interim responses, 103 with headers",
		in: "HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n" +
			"HTTP/1.1 102 Processing\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi",
		want: http1.Response{Proto: "HTTP/1.1", StatusCode: 200, Reason: "OK",
			Header: hdr{{"Content-Length", "2"}}, Body: []byte("hi"), ContentLength: 2},
	},
	{
		name: "Content-Length repeated with one value",
		in:   "HTTP/1.1 200 OK\r\nContent-Length: 2, 2\r\nContent-Length: 2\r\n\r\nhi",
		want: http1.Response{Proto: "HTTP/1.1", StatusCode: 200, Reason: "OK",
			Header: hdr{{"Content-Length", "2, 2"}, {"Content-Length", "2"}}, Body: []byte("hi"), ContentLength: 2},
	},
	{
		name: "chunked, with extensions and upper-case hex",
		in:   "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\nB ; a ; b=\"c\"\r\n, whole web\r\n0\r\n\r\n",
		next: "HTTP/1.1 200 OK\r\n",
		want: http1.Response{Proto: "HTTP/1.1", StatusCode: 200, Reason: "OK",
			Header: hdr{{"Transfer-Encoding", "chunked"}}, Body: []byte("hello, whole web"), ContentLength: -1},
	},
	{
		name: "chunked with leading zeros, bare LF in the head and the trailer section",
		in:   "HTTP/1.1 200 OK\nTransfer-Encoding: Chunked\n\n0002\r\nhi\r\n000\r\n\n",
		want: http1.Response{Proto: "HTTP/1.1", StatusCode: 200, Reason: "OK",
			Header: hdr{{"Transfer-Encoding", "Chunked"}}, Body: []byte("hi"), ContentLength: -1},
	},
	{
		name: "chunked trailers kept apart from the header",
		in:   "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTrailer: X-Sum\r\n\r\n2\r\nhi\r\n0\r\nX-Sum: 42\r\nX-More: yes\r\n\r\n",
		want: http1.Response{Proto: "HTTP/1.1", StatusCode: 200, Reason: "OK",
			Header:  hdr{{"Transfer-Encoding", "chunked"}, {"Trailer", "X-Sum"}},
			Trailer: hdr{{"X-Sum", "42"}, {"X-More", "yes"}}, Body: []byte("hi"), ContentLength: -1},
	},
	{
		name: "Transfer-Encoding with Content-Length: chunked wins, connection closes",
		in:   "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked("hello"),
		want: http1.Response{Proto: "HTTP/1.1", StatusCode: 200, Reason: "OK",
			Header: hdr{{"Content-Length", "3"}, {"Transfer-Encoding", "chunked"}}, Body: []byte("hello"), ContentLength: -1, Close: true},
	},
	{
		name: "Transfer-Encoding in HTTP/1.0: read, then close",
		in:   "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked("hi"),
		want: http1.Response{Proto: "HTTP/1.0", StatusCode: 200, Reason: "OK",
			Header: hdr{{"Connection", "keep-alive"}, {"Transfer-Encoding", "chunked"}}, Body: []byte("hi"), ContentLength: -1, Close: true},
	},
	{
		name: "gzip Content-Encoding decoded",
		in:   "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: " + strconv.Itoa(len(gzHello)) + "\r\n\r\n" + gzHello,
		want: http1.Response{Proto: "HTTP/1.1", StatusCode: 200, Reason: "OK",
			Header: hdr{{"Content-Encoding", "gzip"}, {"Content-Length", strconv.Itoa(len(gzHello))}}, Body: []byte("hello, hello, hello"),
			ContentLength: int64(len(gzHello)), Decoded: true},
	},
	{
		name: "x-gzip, chunked",
		in:   "HTTP/1.1 200 OK\r\nContent-Encoding: X-Gzip\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked(gzipped("abc")[:10], gzipped("abc")[10:]),
		want: http1.Response{Proto: "HTTP/1.1", StatusCode: 200, Reason: "OK",
			Header: hdr{{"Content-Encoding", "X-Gzip"}, {"Transfer-Encoding", "chunked"}}, Body: []byte("abc"), ContentLength: -1, Decoded: true},
	},
	{
		name: "gzip transfer coding under chunked",
		in:   "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n" + chunked(gzipped("abc")),
		want: http1.Response{Proto: "HTTP/1.1", StatusCode: 200, Reason: "OK",
			Header: hdr{{"Transfer-Encoding", "gzip, chunked"}}, Body: []byte("abc"), ContentLength: -1},
	},
	{
		name: "Transfer-Encoding without chunked last: read until close",
		in:   "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n" + gzipped("abc"),
		want: http1.Response{Proto: "HTTP/1.1", StatusCode: 200, Reason: "OK",
			Header: hdr{{"Transfer-Encoding", "gzip"}}, Body: []byte("abc"), ContentLength: -1, Close: true},
	},
	{
		name: "gzip in both codings",
		in:   "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nTransfer-Encoding: gzip, chunked\r\n\r\n" + chunked(gzipped(gzipped("abc"))),
		want: http1.Response{Proto: "HTTP/1.1", StatusCode: 200, Reason: "OK",
			Header: hdr{{"Content-Encoding", "gzip"}, {"Transfer-Encoding", "gzip, chunked"}}, Body: []byte("abc"), ContentLength: -1, Decoded: true},
	},
	{
		name: "gzip twice in Content-Encoding: both undone",
		in:   "HTTP/1.1 200 OK\r\nContent-Encoding: gzip, gzip\r\nContent-Length: " + strconv.Itoa(len(gzipped(gzipped("abc")))) + "\r\n\r\n" + gzipped(gzipped("abc")),
		want: http1.Response{Proto: "HTTP/1.1", StatusCode: 200, Reason: "OK",
			Header: hdr{{"Content-Encoding", "gzip, gzip"}, {"Content-Length", strconv.Itoa(len(gzipped(gzipped("abc"))))}}, Body: []byte("abc"),
			ContentLength: int64(len(gzipped(gzipped("abc")))), Decoded: true},
	},
	{
		name: "identity coding is no coding",
		in:   "HTTP/1.1 200 OK\r\nContent-Encoding: identity\r\nContent-Length: 2\r\n\r\nhi",
		want: http1.Response{Proto: "HTTP/1.1", StatusCode: 200, Reason: "OK",
			Header: hdr{{"Content-Encoding", "identity"}, {"Content-Length", "2"}}, Body: []byte("hi"), ContentLength: 2},
	},
	{
		// RFC 9110 §5.6.1: recipients accept and skip empty list elements;
		// an empty one is no coding, not an unknown one.
		name: "empty elements of Content-Encoding are skipped",
		in:   "HTTP/1.1 200 OK\r\nContent-Encoding: , gzip, ,identity,\r\nContent-Length: " + strconv.Itoa(len(gzHello)) + "\r\n\r\n" + gzHello,
		want: http1.Response{Proto: "HTTP/1.1", StatusCode: 200, Reason: "OK",
			Header: hdr{{"Content-Encoding", ", gzip, ,identity,"}, {"Content-Length", strconv.Itoa(len(gzHello))}}, Body: []byte("hello, hello, hello"),
			ContentLength: int64(len(gzHello)), Decoded: true},
	},
	{
		// RFC 9110 §8.4.1, §5.1: coding names and field names are
		// case-insensitive, each of them.
		name: "codings and their field names in any case",
		in:   "HTTP/1.1 200 OK\r\ncontent-encoding: GZIP, Identity\r\nTRANSFER-ENCODING: Chunked\r\n\r\n" + chunked(gzHello),
		want: http1.Response{Proto: "HTTP/1.1", StatusCode: 200, Reason: "OK",
			Header: hdr{{"content-encoding", "GZIP, Identity"}, {"TRANSFER-ENCODING", "Chunked"}}, Body: []byte("hello, hello, hello"),
			ContentLength: -1, Decoded: true},
	},
	{
		name: "gzip on an empty body is an empty body",
		in:   "HTTP/1.1 301 Moved Permanently\r\nLocation: /x\r\nContent-Encoding: gzip\r\nContent-Length: 0\r\n\r\n",
		want: http1.Response{Proto: "HTTP/1.1", StatusCode: 301, Reason: "Moved Permanently",
			Header: hdr{{"Location", "/x"}, {"Content-Encoding", "gzip"}, {"Content-Length", "0"}}, ContentLength: 0, Decoded: true},
	},
}

// TestParseValid checks each valid response in one read, one byte per
// read, and split in two at every position: the parser must not care how
// the bytes were cut, so every split gives the same Response.
func TestParseValid(t *testing.T) {
	for _, tc := range validCases {
		t.Run(tc.name, func(t *testing.T) {
			method := tc.method
			if method == "" {
				method = "GET"
			}
			in := tc.in + tc.next
			got := parsePieces(method, http1.Limits{}, oneRead(in))
			if got.err != nil {
				t.Fatalf("error: %v", got.err)
			}
			if got.used != len(tc.in) {
				t.Errorf("used %d bytes, want %d (the response is %d, what follows %d)", got.used, len(tc.in), len(tc.in), len(tc.next))
			}
			if !reflect.DeepEqual(*got.resp, tc.want) {
				t.Errorf("got  %s\nwant %s", describe(got.resp), describe(&tc.want))
			}
			splits := map[string][][]byte{"bytewise": bytewise(in)}
			for i := 1; i < len(in); i++ {
				splits["split at "+strconv.Itoa(i)] = splitAt(in, i)
			}
			for how, pieces := range splits {
				again := parsePieces(method, http1.Limits{}, pieces)
				if again.err != nil || again.used != got.used || !reflect.DeepEqual(again.resp, got.resp) {
					t.Fatalf("%s: got %s used %d err %v\nwhole: %s used %d", how, describe(again.resp), again.used, again.err, describe(got.resp), got.used)
				}
			}
		})
	}
}
