package resp

import (
	"fmt"
	"math/rand/v2"
	"net/netip"
	"time"

	"loopkit/future"
	"loopkit/loop"
)

// call is a command waiting for its reply.
type call struct {
	f      *future.Future[Value]
	resend []byte // the command's bytes, kept when it may be sent again after a loss
	resent bool
}

// conn is one connection: a state machine driven by the loop's callbacks.
//
//	resolving → connecting → logging in → up → closed
//
// Until it is up, the caller's commands wait unsent in queued; once up,
// each command is appended to out at once and its call to pending. One
// reader callback serves the connection's whole life, and one timer whose
// meaning follows the state (conntimer.go). The client makes a new conn
// for every attempt, so a late callback of an old one finds it closed and
// does nothing.
type conn struct {
	client *Client
	fd     int // -1 until connected
	up     bool
	closed bool

	addrs      []netip.Addr // the host's addresses, tried in turn
	next       int
	connecting *future.Future[int]
	handshake  []handshakeStep // the steps whose replies are still to come

	parser  *Parser
	pending fifo[call] // sent, in order, awaiting their replies
	queued  []byte     // commands given before the connection was up
	waiting fifo[call] // their calls

	out         []byte // what to write; sent is how much of it is written
	sent        int
	flushQueued bool // a flush is scheduled for the loop's next turn
	writerOn    bool // the socket was full: the loop calls flush when it has room

	timer      *loop.Timer
	connectBy  time.Duration // the deadline of the connection attempt
	awaitSince time.Duration // since when the oldest pending reply is awaited

	// The callbacks, made once: a method value such as cn.flush allocates
	// a closure each time it is taken, and flush is scheduled for every
	// batch of commands.
	flushFn, timerFn, readFn func()
}

// connect starts a new connection attempt.
func (c *Client) connect() {
	cn := &conn{client: c, fd: -1, parser: NewParser(c.opts.Limits)}
	cn.flushFn, cn.timerFn, cn.readFn = cn.flush, cn.onTimer, cn.onReadable
	c.conn = cn
	cn.connectBy = c.loop.Time() + c.opts.ConnectTimeout
	cn.armTimer()
	// DNS runs in the loop's executor, off the loop (an IP address needs
	// no lookup, and completes at once).
	lookup := c.loop.Resolve(c.url.Host)
	lookup.OnDone(func() {
		if cn.closed {
			return
		}
		addrs, err := lookup.Result()
		if err != nil {
			cn.lost(err)
			return
		}
		cn.addrs = addrs
		cn.tryNext(nil)
	})
}

// tryNext connects to the next address, or gives up with lastErr.
func (cn *conn) tryNext(lastErr error) {
	c := cn.client
	if cn.next == len(cn.addrs) {
		cn.lost(lastErr)
		return
	}
	ap := netip.AddrPortFrom(cn.addrs[cn.next], uint16(c.url.Port))
	cn.next++
	f := c.loop.SockConnect(ap)
	cn.connecting = f
	f.OnDone(func() {
		cn.connecting = nil
		fd, err := f.Result()
		switch {
		case cn.closed && err == nil:
			c.loop.SockClose(fd) // connected too late: the attempt timed out
		case cn.closed:
		case err != nil:
			cn.tryNext(fmt.Errorf("connect to %s: %w", ap, err))
		default:
			cn.connected(fd)
		}
	})
}

// buffer is where a command given now is written.
func (cn *conn) buffer() *[]byte {
	if cn.up {
		return &cn.out
	}
	return &cn.queued
}

// add takes the call of a command just written to buffer().
func (cn *conn) add(cl call) {
	cn.client.stats.Commands++
	if !cn.up {
		cn.waiting.push(cl)
		return
	}
	cn.pushPending(cl)
	cn.scheduleFlush()
}

func (cn *conn) pushPending(cl call) {
	cn.pending.push(cl)
	if cn.pending.len() == 1 {
		cn.awaitSince = cn.client.loop.Time()
		cn.armTimer()
	}
}

