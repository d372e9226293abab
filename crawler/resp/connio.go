package resp

import "loopkit/netpoll"

// A connection's I/O: what the loop calls when its socket can be read or
// written.

// scheduleFlush makes sure what is in out is written soon. Not now: the
// write waits for the loop's next turn, so that every command given
// during this turn — by any number of tasks and callbacks — leaves in one
// write system call. This is where pipelining comes from.
func (cn *conn) scheduleFlush() {
	if cn.flushQueued || cn.writerOn || cn.sent == len(cn.out) {
		return // a flush is coming, or the socket is full and the loop will call flush when it has room
	}
	cn.flushQueued = true
	cn.client.loop.CallSoon(cn.flushFn)
}

// flush writes out as far as the socket takes it; if the socket is full,
// the loop calls it again when there is room.
func (cn *conn) flush() {
	cn.flushQueued = false
	if cn.closed {
		return
	}
	for cn.sent < len(cn.out) {
		n, err := netpoll.Write(cn.fd, cn.out[cn.sent:])
		if err == netpoll.ErrWouldBlock {
			if !cn.writerOn {
				if err := cn.client.loop.AddWriter(cn.fd, cn.flushFn); err != nil {
					cn.lost(err)
					return
				}
				cn.writerOn = true
			}
			return
		}
		if err != nil {
			cn.lost(err)
			return
		}
		cn.sent += n
	}
	if cn.writerOn {
		cn.client.loop.RemoveWriter(cn.fd)
		cn.writerOn = false
	}
	// All written: the buffer is reused for the next batch, unless a big
	// batch grew it (a connection must not keep 10 MiB for one large SET).
	cn.out, cn.sent = cn.out[:0], 0
	if cap(cn.out) > 1<<20 {
		cn.out = nil
	}
}

// onReadable is the connection's reader callback for its whole life. One
// read per call: if more is waiting, level-triggered readiness calls
// again. One read may hold many replies, and the last may be cut short;
// the parser keeps that part for the next read.
func (cn *conn) onReadable() {
	buf := cn.client.readBuf
	n, err := netpoll.Read(cn.fd, buf)
	switch {
	case err == netpoll.ErrWouldBlock:
		return
	case err != nil:
		cn.lost(err)
		return
	case n == 0:
		if err := cn.parser.CloseInput(); err != nil {
			cn.lost(err)
		} else {
			cn.lost(errServerClosed)
		}
		return
	}
	b := buf[:n]
	for len(b) > 0 {
		used, err := cn.parser.Feed(b)
		if err != nil {
			cn.lost(err)
			return
		}
		b = b[used:]
		if !cn.parser.Done() {
			return // the rest of the reply is in a later read
		}
		v := cn.parser.Reply()
		cn.parser.Reset()
		if !cn.deliver(v) {
			return
		}
	}
}
