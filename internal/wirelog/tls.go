package wirelog

import (
	"bufio"
	"crypto/tls"
	"net"
	"net/http"
	"sync"
	"time"

	"loopkit/internal/testca"
)

// CA is the certificate authority that signs the server's https hosts'
// certificates: a client trusts them only if told to trust it (its PEM,
// or a file from CA().WriteFile, is what a crawl's --ca reads).
func (s *Server) CA() *testca.CA {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ca == nil {
		s.ca = testca.New(s.t)
	}
	return s.ca
}

// tlsConfig is the hosts' TLS: a certificate for 127.0.0.1, ::1 and
// localhost, and ALPN offering HTTP/2 before HTTP/1.1, as most servers
// do (the server speaks HTTP/1.1 whatever is agreed: net/http serves
// HTTP/2 only when set up for it).
func (s *Server) tlsConfig() *tls.Config { return s.CA().ServerConfig(s.t) }

// HostTLS is Host over https: it returns "https://127.0.0.1:PORT".
func (s *Server) HostTLS(name string, h http.Handler) string {
	return "https://" + s.serve(name, tls.NewListener(s.listen(), s.tlsConfig()), h)
}

// HostDual is one host speaking http and https on one port, as a server
// with both on their default ports is one server to a polite crawler: a
// connection whose first byte starts a TLS handshake gets TLS. It returns
// the two base URLs, which differ only in their scheme.
func (s *Server) HostDual(name string, h http.Handler) (httpBase, httpsBase string) {
	ln := &dualListener{Listener: s.listen(), tls: s.tlsConfig(), conns: make(chan net.Conn), done: make(chan struct{})}
	go ln.sort()
	addr := s.serve(name, ln, h)
	return "http://" + addr, "https://" + addr
}

// dualListener hands net/http each accepted connection as it is, or as a
// TLS server connection when its first byte is a handshake record's
// (0x16). The first byte is read on a goroutine per connection, so a
// client slow to speak holds up no other.
type dualListener struct {
	net.Listener
	tls   *tls.Config
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func (l *dualListener) sort() {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return
		}
		go func() {
			r := bufio.NewReader(c)
			c.SetReadDeadline(time.Now().Add(10 * time.Second))
			first, err := r.Peek(1)
			c.SetReadDeadline(time.Time{})
			if err != nil {
				c.Close()
				return
			}
			var conn net.Conn = &peekedConn{Conn: c, r: r}
			if first[0] == 0x16 {
				conn = tls.Server(conn, l.tls)
			}
			select {
			case l.conns <- conn:
			case <-l.done:
				c.Close()
			}
		}()
	}
}

func (l *dualListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *dualListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// peekedConn reads what its reader peeked before the rest.
type peekedConn struct {
	net.Conn
	r *bufio.Reader
}

func (c *peekedConn) Read(p []byte) (int, error) { return c.r.Read(p) }

// HostTLSSlow is HostTLS with every TLS handshake held back by wait on
// the server's side: from the client's side, each new connection is slow
// to open, as over a long path. It shows whether a client's politeness
// counts from when a request is handed to a connection or from when it is
// sent.
func (s *Server) HostTLSSlow(name string, h http.Handler, wait time.Duration) string {
	return "https://" + s.serve(name, tls.NewListener(&slowListener{Listener: s.listen(), wait: wait}, s.tlsConfig()), h)
}

// slowListener's connections wait before their first read, on the
// connection's own goroutine (net/http handshakes there), so one slow
// connection holds up no other.
type slowListener struct {
	net.Listener
	wait time.Duration
}

func (l *slowListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &slowConn{Conn: c, wait: l.wait}, nil
}

type slowConn struct {
	net.Conn
	wait  time.Duration
	begun bool
}

func (c *slowConn) Read(p []byte) (int, error) {
	if !c.begun {
		c.begun = true
		time.Sleep(c.wait)
	}
	return c.Conn.Read(p)
}
