//go:build solution

package echo

import (
	"errors"
	"net/netip"

	"loopkit/loop"
	"loopkit/netpoll"
)

// Server is an echo server on one loop.
type Server struct {
	loop  *loop.Loop
	fd    int
	addr  netip.AddrPort
	conns map[*conn]struct{}
}

// conn is one client. out holds what was read and not yet echoed; while
// it is not empty the server waits for room to write, and does not read.
type conn struct {
	server *Server
	fd     int
	buf    []byte
	out    []byte
	eof    bool // the client has closed its side
}

// Listen starts an echo server on ap (such as 127.0.0.1:0) and returns
// once it is listening. The loop serves it while it runs.
func Listen(l *loop.Loop, ap netip.AddrPort) (*Server, error) {
	fd, addr, err := netpoll.Listen(ap, 128)
	if err != nil {
		return nil, err
	}
	s := &Server{loop: l, fd: fd, addr: addr, conns: make(map[*conn]struct{})}
	if err := l.AddReader(fd, s.accept); err != nil {
		netpoll.Close(fd)
		return nil, err
	}
	return s, nil
}

// Addr is the address the server listens on.
func (s *Server) Addr() netip.AddrPort { return s.addr }

// accept takes every connection waiting. It returns on ErrWouldBlock, and
// also on any other error (too many open files, say): readiness is
// level-triggered, so the loop calls it again while connections wait.
func (s *Server) accept() {
	for {
		fd, _, err := netpoll.Accept(s.fd)
		if err != nil {
			return
		}
		c := &conn{server: s, fd: fd, buf: make([]byte, 16<<10)}
		s.conns[c] = struct{}{}
		if err := s.loop.AddReader(fd, c.readable); err != nil {
			c.close()
		}
	}
}

// readable reads what the client sent and echoes it.
func (c *conn) readable() {
	n, err := netpoll.Read(c.fd, c.buf)
	switch {
	case err == netpoll.ErrWouldBlock:
		return
	case err != nil:
		c.close()
		return
	case n == 0:
		c.eof = true
		c.server.loop.RemoveReader(c.fd)
	}
	c.out = append(c.out, c.buf[:n]...)
	c.flush()
}

// flush writes what it can of out. With some left over it stops reading
// and waits for room; with nothing left it reads again (or, after EOF,
// closes: everything has been echoed).
func (c *conn) flush() {
	for len(c.out) > 0 {
		n, err := netpoll.Write(c.fd, c.out)
		if err == netpoll.ErrWouldBlock {
			c.server.loop.RemoveReader(c.fd) // backpressure
			if err := c.server.loop.AddWriter(c.fd, c.flush); err != nil {
				c.close()
			}
			return
		}
		if err != nil {
			c.close()
			return
		}
		c.out = c.out[n:]
	}
	c.out = c.out[:0:0] // let a large buffer go
	c.server.loop.RemoveWriter(c.fd)
	if c.eof {
		c.close()
		return
	}
	if err := c.server.loop.AddReader(c.fd, c.readable); err != nil {
		c.close()
	}
}

func (c *conn) close() {
	c.server.loop.RemoveReader(c.fd)
	c.server.loop.RemoveWriter(c.fd)
	netpoll.Close(c.fd)
	delete(c.server.conns, c)
}

// Close stops listening and closes every connection. Call it on the loop.
func (s *Server) Close() error {
	for c := range s.conns {
		c.close()
	}
	if s.fd < 0 {
		return errors.New("echo: server already closed")
	}
	s.loop.RemoveReader(s.fd)
	err := netpoll.Close(s.fd)
	s.fd = -1
	return err
}
