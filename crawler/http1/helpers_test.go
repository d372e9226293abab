package http1_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"strings"

	"loopkit/crawler/http1"
)

// parseResult is everything a parse run can tell: the response, how many input
// bytes the parser used, and the error.
type parseResult struct {
	resp *http1.Response
	used int
	err  error
}

// parsePieces feeds pieces to a new parser in order, as successive socket
// reads would deliver them, stopping when the response is done. If the
// input runs out first, it closes the input, as an EOF would.
func parsePieces(method string, lim http1.Limits, pieces [][]byte) parseResult {
	p := http1.NewParser(method, lim)
	used := 0
	for _, piece := range pieces {
		n, err := p.Feed(piece)
		used += n
		if err != nil {
			return parseResult{used: used, err: err}
		}
		if p.Done() {
			return parseResult{resp: p.Response(), used: used}
		}
		if n != len(piece) {
			return parseResult{used: used, err: fmt.Errorf("Feed used %d of %d bytes without finishing", n, len(piece))}
		}
	}
	if err := p.CloseInput(); err != nil {
		return parseResult{used: used, err: err}
	}
	return parseResult{resp: p.Response(), used: used}
}

// oneRead is in as a single read.
func oneRead(in string) [][]byte { return [][]byte{[]byte(in)} }

// bytewise is in one byte per read, the worst split there is.
func bytewise(in string) [][]byte {
	pieces := make([][]byte, len(in))
	for i := range len(in) {
		pieces[i] = []byte{in[i]}
	}
	return pieces
}

// splitAt is in as two reads, the first of i bytes.
func splitAt(in string, i int) [][]byte {
	return [][]byte{[]byte(in[:i]), []byte(in[i:])}
}

// gzipped returns s gzip-compressed.
func gzipped(s string) string {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.String()
}

// chunked encodes each piece as one chunk, then the last chunk and an empty
// trailer section.
func chunked(pieces ...string) string {
	var b strings.Builder
	for _, s := range pieces {
		fmt.Fprintf(&b, "%x\r\n%s\r\n", len(s), s)
	}
	b.WriteString("0\r\n\r\n")
	return b.String()
}

// describe prints a response for a failure message, body as text.
func describe(r *http1.Response) string {
	if r == nil {
		return "<nil>"
	}
	return fmt.Sprintf("{%s %d %q Header=%q Trailer=%q Body=%q CL=%d Close=%v Decoded=%v}",
		r.Proto, r.StatusCode, r.Reason, r.Header, r.Trailer, r.Body, r.ContentLength, r.Close, r.Decoded)
}
