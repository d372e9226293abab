package resp

import "bytes"

// The lines of RESP: a simple string, an error, an integer, or the length
// of a bulk string or an array, each after its type byte and up to CRLF.

// readLine reads the line after a type byte. A line that ends in this read
// is used where it lies; one that does not is kept in p.line until it does.
//
// The checks come in a fixed order — the reply's size, the line's length,
// then its ending — and the length check on an unfinished line fires only
// when the finished line could not pass it either. So a bad line gives the
// same error whether it came in one read or byte by byte.
func (p *Parser) readLine(b []byte) (int, error) {
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		if err := p.use(len(b)); err != nil {
			return len(b), err
		}
		// +1: the line's CR may be among the bytes so far.
		if len(p.line)+len(b) > p.lim.MaxLineBytes+1 {
			return len(b), errorf(ErrTooLarge, "line longer than %d bytes", p.lim.MaxLineBytes)
		}
		p.line = append(p.line, b...)
		return len(b), nil
	}
	if err := p.use(i + 1); err != nil {
		return i + 1, err
	}
	line := b[:i]
	if len(p.line) > 0 {
		p.line = append(p.line, line...)
		line = p.line
	}
	if len(line) > p.lim.MaxLineBytes+1 {
		return i + 1, errorf(ErrTooLarge, "line longer than %d bytes", p.lim.MaxLineBytes)
	}
	if len(line) == 0 || line[len(line)-1] != '\r' {
		return i + 1, errorf(ErrProtocol, "line ended by a bare LF, not CRLF")
	}
	line = line[:len(line)-1]
	if bytes.IndexByte(line, '\r') >= 0 {
		return i + 1, errorf(ErrProtocol, "bare CR inside a line")
	}
	err := p.lineDone(line)
	p.line = p.line[:0]
	return i + 1, err
}

// lineDone acts on a whole line, without its CRLF, according to the type
// byte that started it.
func (p *Parser) lineDone(line []byte) error {
	switch p.kind {
	case '+':
		return p.emit(Value{Kind: KindSimple, Str: simpleString(line)})
	case '-':
		return p.emit(Value{Kind: KindError, Str: string(line)})
	case ':':
		n, ok := parseInt(line)
		if !ok {
			return errorf(ErrProtocol, "bad integer %q", line)
		}
		return p.emit(Value{Kind: KindInteger, Int: n})
	case '$':
		n, err := p.length(line, "bulk string", p.lim.MaxBulkBytes)
		switch {
		case err != nil:
			return err
		case n < 0:
			return p.emit(Value{Kind: KindNil})
		case p.size+int64(n)+2 > p.lim.MaxReplyBytes:
			// Refused now, before a byte of it is read or allocated.
			return errorf(ErrTooLarge, "reply larger than %d bytes", p.lim.MaxReplyBytes)
		case n == 0:
			p.str, p.state = "", stateBulkCR
		default:
			p.remaining, p.state = n, stateBulk
		}
		return nil
	case '*':
		n, err := p.length(line, "array", p.lim.MaxArrayLen)
		switch {
		case err != nil:
			return err
		case n < 0:
			return p.emit(Value{Kind: KindNil})
		case len(p.stack) == p.lim.MaxDepth:
			return errorf(ErrTooLarge, "arrays nested deeper than %d", p.lim.MaxDepth)
		case n == 0:
			return p.emit(Value{Kind: KindArray, Elems: []Value{}})
		case p.size+3*int64(n) > p.lim.MaxReplyBytes:
			// Each element takes at least 3 bytes ("+\r\n"): a length
			// the reply cannot fit is refused before it is allocated for.
			return errorf(ErrTooLarge, "reply larger than %d bytes", p.lim.MaxReplyBytes)
		}
		// Room for the elements, but no more than a few at first: the
		// length is only a promise, and the server may never keep it.
		p.stack = append(p.stack, frame{elems: make([]Value, 0, min(n, 64)), want: n})
		p.state = stateType
		return nil
	}
	panic("resp: a line of unknown type") // unreachable: step accepts only the five types
}

// length reads the length of a bulk string or an array: -1 for nil, or a
// number from 0 to limit.
func (p *Parser) length(line []byte, what string, limit int) (int, error) {
	if string(line) == "-1" {
		return -1, nil
	}
	if len(line) == 0 {
		return 0, errorf(ErrProtocol, "empty %s length", what)
	}
	n := 0
	for _, c := range line {
		if c < '0' || c > '9' {
			return 0, errorf(ErrProtocol, "bad %s length %q", what, line)
		}
		n = n*10 + int(c-'0')
		if n > limit {
			// Checked at every digit, so n never overflows.
			return 0, errorf(ErrTooLarge, "%s of more than %d", what, limit)
		}
	}
	return n, nil
}

// simpleString makes a string of a status line. The few that Redis sends
// all the time come from constants, so "+OK" costs no allocation.
func simpleString(b []byte) string {
	switch string(b) { // compiled to comparisons: no conversion, no allocation
	case "OK":
		return "OK"
	case "PONG":
		return "PONG"
	case "QUEUED":
		return "QUEUED"
	}
	return string(b)
}

// parseInt reads an integer reply: an optional minus sign and 1 to 19
// digits that fit in an int64.
func parseInt(b []byte) (int64, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 19 {
		return 0, false
	}
	var n uint64 // 19 digits fit in a uint64 (< 1.9e19), so this cannot overflow
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	switch {
	case neg && n <= 1<<63:
		return int64(-n), true // -n wraps round to the right value, even for 1<<63
	case !neg && n < 1<<63:
		return int64(n), true
	}
	return 0, false
}
