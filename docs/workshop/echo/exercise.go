package echo

import (
	"errors"
	"net/netip"

	"loopkit/loop"
)

// Server is an echo server on one loop.
type Server struct {
	// TODO: the loop, the listening fd, its address, and the open
	// connections (each with its fd, a read buffer and what is still to
	// be echoed).
}

// Listen starts an echo server on ap (such as 127.0.0.1:0) and returns
// once it is listening. The loop serves it while it runs.
func Listen(l *loop.Loop, ap netip.AddrPort) (*Server, error) {
	// TODO: netpoll.Listen, then l.AddReader on the listening fd with a
	// callback that accepts every waiting connection.
	return nil, errors.New("echo: Listen is not written yet")
}

// Addr is the address the server listens on.
func (s *Server) Addr() netip.AddrPort {
	return netip.AddrPort{} // TODO
}

// Close stops listening and closes every connection. Call it on the loop.
func (s *Server) Close() error {
	return nil // TODO
}
