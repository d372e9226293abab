package resp

import (
	"errors"
	"time"
)

var errServerClosed = errors.New("resp: the server closed the connection")

// A connection has one timer, whose meaning follows its state: until the
// connection is up it guards the connection attempt; once up, it guards
// the oldest reply awaited, if any. Progress only moves a deadline
// (awaitSince); the timer checks the deadline when it fires and sets
// itself again, so a reply costs no timer operation.

// deadline is when the connection times out, and for what; phase "" when
// nothing is awaited.
func (cn *conn) deadline() (time.Duration, string, time.Duration) {
	o := cn.client.opts
	switch {
	case !cn.up:
		return cn.connectBy, "connect", o.ConnectTimeout
	case cn.pending.len() > 0:
		return cn.awaitSince + o.ReplyTimeout, "reply", o.ReplyTimeout
	}
	return 0, "", 0
}

// armTimer makes sure the timer fires no later than the deadline.
func (cn *conn) armTimer() {
	when, phase, _ := cn.deadline()
	if phase == "" {
		return
	}
	if t := cn.timer; t != nil {
		if t.When() <= when {
			return // it fires first, and sets itself again then
		}
		t.Cancel()
	}
	cn.timer = cn.client.loop.CallAt(when, cn.timerFn)
}

func (cn *conn) onTimer() {
	cn.timer = nil
	if cn.closed {
		return
	}
	when, phase, after := cn.deadline()
	switch {
	case phase == "":
	case cn.client.loop.Time() < when:
		cn.timer = cn.client.loop.CallAt(when, cn.timerFn)
	default:
		cn.lost(&TimeoutError{Phase: phase, After: after})
	}
}

func (cn *conn) stopTimer() {
	if cn.timer != nil {
		cn.timer.Cancel()
		cn.timer = nil
	}
}
