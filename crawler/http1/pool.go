package http1

import (
	"crypto/tls"
	"slices"
)

// hostPool holds the connections to one scheme, host and port. Idle connections are
// reused newest first (the oldest are the likeliest to have been closed by
// the server, and they time out first). When the host is at its cap,
// requests wait in FIFO order for a connection to come back.
type hostPool struct {
	client   *Client
	key      poolKey
	host     string // the Host header: name, and port if not the default
	hostname string
	port     int
	tls      *tls.Config // nil for http
	open     int         // connections open or being dialed
	idle     []*conn
	conns    map[*conn]struct{}
	waiters  []*exchange
}

// acquire finds ex a connection: an idle one, a new one, or a place in
// the queue.
func (p *hostPool) acquire(ex *exchange) {
	if n := len(p.idle); n > 0 {
		c := p.idle[n-1]
		p.idle = p.idle[:n-1]
		c.send(ex)
		return
	}
	if p.open < p.client.opts.MaxConnsPerHost {
		p.dialFor(ex)
		return
	}
	// One timer guards the wait: the pool timeout, or the exchange's
	// total deadline if that comes first.
	timeout := p.client.opts.PoolTimeout
	when := after(p.client.loop.TurnTime(), timeout)
	if ex.deadline <= when {
		ex.waiting = p.client.loop.CallAt(ex.deadline, func() { ex.fail(ex.totalTimeout()) })
	} else {
		ex.waiting = p.client.loop.CallAt(when, func() {
			ex.fail(&TimeoutError{Phase: "pool", After: timeout})
		})
	}
	p.waiters = append(p.waiters, ex)
}

// dialFor opens a connection for ex. If ex is gone by the time it is
// ready, the connection still serves the pool.
func (p *hostPool) dialFor(ex *exchange) {
	p.open++
	c := newConn(p)
	c.dial(ex)
}

// release takes back a connection whose exchange finished cleanly.
func (p *hostPool) release(c *conn) {
	if ex := p.nextWaiter(); ex != nil {
		c.send(ex)
		return
	}
	c.idleSince()
	p.idle = append(p.idle, c)
}

// nextWaiter pops the first queued exchange that is still pending.
func (p *hostPool) nextWaiter() *exchange {
	for len(p.waiters) > 0 {
		ex := p.waiters[0]
		p.waiters[0] = nil
		p.waiters = p.waiters[1:]
		if !ex.result.Done() {
			ex.waiting.Cancel()
			ex.waiting = nil
			return ex
		}
	}
	return nil
}

// closed forgets a connection that closed, and lets a waiter dial in its
// place. A pool left with no connection and no waiter is forgotten too: a
// crawler meets thousands of hosts once each, and their empty pools would
// otherwise stay for the life of the client (10.8 MB for 20 000 hosts,
// measured without this). Making a pool again costs one small allocation.
func (p *hostPool) closed(c *conn) {
	p.open--
	delete(p.conns, c)
	if i := slices.Index(p.idle, c); i >= 0 {
		p.idle = slices.Delete(p.idle, i, i+1)
	}
	if p.open < p.client.opts.MaxConnsPerHost {
		if ex := p.nextWaiter(); ex != nil {
			p.dialFor(ex)
		}
	}
	if p.open == 0 && len(p.waiters) == 0 && p.client.pools[p.key] == p {
		delete(p.client.pools, p.key)
	}
}

// dropIdle closes every idle connection.
func (p *hostPool) dropIdle() {
	for len(p.idle) > 0 {
		p.idle[len(p.idle)-1].close()
	}
}

// closeAll closes every connection and fails every waiter with err.
func (p *hostPool) closeAll(err error) {
	for _, ex := range p.waiters {
		ex.fail(err)
	}
	p.waiters = nil
	for c := range p.conns {
		if c.ex != nil {
			c.ex.fail(err)
		}
		c.close()
	}
}
