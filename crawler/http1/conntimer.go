package http1

import (
	"math"
	"time"
)

// A connection has one timer, whose meaning follows its state: the phase
// it guards ("write", "read", "idle", ...) and that phase's limit. Progress
// within a phase only moves lastIO; the timer checks it when it fires and
// re-arms itself, so a read costs no timer operation.
//
// Two deadlines run across phases, and the same timer guards them. The
// header timeout: a read timeout is the longest silence between two
// reads, which a server sending its head a byte at a time never breaks;
// headBy, set when the request has been written, bounds the time to the
// end of the head itself. And the total timeout of the exchange the
// connection carries, ex.deadline, from dialling to the last byte.
//
// Every time here is the loop's TurnTime, read once per turn for every
// connection, not Time, which would read the clock at every step of
// every request: a timeout does not care about the microseconds of a
// turn. (A request's Timings, which are measurements, read the clock.)
//
// On a keep-alive connection the timer is armed once and then mostly
// left alone: the next request's deadlines are later than the one it is
// set for, so it fires early, finds progress, and sets itself again. A
// request costs no timer operation at all.

// never is a deadline that does not come.
const never = time.Duration(math.MaxInt64)

// after is the deadline d after t, both on the loop's clock. A timeout
// too large for the clock (an option set to "as long as possible") means
// never: the sum would wrap round into the past, and fire at once.
func after(t, d time.Duration) time.Duration {
	if s := t + d; s >= t {
		return s
	}
	return never
}

// arm makes the timer guard phase with the given timeout, counted from now.
func (c *conn) arm(phase string, limit time.Duration) {
	c.phase, c.limit, c.lastIO = phase, limit, c.loop.TurnTime()
	c.rearm()
}

// rearm makes sure the timer fires no later than the nearest deadline. A
// timer set for later is replaced; one set for earlier is kept.
func (c *conn) rearm() {
	deadline := c.deadline()
	if c.timer != nil && c.timer.When() > deadline {
		c.timer.Cancel()
		c.timer = nil
	}
	if c.timer == nil && deadline != never {
		c.timer = c.loop.CallAt(deadline, c.onTimerFn)
	}
}

// deadline is the nearest deadline: the phase's (unless progress is
// made), the head's, the exchange's total.
func (c *conn) deadline() time.Duration {
	d := never
	if c.phase != "" {
		d = after(c.lastIO, c.limit)
	}
	if c.headBy > 0 && c.headBy < d {
		d = c.headBy
	}
	if c.ex != nil && c.ex.deadline < d {
		d = c.ex.deadline
	}
	return d
}

// awaitHead starts the header timeout, once the request is written.
func (c *conn) awaitHead() {
	c.headBy = after(c.loop.TurnTime(), c.pool.client.opts.HeaderTimeout)
}

func (c *conn) onTimer() {
	c.timer = nil
	if c.closed {
		return
	}
	now := c.loop.TurnTime()
	deadline := c.deadline()
	if now < deadline {
		if deadline != never {
			c.timer = c.loop.CallAt(deadline, c.onTimerFn)
		}
		return
	}
	ex, err := c.ex, c.expired(now)
	c.close()
	if ex != nil {
		ex.conn = nil
		ex.fail(err)
	}
}

// expired says which deadline has passed, now that one has. The total
// deadline first, when it came no later than the others: the request as a
// whole is over. Then, a server silent for the read timeout is a read
// timeout, even if the head's deadline has come too; one that talked, too
// slowly, is not.
func (c *conn) expired(now time.Duration) error {
	phaseEnd := never
	if c.phase != "" {
		phaseEnd = after(c.lastIO, c.limit)
	}
	if c.ex != nil && c.ex.deadline <= phaseEnd && (c.headBy == 0 || c.ex.deadline <= c.headBy) {
		return c.ex.totalTimeout()
	}
	if c.headBy > 0 && now < phaseEnd {
		return &TimeoutError{Phase: "header", After: c.pool.client.opts.HeaderTimeout}
	}
	return &TimeoutError{Phase: c.phase, After: c.limit}
}

// idleSince starts the idle timeout.
func (c *conn) idleSince() {
	c.headBy = 0
	c.arm("idle", c.pool.client.opts.IdleTimeout)
}
