package http1

import (
	"bytes"
	"strings"
)

// readSection moves bytes from b into p.head until the empty line that ends
// a field section (the head, or the trailers). It returns how much of b it
// used and, once the empty line has arrived, the whole section; until then
// section is nil.
//
// Only the new bytes are scanned, once: a response fed one byte at a time
// costs no more than one fed whole.
func (p *Parser) readSection(b []byte) (section []byte, n int, err error) {
	old := len(p.head)
	window := b
	if room := p.lim.MaxHeaderBytes - old; len(window) > room {
		window = window[:room]
	}
	// Positions below are indexes into window; the unfinished line began
	// in an earlier Feed when lineStart is negative.
	lineStart := p.lineStart - old
	for i := 0; ; {
		j := bytes.IndexByte(window[i:], '\n')
		if j < 0 {
			break
		}
		end := i + j // the LF
		blank := end == lineStart ||
			end-lineStart == 1 && p.byteBefore(window, end) == '\r'
		i, lineStart = end+1, end+1
		if !blank {
			continue
		}
		if old == 0 {
			section = window[:i] // the common case: the whole section came at once, no copy
		} else {
			p.head = append(p.head, window[:i]...)
			section = p.head
		}
		p.head, p.lineStart = p.head[:0], 0 // section stays valid until the next append
		return section, i, nil
	}
	if len(window) < len(b) {
		return nil, 0, errorf(ErrHeaderTooLarge, "header section larger than %d bytes", p.lim.MaxHeaderBytes)
	}
	p.head = append(p.head, window...)
	p.lineStart = old + lineStart
	return nil, len(window), nil
}

// byteBefore returns the byte before window[i], which is in p.head when i
// is 0.
func (p *Parser) byteBefore(window []byte, i int) byte {
	if i > 0 {
		return window[i-1]
	}
	if len(p.head) > 0 {
		return p.head[len(p.head)-1]
	}
	return 0
}

// statusPrefix is how every response we can read begins.
const statusPrefix = "HTTP/1."

// checkPrefix fails fast on bytes that cannot begin an HTTP/1.x response
// (an HTTP/2 preface, an SSH banner, an HTTP/0.9 body), instead of waiting
// for a blank line or 64 KiB of them.
func (p *Parser) checkPrefix(b []byte) error {
	for i := len(p.head); i < len(statusPrefix) && i-len(p.head) < len(b); i++ {
		if b[i-len(p.head)] != statusPrefix[i] {
			seen := string(p.head) + string(b[:min(len(b), 32)])
			line, _ := nextLine(seen)
			return errorf(ErrProtocol, "bad status line %s", quote(line))
		}
	}
	return nil
}

// readHead reads a status line and header fields. A 1xx response is
// parsed, checked and dropped; the final response follows it.
func (p *Parser) readHead(b []byte) (int, error) {
	if err := p.checkPrefix(b); err != nil {
		return 0, err
	}
	section, n, err := p.readSection(b)
	if err != nil || section == nil {
		return n, err
	}
	// One allocation holds every string of the head: names, values, reason
	// are all substrings of s.
	s := string(section)
	if err := checkSection(s); err != nil {
		return n, err
	}
	statusLine, fields := nextLine(s)
	// Each field takes one line, the last line is the empty one.
	// Each field takes one line, the last line is the empty one; room is
	// made for no more than the field limit allows, so a flood of tiny
	// fields cannot reserve more than that before it is counted.
	r := p.newResponse(min(strings.Count(fields, "\n")-1, p.lim.MaxHeaderFields))
	if err := parseStatusLine(statusLine, r); err != nil {
		return n, err
	}
	r.Header, err = parseFields(fields, r.Header, p.lim.MaxHeaderFields)
	if err != nil {
		return n, err
	}
	if r.StatusCode >= 200 {
		p.resp = r
		return n, p.startBody()
	}
	// RFC 9110 §15.2: a client must accept and skip 1xx responses it did
	// not expect (100 Continue, 103 Early Hints). 101 would switch the
	// connection to another protocol, and we never ask for that.
	if r.StatusCode == 101 {
		return n, errorf(ErrProtocol, "unexpected 101 Switching Protocols: no upgrade was requested")
	}
	if p.interim++; p.interim > maxInterim {
		return n, errorf(ErrProtocol, "more than %d interim 1xx responses", maxInterim)
	}
	return n, nil
}

// newResponse returns the Response to fill for the head being read: the
// caller's, if Into gave one, else a new one. A Response given by Into
// keeps the array of its Header (if it has room for n fields) and of its
// Body for the parser to fill again: a record that comes back from a free
// list costs no allocation for either.
func (p *Parser) newResponse(n int) *Response {
	r := p.into
	if r == nil {
		return newResponse(n)
	}
	header, body := r.Header[:0], r.Body[:0]
	clear(header[:cap(header)]) // the last response's strings go, not only their count
	if cap(header) < n {
		header = make(Header, 0, n)
	}
	*r = Response{Header: header, ContentLength: -1}
	p.spare = body
	return r
}

// newResponse makes a Response with room for n header fields. Up to 16
// fields, the Response and its fields' array are one allocation: a struct
// holding both, of which the Response is the first field, so that the
// *Response is, as ever, the start of its allocation. (Three sizes, so
// that a small head does not pay for a large array.) More fields than
// that get a slice of their own.
func newResponse(n int) *Response {
	var r *Response
	switch {
	case n <= 4:
		b := new(struct {
			r Response
			f [4]Field
		})
		r = &b.r
		r.Header = b.f[:0]
	case n <= 8:
		b := new(struct {
			r Response
			f [8]Field
		})
		r = &b.r
		r.Header = b.f[:0]
	case n <= 16:
		b := new(struct {
			r Response
			f [16]Field
		})
		r = &b.r
		r.Header = b.f[:0]
	default:
		r = &Response{Header: make(Header, 0, n)}
	}
	r.ContentLength = -1
	return r
}

// parseStatusLine parses "HTTP/1.1 200 OK" (RFC 9112 §4): a version, a
// space, three digits, a space, and a reason phrase, possibly empty. It is
// lenient in one way only: many servers drop the space after the code when
// the reason is empty, RFC 9112 §4 lets a recipient split the line on
// whitespace, and nothing is ambiguous without it.
func parseStatusLine(line string, r *Response) error {
	ok := len(line) >= 12 && line[:7] == statusPrefix && isDigit(line[7]) &&
		line[8] == ' ' && '1' <= line[9] && line[9] <= '9' && isDigit(line[10]) && isDigit(line[11]) &&
		(len(line) == 12 || line[12] == ' ')
	if !ok {
		return errorf(ErrProtocol, "bad status line %s", quote(line))
	}
	r.Proto = line[:8]
	r.StatusCode = int(line[9]-'0')*100 + int(line[10]-'0')*10 + int(line[11]-'0')
	if len(line) > 13 {
		r.Reason = line[13:]
	}
	return nil
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// readTrailer reads the trailer section after the last chunk, which ends
// the response.
func (p *Parser) readTrailer(b []byte) (int, error) {
	section, n, err := p.readSection(b)
	if err == nil {
		err = p.frame(n) // trailers are read, so they count against the body limit too
	}
	if err != nil || section == nil || p.state == stateDone {
		return n, err
	}
	if len(section) > 2 { // more than the empty line: there are trailers
		s := string(section)
		if err := checkSection(s); err != nil {
			return n, err
		}
		if p.resp.Trailer, err = parseFields(s, nil, p.lim.MaxHeaderFields); err != nil {
			return n, err
		}
	}
	return n, p.finish()
}
