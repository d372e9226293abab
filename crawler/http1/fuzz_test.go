package http1_test

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"loopkit/crawler/http1"
)

// fuzzLimits are small so that the fuzzer reaches the limits easily.
var fuzzLimits = http1.Limits{MaxHeaderBytes: 256, MaxBodyBytes: 512}

// cutBy splits in into pieces whose sizes are read from cuts, cycling
// (a zero cut counts as 1). With no cuts the input is one piece.
func cutBy(in, cuts []byte) [][]byte {
	if len(cuts) == 0 {
		return [][]byte{in}
	}
	var pieces [][]byte
	for i := 0; len(in) > 0; i++ {
		n := min(max(int(cuts[i%len(cuts)]), 1), len(in))
		pieces = append(pieces, in[:n])
		in = in[n:]
	}
	return pieces
}

// checkedParse is parsePieces with the parser's invariants asserted after
// every call: never Done and failed at once, never more used than given,
// never a body over the limit, every error a *ParseError of a known kind.
func checkedParse(t *testing.T, method string, lim http1.Limits, pieces [][]byte) parseResult {
	t.Helper()
	p := http1.NewParser(method, lim)
	check := func(what string, err error) {
		t.Helper()
		if err != nil {
			var perr *http1.ParseError
			if !errors.As(err, &perr) || !isKnownKind(err) {
				t.Fatalf("%s: %v is not a *ParseError of a known kind", what, err)
			}
			if p.Done() || p.Response() != nil {
				t.Fatalf("%s: Done or a Response together with error %v", what, err)
			}
		}
		if p.Done() {
			r := p.Response()
			if r == nil {
				t.Fatalf("%s: Done without a Response", what)
			}
			if int64(len(r.Body)) > lim.MaxBodyBytes {
				t.Fatalf("%s: body of %d bytes over the %d limit", what, len(r.Body), lim.MaxBodyBytes)
			}
		}
	}
	used := 0
	for _, piece := range pieces {
		n, err := p.Feed(piece)
		if n < 0 || n > len(piece) {
			t.Fatalf("Feed used %d of %d bytes", n, len(piece))
		}
		used += n
		check("Feed", err)
		if err != nil {
			return parseResult{used: used, err: err}
		}
		if p.Done() {
			return parseResult{resp: p.Response(), used: used}
		}
		if n != len(piece) {
			t.Fatalf("Feed used %d of %d bytes and is not done", n, len(piece))
		}
	}
	err := p.CloseInput()
	check("CloseInput", err)
	return parseResult{resp: p.Response(), used: used, err: err}
}

func isKnownKind(err error) bool {
	for _, kind := range []error{http1.ErrProtocol, http1.ErrHeaderTooLarge, http1.ErrBodyTooLarge, http1.ErrTruncated, http1.ErrUnsupportedCoding} {
		if errors.Is(err, kind) {
			return true
		}
	}
	return false
}

// kindOf names the sentinel an error matches, to compare two runs.
func kindOf(err error) string {
	for _, kind := range []error{http1.ErrProtocol, http1.ErrHeaderTooLarge, http1.ErrBodyTooLarge, http1.ErrTruncated, http1.ErrUnsupportedCoding} {
		if errors.Is(err, kind) {
			return kind.Error()
		}
	}
	return fmt.Sprint(err)
}

// FuzzParser feeds arbitrary bytes in arbitrary pieces. Besides the
// invariants of checkedParse, the outcome must not depend on the pieces:
// the same response, the same bytes used, or the same kind of error, as
// when the input comes in one read.
func FuzzParser(f *testing.F) {
	for _, tc := range validCases {
		f.Add([]byte(tc.in+tc.next), []byte{1}, tc.method == "HEAD")
		f.Add([]byte(tc.in+tc.next), []byte{7, 3}, tc.method == "HEAD")
	}
	for _, tc := range errorCases {
		if len(tc.in) < 1000 {
			f.Add([]byte(tc.in), []byte{5}, tc.method == "HEAD")
		}
	}
	f.Fuzz(func(t *testing.T, in, cuts []byte, head bool) {
		method := "GET"
		if head {
			method = "HEAD"
		}
		one := checkedParse(t, method, fuzzLimits, [][]byte{in})
		cut := checkedParse(t, method, fuzzLimits, cutBy(in, cuts))
		// On an error, how much was used is not comparable: a bad first
		// byte is found at once, and earlier pieces were already used.
		sameUse := one.err != nil || one.used == cut.used
		if kindOf(one.err) != kindOf(cut.err) || !sameUse || !reflect.DeepEqual(one.resp, cut.resp) {
			t.Fatalf("outcome depends on the pieces:\none read: %s used %d err %v\n  pieces: %s used %d err %v",
				describe(one.resp), one.used, one.err, describe(cut.resp), cut.used, cut.err)
		}
	})
}

// FuzzChunked checks the chunked decoder both ways: data encoded in chunks
// of fuzzed sizes (with extensions and trailers thrown in) decodes back to
// the data, and the same bytes used raw as a chunked body never break the
// parser's invariants.
func FuzzChunked(f *testing.F) {
	f.Add([]byte("hello, world"), []byte{3, 1, 200})
	f.Add([]byte(""), []byte{})
	f.Add([]byte("5\r\nhello\r\n0\r\n\r\n"), []byte{1})
	f.Add([]byte("a;x=y\r\n0123456789\r\n0\r\nT: v\r\n\r\n"), []byte{2, 9})
	f.Add([]byte("ffffffffffffffff\r\n"), []byte{4})
	f.Add([]byte("1\nx\n0\n\n"), []byte{0})
	f.Fuzz(func(t *testing.T, data, sizes []byte) {
		const head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"

		encoded := encodeChunked(data, sizes)
		lim := http1.Limits{MaxHeaderBytes: http1.DefaultMaxHeaderBytes, MaxBodyBytes: http1.DefaultMaxBodyBytes}
		got := checkedParse(t, "GET", lim, cutBy([]byte(head+encoded), sizes))
		if got.err != nil {
			t.Fatalf("%q: %v", encoded, got.err)
		}
		if !bytes.Equal(got.resp.Body, data) || got.used != len(head)+len(encoded) {
			t.Fatalf("%q decoded to %q using %d bytes", encoded, got.resp.Body, got.used)
		}

		checkedParse(t, "GET", fuzzLimits, cutBy(append([]byte(head), data...), sizes))
	})
}

// encodeChunked writes data as chunks whose sizes come from sizes, cycling,
// varying the spelling the way servers do: upper- and lower-case hex,
// leading zeros, extensions, and a trailer — with a bare LF only where one
// is allowed, in the trailer field.
func encodeChunked(data, sizes []byte) string {
	var b strings.Builder
	for i := 0; len(data) > 0; i++ {
		n := len(data)
		if len(sizes) > 0 {
			n = min(max(int(sizes[i%len(sizes)]), 1), len(data))
		}
		const eol = "\r\n"
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, "%x%s", n, eol)
		case 1:
			fmt.Fprintf(&b, "%X;name=value%s", n, eol)
		case 2:
			fmt.Fprintf(&b, "00%x ; a ; b=\"q\"%s", n, eol)
		case 3:
			fmt.Fprintf(&b, "%x;e%s", n, eol)
		}
		b.Write(data[:n])
		b.WriteString(eol)
		data = data[n:]
	}
	b.WriteString("0\r\n")
	if len(sizes)%2 == 1 {
		b.WriteString("X-Trailer: yes\n")
	}
	b.WriteString("\r\n")
	return b.String()
}
