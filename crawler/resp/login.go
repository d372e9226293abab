package resp

import "strconv"

// handshakeStep is a command the connection sends for itself before any
// of the caller's, and the reply that says it worked.
type handshakeStep struct {
	what   string // "AUTH", "SELECT 2", ...: for the error if it fails
	expect string // "OK", "PONG", or a loaded script's SHA1
}

// connected logs in on a new socket: the handshake's commands go out
// first, alone, and the caller's follow only once they all succeeded. Not
// pipelined behind them, because if SELECT failed, commands already sent
// after it would run in the wrong database.
func (cn *conn) connected(fd int) {
	c := cn.client
	cn.fd = fd
	if err := c.loop.AddReader(fd, cn.readFn); err != nil {
		cn.lost(err)
		return
	}
	u := c.url
	step := func(what, expect string, args ...any) {
		cn.out, _ = AppendCommand(cn.out, args...) // strings only: cannot fail
		cn.handshake = append(cn.handshake, handshakeStep{what, expect})
	}
	switch {
	case u.User != "":
		step("AUTH", "OK", "AUTH", u.User, u.Password)
	case u.Password != "":
		step("AUTH", "OK", "AUTH", u.Password)
	}
	if u.DB != 0 {
		step("SELECT "+strconv.Itoa(u.DB), "OK", "SELECT", strconv.Itoa(u.DB))
	}
	for _, s := range c.opts.Scripts {
		step("SCRIPT LOAD of script "+s.sha[:8], s.sha, "SCRIPT", "LOAD", s.src)
	}
	if len(cn.handshake) == 0 {
		// Nothing to log in with: a PING all the same, so that a
		// connection counts as up only once a Redis server has answered
		// on it (a server at its maxclients accepts, then hangs up).
		step("PING", "PONG", "PING")
	}
	cn.flush()
}

// ready is the end of the handshake: the commands that waited go out.
func (cn *conn) ready() {
	c := cn.client
	cn.up = true
	c.failures = 0
	c.stats.Connects++
	cn.out = append(cn.out, cn.queued...)
	cn.queued = nil
	for cn.waiting.len() > 0 {
		cn.pushPending(cn.waiting.pop())
	}
	cn.scheduleFlush()
	c.notify(ConnEvent{Up: true})
}
