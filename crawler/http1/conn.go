package http1

import (
	"time"

	"loopkit/loop"
	"loopkit/netpoll"
)

// conn is one keep-alive connection: a state machine driven by the loop's
// readiness callbacks. Its states are
//
//	dialing → writing → reading → idle → writing → … → closed
//
// with the current exchange in ex (nil while idle). A connection has a
// single reader callback for its whole life, so an idle connection notices
// at once when the server closes it, and one timer, whose meaning follows
// the state (write, read or idle timeout; the dialer has its own).
type conn struct {
	pool     *hostPool
	loop     *loop.Loop
	fd       int     // -1 until connected
	dialer   *dialer // while connecting
	parser   *Parser
	ex       *exchange
	uses     int // exchanges completed
	out      []byte
	sent     int
	writerOn bool
	timer    *loop.Timer
	phase    string        // what the timer guards: "write", "read", "idle"; "" for nothing
	limit    time.Duration // the phase's timeout
	lastIO   time.Duration // last progress; the deadline is lastIO + limit
	headBy   time.Duration // while a response head is awaited: its deadline (conntimer.go)
	draining bool          // reading a skipped body to its end, with no exchange
	closed   bool
}

func newConn(p *hostPool) *conn {
	c := &conn{pool: p, loop: p.client.loop, fd: -1, parser: NewParser("GET", p.client.opts.Limits)}
	p.conns[c] = struct{}{}
	return c
}

// dial resolves the host and connects (dial.go), then sends ex's request.
func (c *conn) dial(ex *exchange) {
	c.ex, ex.conn = ex, c
	lookup := c.pool.client.dns.resolve(c.pool.hostname)
	lookup.OnDone(func() {
		if c.closed {
			return
		}
		addrs, err := lookup.Result()
		if err != nil {
			c.fail(err)
			return
		}
		ex.timings.DNS = ex.since()
		c.dialer = newDialer(c, addrs)
		c.dialer.start()
	})
}

// connected takes the socket the dialer won.
func (c *conn) connected(fd int) {
	c.dialer = nil
	c.fd = fd
	if err := c.loop.AddReader(fd, c.onReadable); err != nil {
		c.fail(err)
		return
	}
	c.ex.timings.Connect = c.ex.since()
	c.send(c.ex)
}

// send starts ex's request on this (connected) connection.
func (c *conn) send(ex *exchange) {
	c.ex, ex.conn = ex, c
	c.parser.Reset(ex.method)
	if ex.maxBody > 0 || ex.truncate {
		c.parser.LimitBody(ex.maxBody, ex.truncate)
	}
	c.parser.WantBody(ex.wantBody)
	c.out, c.sent = ex.head, 0
	c.write()
}

// write sends what the socket takes; if it takes less than all, the loop
// calls write again when there is room.
func (c *conn) write() {
	for c.sent < len(c.out) {
		n, err := netpoll.Write(c.fd, c.out[c.sent:])
		if err == netpoll.ErrWouldBlock {
			if !c.writerOn {
				if err := c.loop.AddWriter(c.fd, c.write); err != nil {
					c.fail(err)
					return
				}
				c.writerOn = true
			}
			c.arm("write", c.pool.client.opts.WriteTimeout)
			return
		}
		if err != nil {
			c.fail(err)
			return
		}
		c.sent += n
		c.lastIO = c.loop.Time()
	}
	if c.writerOn {
		c.loop.RemoveWriter(c.fd)
		c.writerOn = false
	}
	c.ex.timings.Written = c.ex.since()
	c.awaitHead()
	c.arm("read", c.pool.client.opts.ReadTimeout)
}

// onReadable is the connection's reader callback for its whole life. One
// read per call: if more is waiting, level-triggered readiness calls again.
func (c *conn) onReadable() {
	buf := c.pool.client.readBuf
	n, err := netpoll.Read(c.fd, buf)
	switch {
	case err == netpoll.ErrWouldBlock:
		return
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
	c.lastIO = c.loop.Time()
	if n == 0 {
		perr := c.parser.CloseInput()
		if c.parser.Done() {
			c.finish(false)
		} else {
			c.fail(perr)
		}
		return
	}
	if c.ex.timings.FirstByte == 0 {
		c.ex.timings.FirstByte = c.ex.since()
	}
	used, perr := c.parser.Feed(buf[:n])
	if perr != nil {
		c.fail(perr)
		return
	}
	if c.headBy > 0 && c.parser.HeadDone() {
		c.headBy = 0
	}
	if ex := c.ex; c.parser.BodySkipped() && !ex.skipped {
		ex.skipped = true // the parser asked ex.wantBody when the head came
		if !c.parser.Done() {
			c.skipRest()
			return
		}
	}
	if c.parser.Done() {
		c.finish(used < n)
	}
}

// finish hands the response to its exchange and the connection back to
// the pool, unless it cannot carry another request.
func (c *conn) finish(extraBytes bool) {
	resp := c.parser.Response()
	ex := c.ex
	c.ex = nil
	reused := c.uses > 0
	c.uses++
	if c.writerOn {
		c.loop.RemoveWriter(c.fd)
		c.writerOn = false
	}
	// Extra bytes after the response, or a request the server answered
	// before reading all of it, leave the connection out of step.
	reusable := !resp.Close && !extraBytes && c.sent == len(c.out) && !c.pool.client.closed
	if reusable {
		c.pool.release(c)
	} else {
		c.close()
	}
	ex.succeed(resp, reused)
}

// fail closes the connection after an I/O or protocol error and tells the
// exchange, saying whether the failure looks like a stale keep-alive
// connection: reused, and dead before the first byte of a response.
func (c *conn) fail(err error) {
	ex := c.ex
	stale := c.uses > 0 && !c.parser.Started()
	c.close()
	if ex != nil {
		ex.connFailed(err, stale)
	}
}

// close releases the socket and tells the pool. It does not touch the
// exchange: each caller decides what the exchange learns.
func (c *conn) close() {
	if c.closed {
		return
	}
	c.closed = true
	c.phase = ""
	if c.timer != nil {
		c.timer.Cancel()
	}
	if c.dialer != nil {
		c.dialer.stop()
	}
	if c.fd >= 0 {
		c.loop.SockClose(c.fd)
	}
	c.ex = nil
	c.pool.closed(c)
}
