package resp

import (
	"bytes"
	"fmt"
)

// Default limits, used where a Limits field is zero or negative.
const (
	DefaultMaxLineBytes        = 64 << 10
	DefaultMaxBulkBytes        = 16 << 20
	DefaultMaxArrayLen         = 1 << 20
	DefaultMaxDepth            = 32
	DefaultMaxReplyBytes int64 = 64 << 20
)

// Limits bound what one reply may cost. Redis is usually a trusted
// server, but a reply is still read into memory whole, and a bug or a
// command that matches too much (KEYS *, SMEMBERS of a set of a hundred
// million URLs) would otherwise take all of it. Every length the server
// sends is checked before anything is allocated for it.
type Limits struct {
	// MaxLineBytes bounds a simple string, an error, an integer, or the
	// length line of a bulk string or array, not counting its CRLF.
	MaxLineBytes int
	// MaxBulkBytes bounds one bulk string. (Redis's own limit on a value
	// it accepts, proto-max-bulk-len, is 512 MiB by default.)
	MaxBulkBytes int
	// MaxArrayLen bounds the number of elements of one array.
	MaxArrayLen int
	// MaxDepth bounds arrays nested in arrays: an array of integers is
	// depth 1. A script can return tables nested without end.
	MaxDepth int
	// MaxReplyBytes bounds one whole reply as it is on the wire.
	MaxReplyBytes int64
}

func (l Limits) withDefaults() Limits {
	if l.MaxLineBytes <= 0 {
		l.MaxLineBytes = DefaultMaxLineBytes
	}
	if l.MaxBulkBytes <= 0 {
		l.MaxBulkBytes = DefaultMaxBulkBytes
	}
	if l.MaxArrayLen <= 0 {
		l.MaxArrayLen = DefaultMaxArrayLen
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultMaxDepth
	}
	if l.MaxReplyBytes <= 0 {
		l.MaxReplyBytes = DefaultMaxReplyBytes
	}
	return l
}

// state is where the parser is within a reply.
type state uint8

const (
	stateType   state = iota // the type byte that starts a value
	stateLine                // the rest of that line, up to its CRLF
	stateBulk                // a bulk string's bytes
	stateBulkCR              // the CR after them
	stateBulkLF              // and the LF
	stateDone                // a whole reply is parsed
	stateFailed              // an error was returned; it is sticky
)

// frame is an array whose elements are still arriving.
type frame struct {
	elems []Value
	want  int
}

// Parser reads one RESP2 reply at a time from bytes fed to it in pieces of
// any size. Its zero value is not usable: call NewParser.
//
// The usual loop, in a read callback:
//
//	n, err := p.Feed(buf)  // err: the connection is out of step
//	if p.Done() { v := p.Reply(); p.Reset(); buf = buf[n:]; ... }
//
// A reply is a tree (arrays hold values, arrays among them), but the
// parser does not recurse: open arrays wait on a stack, and each finished
// value is appended to the array on top. So a reply cut at any byte
// leaves the parser in a state it can resume from, and the depth of the
// stack is a limit the parser checks, not the depth of Go's call stack.
type Parser struct {
	lim   Limits
	state state
	err   error // set once, returned by every later call
	size  int64 // bytes of this reply used so far

	kind byte   // the type byte of the line being read
	line []byte // a line that arrived in pieces, so far

	bulk      []byte // a bulk string that arrived in pieces, so far
	remaining int    // bytes of the bulk string still to come
	str       string // the bulk string, once whole, until its CRLF

	stack []frame // the arrays still open, outermost first
	reply Value
}

// NewParser returns a parser that enforces lim (zero fields: the defaults).
func NewParser(lim Limits) *Parser {
	return &Parser{lim: lim.withDefaults()}
}

// Reset prepares p for the next reply on the same connection, keeping its
// buffers. The previous reply is not affected: it belongs to the caller.
func (p *Parser) Reset() {
	// One 10 MiB value must not make the connection hold 10 MiB for the
	// rest of its life: keep only small buffers.
	const keep = 64 << 10
	line, bulk := p.line[:0], p.bulk[:0]
	if cap(line) > keep {
		line = nil
	}
	if cap(bulk) > keep {
		bulk = nil
	}
	clear(p.stack) // a reply abandoned half-way: let its arrays go
	*p = Parser{lim: p.lim, line: line, bulk: bulk, stack: p.stack[:0]}
}

// Done reports whether a whole reply has been parsed.
func (p *Parser) Done() bool { return p.state == stateDone }

