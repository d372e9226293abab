package http1

import (
	"bytes"
	"slices"
)

// The chunked coding (RFC 9112 §7.1) lets a server stream a body whose
// length it does not know in advance:
//
//	1a;ext=ignored\r\n        chunk size in hex, optional extensions
//	...26 bytes of data...\r\n
//	0\r\n                     the last chunk has size zero
//	Trailer-Field: value\r\n  optional trailer fields
//	\r\n
//
// readChunked handles the first three states; the trailer section is read
// like the head, by readTrailer.
//
// Two rules keep it strict. Every line of the framing must end in CRLF:
// RFC 9112 §7.1 allows nothing else, and a parser that also takes a bare
// LF disagrees with one that does not on where a chunk ends — the root of
// request smuggling through chunked bodies (net/http made the same fix,
// CVE-2025-22871). And every byte of the framing counts against the body
// limit (frame), so a server cannot make us read without end by sending
// one-byte chunks with kilobytes of extensions each.

// maxChunkLine bounds a chunk-size line. The size needs at most 16 hex
// digits; the rest would be extensions, which nothing we fetch uses.
const maxChunkLine = 4 << 10

func (p *Parser) readChunked(b []byte) (int, error) {
	switch p.state {
	case stateChunkSize:
		line, n, ok, err := p.readChunkLine(b)
		if err == nil && ok {
			// Counted once the line is whole (it is at most maxChunkLine
			// long meanwhile), so that a bad line is the same error
			// however its bytes were split between reads.
			err = p.frame(len(line) + len("\r\n"))
		}
		if !ok || err != nil || p.state == stateDone {
			return n, err
		}
		size, err := parseChunkSize(line)
		if err != nil {
			return n, err
		}
		if size == 0 {
			p.state = stateTrailer
			return n, nil
		}
		// Refuse as soon as the size is announced, before reading data
		// that could never be used.
		if size > p.lim.MaxBodyBytes-p.bodyRead && !p.truncate && !p.discard {
			return n, errorf(ErrBodyTooLarge, "chunked body larger than %d bytes", p.lim.MaxBodyBytes)
		}
		if !p.discard {
			p.reserve(int(min(size, maxPrealloc, p.lim.MaxBodyBytes-p.bodyRead)))
		}
		p.remaining = size
		p.state = stateChunkData
		return n, nil

	case stateChunkData:
		k := len(b)
		if int64(k) > p.remaining {
			k = int(p.remaining)
		}
		if p.overLimit(k) {
			return p.cut(b)
		}
		p.take(b[:k])
		if p.remaining -= int64(k); p.remaining == 0 {
			p.state = stateChunkEnd
		}
		return k, nil

	default: // stateChunkEnd: the CRLF after the data
		switch {
		case b[0] == '\r' && !p.sawCR:
			p.sawCR = true
		case b[0] == '\n' && p.sawCR:
			p.sawCR = false
			p.state = stateChunkSize
		default:
			return 0, errorf(ErrProtocol, "chunk data longer than its size, or not followed by CRLF")
		}
		return 1, p.frame(1)
	}
}

// minChunkedBody is the first capacity reserved for a chunked body. Servers
// often send a page in chunks of a few hundred bytes; starting small would
// mean reallocating at every one of the first few.
const minChunkedBody = 4 << 10

// reserve makes room in p.body for n more bytes. The capacity at least
// doubles each time, so a body arriving in many small chunks is copied a
// logarithmic number of times, never once per chunk; it never exceeds the
// body limit, which the caller has checked len+n against.
func (p *Parser) reserve(n int) {
	if cap(p.body)-len(p.body) >= n {
		return
	}
	want := min(max(2*int64(cap(p.body)), int64(len(p.body)+n), minChunkedBody), p.lim.MaxBodyBytes)
	p.body = slices.Grow(p.body, int(want)-len(p.body))
}

// readChunkLine returns the next line of b without its line ending, and
// how much of b it used. A line split across Feeds is gathered in
// p.chunkLine; ok is false until it is complete.
func (p *Parser) readChunkLine(b []byte) (line []byte, n int, ok bool, err error) {
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		if len(p.chunkLine)+len(b) > maxChunkLine {
			return nil, 0, false, errorf(ErrProtocol, "chunk size line longer than %d bytes", maxChunkLine)
		}
		p.chunkLine = append(p.chunkLine, b...)
		return nil, len(b), false, nil
	}
	line = b[:i]
	if len(p.chunkLine) > 0 {
		p.chunkLine = append(p.chunkLine, line...)
		line = p.chunkLine
		p.chunkLine = p.chunkLine[:0] // line stays valid until the next append
	}
	if len(line) > maxChunkLine {
		return nil, 0, false, errorf(ErrProtocol, "chunk size line longer than %d bytes", maxChunkLine)
	}
	if len(line) == 0 || line[len(line)-1] != '\r' {
		return nil, 0, false, errorf(ErrProtocol, "chunk size line %s ends in a bare LF, not CRLF", quote(string(line)))
	}
	return line[:len(line)-1], i + 1, true, nil
}

// parseChunkSize reads "1a" or "1a;name=value" or "1a ; name". Extensions
// are skipped: none changes how the data is read. Strict where parsers
// have been known to disagree (the root of request smuggling): no sign, no
// "0x", no empty size, no overflow, no control bytes.
func parseChunkSize(line []byte) (int64, error) {
	var size int64
	i := 0
	for ; i < len(line); i++ {
		d := unhex(line[i])
		if d < 0 {
			break
		}
		if size > (1<<63-1)>>4 {
			return 0, errorf(ErrProtocol, "chunk size %s overflows", quote(string(line)))
		}
		size = size<<4 | int64(d)
	}
	rest := line[i:]
	for len(rest) > 0 && isOWS(rest[0]) {
		rest = rest[1:]
	}
	if i == 0 || len(rest) > 0 && rest[0] != ';' || hasControl(rest) {
		return 0, errorf(ErrProtocol, "bad chunk size line %s", quote(string(line)))
	}
	return size, nil
}

func unhex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c - 'a' + 10)
	case 'A' <= c && c <= 'F':
		return int(c - 'A' + 10)
	}
	return -1
}

// hasControl reports a control byte other than HTAB (CR and LF among
// them) or DEL.
func hasControl[T string | []byte](b T) bool {
	for i := 0; i < len(b); i++ {
		if c := b[i]; c < ' ' && c != '\t' || c == 0x7f {
			return true
		}
	}
	return false
}
