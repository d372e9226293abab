package http1

import (
	"slices"
	"time"

	"loopkit/loop"
)

// conn is one keep-alive connection: a state machine driven by the loop's
// readiness callbacks. Its states are
//
//	dialing → (handshaking) → writing → reading → idle → writing → … → closed
//
// with the current exchange in ex (nil while idle). A connection has a
// single reader callback for its whole life, so an idle connection notices
// at once when the server closes it, and one timer, whose meaning follows
// the state (handshake, write, read or idle timeout; the dialer has its
// own). Its I/O is in connio.go, its TLS in tls.go.
type conn struct {
	id       uint64 // the client's count of connections when this one opened
	pool     *hostPool
	loop     *loop.Loop
	fd       int     // -1 until connected
	dialer   *dialer // while connecting
	tls      *tlsLayer
	parser   *Parser
	ex       *exchange
	uses     int    // exchanges completed
	head     []byte // the request being sent, written here by send
	out      []byte // what to send: a request head, or TLS records
	sent     int    // how much of out is sent
	sending  bool   // out holds a request: once it is sent, the response is awaited
	writerOn bool
	timer    *loop.Timer
	phase    string        // what the timer guards: "handshake", "write", "read", "idle"; "" for nothing
	limit    time.Duration // the phase's timeout
	lastIO   time.Duration // last progress; the deadline is lastIO + limit
	headBy   time.Duration // while a response head is awaited: its deadline (conntimer.go)
	draining bool          // reading a skipped body to its end, with no exchange
	closed   bool

	// The connection's callbacks, made once, when it opens: a method
	// value is a closure, and making one for every arm of the timer or
	// every exchange carried would be an allocation each time.
	onTimerFn, exchangeDoneFn func()
}

func newConn(p *hostPool) *conn {
	p.client.conns++
	c := &conn{id: p.client.conns, pool: p, loop: p.client.loop, fd: -1, parser: NewParser("GET", p.client.opts.Limits)}
	c.onTimerFn, c.exchangeDoneFn = c.onTimer, c.exchangeDone
	p.conns[c] = struct{}{}
	return c
}

// carry makes ex the connection's exchange. The connection's timer now
// guards ex's total deadline too, and the connection hears when ex's
// future is done: if ex is still its exchange then, the caller cancelled
// it.
func (c *conn) carry(ex *exchange) {
	c.ex, ex.conn, ex.connID = ex, c, c.id
	ex.result.OnDone(c.exchangeDoneFn)
	c.rearm()
}

// exchangeDone runs when an exchange this connection carried is done.
// One that finished the usual way has left the connection already; one
// still on it was cancelled by its caller, mid-request — half a request
// written, or half a response read — and the connection is closed.
func (c *conn) exchangeDone() {
	if c.ex != nil && c.ex.result.Done() {
		c.close()
	}
}

// dial resolves the host and connects (dial.go), then sends ex's request.
func (c *conn) dial(ex *exchange) {
	c.carry(ex)
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
		ex.reply.Timings.DNS = ex.since()
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
	c.ex.reply.Timings.Connect = c.ex.since()
	if c.pool.tls != nil {
		c.startTLS()
		return
	}
	c.send(c.ex)
}

// send starts ex's request on this (connected) connection.
func (c *conn) send(ex *exchange) {
	if c.ex != ex { // a new connection dialled for ex carries it already
		c.carry(ex)
	}
	c.parser.Reset(ex.method)
	c.parser.Into(&ex.resp)
	if ex.maxBody > 0 || ex.truncate {
		c.parser.LimitBody(ex.maxBody, ex.truncate)
	}
	c.parser.WantBody(ex.wantBody)
	// The request's bytes go in the connection's own buffer, reused by
	// every request it carries: where a buffer per request would be an
	// allocation per request, this one grows only when a request is
	// longer than any before it on this connection. It is sized to fit,
	// not generously: ten thousand connections each keep one. The last
	// request on it was sent whole before this one came (finish closes a
	// connection that was not), so nothing still needs the old bytes.
	fields := c.pool.client.fields
	c.head = slices.Grow(c.head[:0], headSize(ex.method, ex.target, fields, ex.extra))
	c.head = appendHead(c.head, ex.method, ex.target, fields, ex.extra)
	head := c.head
	if c.tls != nil {
		var err error
		if head, err = c.seal(head); err != nil {
			c.fail(err)
			return
		}
	}
	c.queue(head)
	c.sending = true
	c.write()
}

// finish hands the response to its exchange and the connection back to
// the pool, unless it cannot carry another request.
func (c *conn) finish(extraBytes bool) {
	resp := c.parser.Response()
	c.parser.Reset("GET") // an idle connection keeps nothing of its last response
	ex := c.ex
	c.ex = nil
	reused := c.uses > 0
	c.uses++
	if c.writerOn {
		c.loop.RemoveWriter(c.fd)
		c.writerOn = false
	}
	// Extra bytes after the response (over TLS, in any record that came
	// with it: see settled), or a request the server answered before
	// reading all of it, leave the connection out of step.
	reusable := !resp.Close && !extraBytes && c.sent == len(c.out) && !c.pool.client.closed && c.settled()
	if reusable {
		c.pool.release(c)
	} else {
		c.close()
	}
	ex.succeed(resp, reused, true)
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
	if c.tls != nil {
		c.closeTLS()
	}
	if c.fd >= 0 {
		c.loop.SockClose(c.fd)
	}
	c.ex = nil
	c.pool.closed(c)
}
