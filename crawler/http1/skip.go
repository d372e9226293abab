package http1

// maxDrain is the most body a connection reads and drops to stay usable
// when its exchange did not want the body. Reading a few KiB costs less
// than a new connection's handshake; reading megabytes costs more, and
// then the connection is closed instead.
const maxDrain = 64 << 10

// skipRest answers the exchange with the head alone, before its body has
// arrived, then either drains the rest (short, with a known length) so the
// connection can go back to the pool, or closes the connection.
func (c *conn) skipRest() {
	ex := c.ex
	c.ex = nil
	reused := c.uses > 0
	c.uses++
	rest := c.parser.BodyRemaining()
	if rest >= 0 && rest <= maxDrain && c.sent == len(c.out) && !c.pool.client.closed {
		c.parser.DiscardBody()
		c.draining = true // the read timeout still guards it
	} else {
		c.close()
	}
	head := *c.parser.Head() // a copy: the parser goes on with the original
	ex.succeed(&head, reused, false)
}

// drain reads what is left of a skipped body; when it ends, the connection
// is idle again. Anything going wrong just closes it: nobody waits on it.
func (c *conn) drain(buf []byte, n int, err error) {
	if err != nil || n == 0 {
		c.close()
		return
	}
	c.lastIO = c.loop.TurnTime()
	used, perr := c.parser.Feed(buf[:n])
	switch {
	case perr != nil:
		c.close()
	case c.parser.Done():
		c.draining = false
		if resp := c.parser.Response(); resp.Close || used < n || c.pool.client.closed || !c.settled() {
			c.close()
		} else {
			c.pool.release(c)
		}
	}
}