// deliver hands a reply to the handshake step or the call it answers,
// and reports whether the connection is still open.
func (cn *conn) deliver(v Value) bool {
	c := cn.client
	if !cn.up {
		step := cn.handshake[0]
		cn.handshake = cn.handshake[1:]
		if v.Kind == KindError {
			cn.lost(fmt.Errorf("%s: %w", step.what, &Error{Msg: v.Str}))
			return false
		}
		if (v.Kind != KindSimple && v.Kind != KindBulk) || v.Str != step.expect {
			cn.lost(errorf(ErrProtocol, "%s answered %s", step.what, v))
			return false
		}
		if len(cn.handshake) == 0 {
			cn.ready()
		}
		return true
	}
	if cn.pending.len() == 0 {
		cn.lost(errorf(ErrProtocol, "a reply with no command waiting for it: %s", v))
		return false
	}
	cl := cn.pending.pop()
	if cn.pending.len() > 0 {
		cn.awaitSince = c.loop.Time()
	}
	c.stats.Replies++
	switch {
	case cl.f.Done():
		// Cancelled by its caller: the reply is dropped, and the
		// connection stays in step.
	case v.Kind == KindError:
		cl.f.SetError(&Error{Msg: v.Str})
	default:
		cl.f.SetResult(v)
	}
	return true
}

// lost ends the connection for cause, fails its commands, and arranges
// the next one: at once if this one was up (the server was fine a moment
// ago), after a backoff if it never came up.
func (cn *conn) lost(cause error) {
	if cn.closed {
		return
	}
	c := cn.client
	cn.close()
	if c.conn == cn {
		c.conn = nil
	}
	c.lastErr = cause
	again := cn.failCalls(fmt.Errorf("%s: %w", c.url.Addr(), cause))
	if cn.up {
		c.stats.Lost++
		c.connect()
		for _, cl := range again {
			cl.resent = true
			c.conn.queued = append(c.conn.queued, cl.resend...)
			c.conn.waiting.push(cl)
		}
		c.notify(ConnEvent{Err: cause})
		return
	}
	c.stats.FailedAttempts++
	c.failures++
	d := c.backoff()
	c.retryAt = c.loop.Time() + d
	c.retry = c.loop.CallLater(d, c.retryNow)
	c.notify(ConnEvent{Err: cause, RetryIn: d})
}

// failCalls fails the calls sent on the connection with ErrConnectionLost
// and those that waited for it with ErrNotConnected (unless they were sent
// on an earlier one), each wrapping cause; it returns instead the sent
// ones that may be sent once more.
func (cn *conn) failCalls(cause error) (again []call) {
	lost := fmt.Errorf("%w: %w", ErrConnectionLost, cause)
	cn.pending.drain(func(cl call) {
		switch {
		case cl.f.Done():
		case cl.resend != nil && !cl.resent:
			again = append(again, cl)
		default:
			cl.f.SetError(lost)
		}
	})
	notSent := fmt.Errorf("%w: %w", ErrNotConnected, cause)
	cn.waiting.drain(func(cl call) {
		switch {
		case cl.f.Done():
		case cl.resent: // waiting to be sent again, but it was sent once
			cl.f.SetError(lost)
		default:
			cl.f.SetError(notSent)
		}
	})
	cn.queued = nil
	return again
}

// close releases the socket and the timer. Each caller decides what the
// commands learn.
func (cn *conn) close() {
	if cn.closed {
		return
	}
	cn.closed = true
	cn.stopTimer()
	if cn.connecting != nil {
		cn.connecting.Cancel() // a cancelled connect closes its own socket
	}
	if cn.fd >= 0 {
		cn.client.loop.SockClose(cn.fd) // removes the reader and the writer too
		cn.fd = -1
	}
}

func (c *Client) retryNow() {
	c.retry = nil
	if !c.closed && c.conn == nil {
		c.connect()
	}
}

// backoff is the wait before the next attempt: MinBackoff doubled for
// each failure in a row after the first, at most MaxBackoff, times a
// random factor from 0.5 to 1 ("equal jitter").
func (c *Client) backoff() time.Duration {
	d := c.opts.MinBackoff
	for i := 1; i < c.failures && d < c.opts.MaxBackoff; i++ {
		if d > c.opts.MaxBackoff/2 {
			// Doubling would pass the cap, and with a cap near the
			// clock's end wrap round to a negative wait.
			d = c.opts.MaxBackoff
			break
		}
		d *= 2
	}
	return d/2 + rand.N(d/2+1)
}

func (c *Client) notify(ev ConnEvent) {
	if c.opts.OnConnEvent != nil {
		c.opts.OnConnEvent(ev)
	}
}
