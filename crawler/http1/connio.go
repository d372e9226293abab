package http1

import (
	"io"

	"loopkit/netpoll"
)

// A connection's I/O: what the loop calls when its socket can be written
// or read. The bytes are the request and the response themselves or, on
// an https connection, TLS records (tls.go turns them into those).

// queue adds b to what the connection has to send.
func (c *conn) queue(b []byte) {
	if c.sent == len(c.out) {
		c.out, c.sent = b, 0
		return
	}
	// A copy, never an append in place: out may be the connection's
	// request buffer, which send writes the next request into.
	c.out = append(append(make([]byte, 0, len(c.out)-c.sent+len(b)), c.out[c.sent:]...), b...)
	c.sent = 0
}

// write is the writer callback: it sends what the socket takes and, once
// a request is all sent, starts waiting for its response.
func (c *conn) write() {
	if !c.flush() || !c.sending {
		return
	}
	c.sending = false
	c.ex.reply.Timings.Written = c.ex.since()
	c.awaitHead()
	c.arm("read", c.pool.client.opts.ReadTimeout)
	if c.ex.onSent != nil {
		c.ex.onSent() // last: it may do anything, the connection is ready for the answer
	}
}

// flush sends as much of out as the socket takes and reports whether all
// of it is sent; if not, the loop calls write again when there is room.
func (c *conn) flush() bool {
	for c.sent < len(c.out) {
		n, err := netpoll.Write(c.fd, c.out[c.sent:])
		if err == netpoll.ErrWouldBlock {
			if !c.writerOn {
				if err := c.loop.AddWriter(c.fd, c.write); err != nil {
					c.fail(err)
					return false
				}
				c.writerOn = true
			}
			if c.sending { // a handshake's writes are under its own timeout
				c.arm("write", c.pool.client.opts.WriteTimeout)
			}
			return false
		}
		if err != nil {
			c.fail(err)
			return false
		}
		c.sent += n
		c.lastIO = c.loop.TurnTime()
	}
	if c.writerOn {
		c.loop.RemoveWriter(c.fd)
		c.writerOn = false
	}
	return true
}

// onReadable is the connection's reader callback for its whole life. One
// read per call: if more is waiting, level-triggered readiness calls again.
func (c *conn) onReadable() {
	buf := c.pool.client.readBuf
	n, err := netpoll.Read(c.fd, buf)
	switch {
	case err == netpoll.ErrWouldBlock:
		return
	case c.tls == nil:
		c.received(buf, n, err)
	case err == nil && n == 0:
		c.tlsReceived(nil, io.EOF)
	default:
		c.tlsReceived(buf[:n], err)
	}
}

// received acts on what one read returned: n bytes of buf, or the end of
// the input (n == 0), or err.
func (c *conn) received(buf []byte, n int, err error) {
	switch {
	case c.draining:
		c.drain(buf, n, err)
		return
	case c.ex == nil:
		// Idle: EOF means the server closed the connection, which it may
		// do at any time; anything else is a server talking out of turn.
		c.close()
		return
	case err != nil:
		c.fail(err)
		return
	}
	c.lastIO = c.loop.TurnTime()
	if n == 0 {
		perr := c.parser.CloseInput()
		if c.parser.Done() {
			c.finish(false)
		} else {
			c.fail(perr)
		}
		return
	}
	// One read of the clock serves the first byte and, when the whole
	// response came in this read (a small page), its end too.
	at := c.ex.since()
	if c.ex.reply.Timings.FirstByte == 0 {
		c.ex.reply.Timings.FirstByte = at
	}
	used, perr := c.parser.Feed(buf[:n])
	if perr != nil {
		c.fail(perr)
		return
	}
	if c.headBy > 0 && c.parser.HeadDone() {
		c.headBy = 0
	}
	if ex := c.ex; c.parser.BodySkipped() && !ex.reply.BodySkipped {
		ex.reply.BodySkipped = true // the parser asked ex.wantBody when the head came
		if !c.parser.Done() {
			c.skipRest()
			return
		}
	}
	if c.parser.Done() {
		c.ex.reply.Timings.Done = at
		c.finish(used < n)
	}
}
