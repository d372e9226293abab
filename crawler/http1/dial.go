package http1

import (
	"net/netip"
	"slices"
	"time"

	"loopkit/future"
	"loopkit/loop"
)

// connectAttemptDelay is RFC 8305's Connection Attempt Delay: how long one
// address has to connect before the next is tried beside it.
const connectAttemptDelay = 250 * time.Millisecond

// dialer connects to one of a host's addresses the way browsers do, after
// RFC 8305 ("Happy Eyeballs v2"), simplified: addresses are tried in the
// resolver's order with IPv6 and IPv4 interleaved; the next one starts
// when the last fails or after connectAttemptDelay, whichever comes
// first, while the earlier ones go on; each has ConnectTimeout; the first
// to connect wins and the others are cancelled, or closed if they
// connected too. So an unreachable first address costs 250 ms, not a
// connect timeout, and a host whose IPv6 is broken still opens at once.
//
// What is left out of RFC 8305: asking for AAAA and A records separately
// and starting on the first answer (the system resolver gives both at
// once), sorting by past round-trip times, and preferring addresses that
// worked before.
type dialer struct {
	c        *conn
	addrs    []netip.Addr
	next     int        // the next address to try
	tries    []*attempt // attempts in flight
	stagger  *loop.Timer
	lastErr  error
	finished bool // a winner was found, or the connection closed
}

type attempt struct {
	connecting *future.Future[int]
	timer      *loop.Timer // its connect timeout
	timedOut   bool
}

func newDialer(c *conn, addrs []netip.Addr) *dialer {
	return &dialer{c: c, addrs: interleave(addrs)}
}

// start tries the first address. The connection hears of the result
// through connected or fail.
func (d *dialer) start() { d.tryNext() }

// tryNext starts an attempt on the next address, and reports false if
// there is none.
func (d *dialer) tryNext() bool {
	if d.next == len(d.addrs) {
		return false
	}
	client := d.c.pool.client
	ap := netip.AddrPortFrom(d.addrs[d.next], uint16(d.c.pool.port))
	d.next++
	a := &attempt{connecting: client.connect(ap)}
	timeout := client.opts.ConnectTimeout
	a.timer = client.loop.CallLater(timeout, func() {
		a.timedOut = true
		d.lastErr = &TimeoutError{Phase: "connect", After: timeout}
		a.connecting.Cancel() // its OnDone below moves on
	})
	d.tries = append(d.tries, a)
	a.connecting.OnDone(func() { d.ended(a) })
	if d.stagger != nil {
		d.stagger.Cancel()
		d.stagger = nil
	}
	if d.next < len(d.addrs) {
		d.stagger = client.loop.CallLater(client.attemptDelay, func() {
			d.stagger = nil
			d.tryNext()
		})
	}
	return true
}

// ended is called when attempt a is over: connected, failed, timed out or
// cancelled.
func (d *dialer) ended(a *attempt) {
	a.timer.Cancel()
	d.tries = slices.DeleteFunc(d.tries, func(b *attempt) bool { return b == a })
	fd, err := a.connecting.Result()
	switch {
	case err == nil && d.finished:
		// Connected too late: another attempt won, or the connection
		// closed meanwhile. RFC 8305 §5: close the losers.
		d.c.loop.SockClose(fd)
	case err == nil:
		d.win(fd)
	case d.finished:
	default:
		if !a.timedOut {
			d.lastErr = err
		}
		// A failure starts the next address at once, without waiting for
		// the attempt delay.
		if !d.tryNext() && len(d.tries) == 0 {
			d.finished = true
			d.c.fail(d.lastErr)
		}
	}
}

func (d *dialer) win(fd int) {
	d.stop()
	d.c.connected(fd)
}

// stop ends the dial: no attempt is started any more, and those in flight
// are cancelled (a cancelled connect closes its own socket).
func (d *dialer) stop() {
	d.finished = true
	if d.stagger != nil {
		d.stagger.Cancel()
		d.stagger = nil
	}
	for _, a := range d.tries {
		a.timer.Cancel()
		a.connecting.Cancel()
	}
}

// interleave orders addresses as RFC 8305 §4 says: the resolver's order
// within each family, alternating between families, starting with the
// family of the resolver's first choice. [v6a v6b v4a v4b] becomes
// [v6a v4a v6b v4b]: if one family is broken, the second attempt already
// uses the other.
func interleave(addrs []netip.Addr) []netip.Addr {
	if len(addrs) < 2 {
		return addrs
	}
	first := addrs[0].Is6()
	var same, other []netip.Addr
	for _, a := range addrs {
		if a.Is6() == first {
			same = append(same, a)
		} else {
			other = append(other, a)
		}
	}
	out := make([]netip.Addr, 0, len(addrs))
	for i := 0; i < len(same) || i < len(other); i++ {
		if i < len(same) {
			out = append(out, same[i])
		}
		if i < len(other) {
			out = append(out, other[i])
		}
	}
	return out
}
