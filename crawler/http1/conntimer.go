package http1

import "time"

// A connection has one timer, whose meaning follows its state: the phase
// it guards ("write", "read", "idle", ...) and that phase's limit. Progress
// within a phase only moves lastIO; the timer checks it when it fires and
// re-arms itself, so a read costs no timer operation.
//
// One deadline runs across phases: the header timeout. A read timeout is
// the longest silence between two reads, which a server sending its head
// a byte at a time never breaks; headBy, set when the request has been
// written, bounds the time to the end of the head itself.

// arm makes the timer guard phase with the given timeout, counted from now.
func (c *conn) arm(phase string, limit time.Duration) {
	c.phase, c.limit, c.lastIO = phase, limit, c.loop.Time()
	deadline := c.deadline()
	if c.timer != nil && c.timer.When() > deadline {
		c.timer.Cancel()
		c.timer = nil
	}
	if c.timer == nil {
		c.timer = c.loop.CallAt(deadline, c.onTimer)
	}
}

// deadline is when the current phase times out, unless progress is made.
func (c *conn) deadline() time.Duration {
	d := c.lastIO + c.limit
	if c.headBy > 0 && c.headBy < d {
		d = c.headBy
	}
	return d
}

// awaitHead starts the header timeout, once the request is written.
func (c *conn) awaitHead() {
	c.headBy = c.loop.Time() + c.pool.client.opts.HeaderTimeout
}

func (c *conn) onTimer() {
	c.timer = nil
	if c.closed || c.phase == "" {
		return
	}
	now := c.loop.Time()
	if deadline := c.deadline(); now < deadline {
		c.timer = c.loop.CallAt(deadline, c.onTimer)
		return
	}
	// A server silent for the read timeout is a read timeout, even if the
	// head's deadline has come too; one that talked, too slowly, is not.
	ex, err := c.ex, &TimeoutError{Phase: c.phase, After: c.limit}
	if c.headBy > 0 && now < c.lastIO+c.limit {
		err = &TimeoutError{Phase: "header", After: c.pool.client.opts.HeaderTimeout}
	}
	c.close()
	if ex != nil {
		ex.conn = nil
		ex.fail(err)
	}
}

// idleSince starts the idle timeout.
func (c *conn) idleSince() {
	c.headBy = 0
	c.arm("idle", c.pool.client.opts.IdleTimeout)
}