// Started reports whether any byte of the current reply has been used.
func (p *Parser) Started() bool { return p.size > 0 }

// Reply returns the parsed reply once Done, and the zero Value before.
func (p *Parser) Reply() Value {
	if p.state != stateDone {
		return Value{}
	}
	return p.reply
}

// Feed parses bytes from b and returns how many it used. It stops at the
// end of a reply, so with pipelined replies b[n:] is the start of the
// next; once Done it uses nothing until Reset. An error is final: every
// later call returns it.
func (p *Parser) Feed(b []byte) (n int, err error) {
	if p.err != nil {
		return 0, p.err
	}
	for n < len(b) && p.state != stateDone {
		var m int
		m, err = p.step(b[n:])
		n += m
		if err != nil {
			return n, p.fail(err)
		}
	}
	return n, nil
}

// CloseInput tells the parser that the connection ended. Between replies
// that is no error (nil); inside one it is an ErrTruncated error.
func (p *Parser) CloseInput() error {
	if p.err != nil {
		return p.err
	}
	if p.state == stateDone || p.size == 0 {
		return nil
	}
	return p.fail(errorf(ErrTruncated, "connection closed %d bytes into a reply", p.size))
}

func (p *Parser) fail(err error) error {
	p.state, p.err = stateFailed, err
	p.reply, p.stack, p.str = Value{}, nil, ""
	return err
}

// use counts n more bytes of the reply against MaxReplyBytes. Every state
// calls it before it looks at what the bytes say, so a reply over the
// limit fails the same way however it was split.
func (p *Parser) use(n int) error {
	p.size += int64(n)
	if p.size > p.lim.MaxReplyBytes {
		return errorf(ErrTooLarge, "reply larger than %d bytes", p.lim.MaxReplyBytes)
	}
	return nil
}

// step makes progress on a non-empty b in the current state and returns
// how much of b it used. Every state uses at least one byte or fails, so
// Feed's loop always ends.
func (p *Parser) step(b []byte) (int, error) {
	switch p.state {
	case stateType:
		if err := p.use(1); err != nil {
			return 1, err
		}
		switch c := b[0]; c {
		case '+', '-', ':', '$', '*':
			p.kind, p.state = c, stateLine
			return 1, nil
		case '_', ',', '#', '!', '=', '(', '%', '~', '|', '>':
			return 1, errorf(ErrProtocol, "RESP3 type byte %q: this client speaks RESP2", c)
		default:
			return 1, errorf(ErrProtocol, "unknown type byte %q", c)
		}
	case stateLine:
		return p.readLine(b)
	case stateBulk:
		k := min(len(b), p.remaining)
		if err := p.use(k); err != nil {
			return k, err
		}
		p.remaining -= k
		switch {
		case p.remaining == 0 && len(p.bulk) == 0:
			// The whole string is in this read: one allocation, the
			// string itself, and no copy through p.bulk.
			p.str = string(b[:k])
		case p.remaining == 0:
			p.str = string(append(p.bulk, b[:k]...))
			p.bulk = p.bulk[:0]
		default:
			p.bulk = append(p.bulk, b[:k]...)
			return k, nil
		}
		p.state = stateBulkCR
		return k, nil
	case stateBulkCR, stateBulkLF:
		if err := p.use(1); err != nil {
			return 1, err
		}
		want := byte('\r')
		if p.state == stateBulkLF {
			want = '\n'
		}
		if b[0] != want {
			return 1, errorf(ErrProtocol, "bulk string not followed by CRLF (got %q)", b[0])
		}
		if p.state == stateBulkCR {
			p.state = stateBulkLF
			return 1, nil
		}
		s := p.str
		p.str = ""
		return 1, p.emit(Value{Kind: KindBulk, Str: s})
	}
	panic(fmt.Sprintf("resp: step in state %d", p.state)) // unreachable: Feed stops at Done and on errors
}

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

// emit hands a finished value to the array that is waiting for it, and
// closes every array it completes; a value no array waits for is the
// reply.
func (p *Parser) emit(v Value) error {
	for len(p.stack) > 0 {
		top := &p.stack[len(p.stack)-1]
		top.elems = append(top.elems, v)
		if len(top.elems) < top.want {
			p.state = stateType
			return nil
		}
		v = Value{Kind: KindArray, Elems: top.elems}
		*top = frame{}
		p.stack = p.stack[:len(p.stack)-1]
	}
	p.reply, p.state = v, stateDone
	return nil
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
