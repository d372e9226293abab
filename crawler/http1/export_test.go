package http1

import (
	"net/netip"
	"time"

	"loopkit/future"
)

// Hooks for the external tests (package http1_test), compiled into the
// test binary only.

// HostState says how many hosts the client keeps state for: pools, and
// entries in its DNS cache.
func (c *Client) HostState() (pools, dnsEntries int) {
	return len(c.pools), len(c.dns.entries)
}

// AnyConn returns one of the client's open connections (nil if none), for
// tests that watch what becomes of it.
func (c *Client) AnyConn() any {
	for _, p := range c.pools {
		for cn := range p.conns {
			return cn
		}
	}
	return nil
}

// TimerPending reports whether the timer of a connection from AnyConn
// would still fire. It cancels the timer if so.
func TimerPending(cn any) bool {
	c := cn.(*conn)
	return c.timer != nil && c.timer.Cancel()
}

// FakeDial makes the client resolve each name of hosts to its addresses
// without asking the system, open connections through connect (if not
// nil), and wait delay between connection attempts (if not negative).
func (c *Client) FakeDial(hosts map[string][]netip.Addr, connect func(netip.AddrPort) *future.Future[int], delay time.Duration) {
	for name, addrs := range hosts {
		f := future.New[[]netip.Addr](c.loop)
		f.SetResult(addrs)
		c.dns.entries[name] = &dnsEntry{lookup: f, expires: 1 << 62}
	}
	if connect != nil {
		c.connect = connect
	}
	if delay >= 0 {
		c.attemptDelay = delay
	}
}
