package resp

import "fmt"

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
