package http1

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net/netip"

	"loopkit/internal/printable"
	"loopkit/loop"
	"loopkit/netpoll"
)

// HTTPS is HTTP/1.1 inside TLS, and crypto/tls does the TLS. It has no
// memory-BIO API (OpenSSL's, Java's SSLEngine, Python's ssl.MemoryBIO that
// asyncio uses): it reads and writes a net.Conn. tlsbridge.go makes one
// out of two buffers the loop fills and empties, and the work is split in
// two:
//
//   - The handshake runs on a goroutine of its own, one per handshake,
//     through the loop's executor. crypto/tls's handshake is a blocking
//     function that reads, computes and writes in turns; the loop feeds
//     its reads and sends its writes. The goroutine is not only a
//     necessity: a handshake is the one expensive computation of a
//     connection (key exchange, signature checks, a certificate chain
//     built against the system's roots — a few hundred microseconds to a
//     few milliseconds of CPU), which must not stall the loop. It costs a
//     goroutine, with its stack, while the handshake lasts.
//   - After the handshake, records are read and written on the loop:
//     crypto/tls's Read and Write are called from the connection's
//     callbacks, and the bridge never makes them wait. Decrypting a record
//     takes microseconds, which the loop can afford.
//
// What an HTTPS connection costs beyond a plain one: crypto/tls's state
// and buffers, about 5 KiB per idle connection after small pages and 28
// KiB once it has read full-size records, for crypto/tls keeps its input
// buffer (BenchmarkIdleTLSConnectionBytes; a plain one costs 1 KiB); the
// bridge's copy of each byte between the socket and crypto/tls; and a
// handshake, whose X25519 key exchange dominates even when the session is
// resumed. A production client would use a TLS library with a memory BIO
// that lets go of idle buffers (BoringSSL, rustls) and need neither the
// copy nor the goroutine.

// maxHandshakeInput bounds what the loop buffers for a handshake that has
// not read it yet. A server's first flight is a few KiB (crypto/tls takes
// handshake messages up to 64 KiB); a peer sending more is not doing TLS.
const maxHandshakeInput = 256 << 10

// tlsLayer is a connection's TLS: crypto/tls over a bridge.
type tlsLayer struct {
	conn   *tls.Conn
	bridge *bridge
	ready  bool // the handshake is done: crypto/tls is called on the loop
}

// tlsConfig is the configuration of a host's connections: the client's,
// with the host's name for SNI and certificate checks.
func (c *Client) tlsConfig(t Target) *tls.Config {
	cfg := c.tlsBase.Clone()
	cfg.ServerName = t.Hostname
	if a, err := netip.ParseAddr(t.Hostname); err == nil {
		// An address is checked against the certificate's IP addresses,
		// and never sent as SNI (crypto/tls sees to both; RFC 6066 §3).
		// A zone means something only on this machine.
		cfg.ServerName = a.WithZone("").String()
	}
	return cfg
}

// startTLS starts the handshake on a connected socket; handshaken takes
// it from there.
func (c *conn) startTLS() {
	l, send := c.loop, c.sendHandshake
	b := newBridge(bridgeAddr(c.pool.hostname), func() { _ = l.CallSoonThreadsafe(send) })
	tc := tls.Client(b, c.pool.tls)
	c.tls = &tlsLayer{conn: tc, bridge: b}
	c.arm("handshake", c.pool.client.opts.HandshakeTimeout)
	// The context is the executor's, cancelled when the loop closes:
	// crypto/tls then closes the bridge, and the handshake returns. A
	// timeout closes the connection, and the bridge with it.
	hs := loop.RunInExecutor(l, func(ctx context.Context) (struct{}, error) {
		return struct{}{}, tc.HandshakeContext(ctx)
	})
	hs.OnDone(func() { c.handshaken(hs.Err()) })
}

// sendHandshake sends what the handshake wrote. The handshake's goroutine
// asks for it through CallSoonThreadsafe.
func (c *conn) sendHandshake() {
	if !c.closed {
		c.queue(c.tls.bridge.take())
		c.flush()
	}
}

func (c *conn) handshaken(err error) {
	if c.closed {
		return // closed meanwhile, which is what ended the handshake
	}
	if err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			err = errorf(ErrTruncated, "connection closed during the handshake")
		}
		c.fail(&TLSError{Host: c.pool.host, Err: err})
		return
	}
	c.tls.ready = true
	c.tls.bridge.handshakeDone()
	c.ex.reply.Timings.TLS = c.ex.since()
	c.readTLS() // what came after the handshake's last message: a session ticket
	if !c.closed {
		c.send(c.ex)
	}
}

// tlsReceived hands the bridge what one socket read returned, and reads on
// once the handshake is done. The end of the input is read only once: a
// socket at EOF stays readable, and the handshake may not be done with it.
func (c *conn) tlsReceived(data []byte, err error) {
	c.tls.bridge.feed(data, err)
	if err != nil {
		c.loop.RemoveReader(c.fd)
	}
	if !c.tls.ready {
		if c.tls.bridge.buffered() > maxHandshakeInput {
			c.fail(&TLSError{Host: c.pool.host, Err: errorf(ErrProtocol, "more than %d bytes before the handshake ended", maxHandshakeInput)})
		}
		return
	}
	if len(data) > 0 {
		c.lastIO = c.loop.TurnTime()
	}
	c.readTLS()
}

// readTLS hands the parser whatever crypto/tls can decrypt from what the
// bridge holds, a record at a time, until it needs more.
func (c *conn) readTLS() {
	plain := c.pool.client.plainBuf()
	for !c.closed {
		n, err := c.tls.conn.Read(plain)
		if out := c.tls.bridge.take(); len(out) > 0 {
			c.queue(out) // a reply to a post-handshake message (a KeyUpdate)
			c.flush()
		}
		switch {
		case err == nil:
			c.received(plain, n, nil)
			continue
		case err == errWouldBlock:
			return
		case n > 0: // data, then a close_notify
			c.received(plain, n, nil)
			if c.closed {
				return
			}
		}
		switch {
		case err == io.EOF && c.tls.bridge.sawEOF() && c.ex != nil && c.parser.ReadsUntilClose():
			// RFC 9112 §9.8: without a close_notify, a close may be an
			// attacker cutting the body short; only a body whose length
			// was known can be judged complete.
			err = errorf(ErrTruncated, "connection closed without a TLS close_notify, in a body that ends with the connection")
		case err == io.EOF:
			err = nil // the end: received judges what it cut short
		case err == io.ErrUnexpectedEOF:
			err = errorf(ErrTruncated, "connection closed inside a TLS record")
		}
		c.received(plain, 0, err)
		return
	}
}

// settled reports whether a connection whose response has just ended
// holds nothing more, so that it may carry another request. On plain
// HTTP the parser sees each read whole and says what was left over. Over
// TLS it sees one record at a time, and the rest of the read waits in the
// bridge and in crypto/tls. So it is decrypted now, before the connection
// is handed on: everything read from the socket must be accounted for.
// Data no request asked for closes the connection, as extra bytes do on
// plain HTTP — handed on, a server's reply sent out of turn would be read
// as the next request's. So do an alert, and a record that has only
// partly arrived, which cannot be judged yet. Records that carry no data
// (a TLS 1.3 session ticket) are read and change nothing; what crypto/tls
// writes in reply (a KeyUpdate's) goes out ahead of the next request.
func (c *conn) settled() bool {
	if c.tls == nil {
		return true
	}
	n, err := c.tls.conn.Read(c.pool.client.plainBuf())
	return n == 0 && err == errWouldBlock && c.tls.bridge.wholeRecords()
}

// seal encrypts a request head, and returns what to send for it.
func (c *conn) seal(head []byte) ([]byte, error) {
	if _, err := c.tls.conn.Write(head); err != nil {
		return nil, err
	}
	return c.tls.bridge.take(), nil
}

// closeTLS says goodbye as RFC 8446 §6.1 asks, with a close_notify alert,
// if the socket takes it at once and nothing else is half sent; and ends
// the bridge, so that a handshake still running stops.
func (c *conn) closeTLS() {
	if c.tls.ready && c.fd >= 0 && c.sent == len(c.out) {
		_ = c.tls.conn.CloseWrite()
		_, _ = netpoll.Write(c.fd, c.tls.bridge.take())
	}
	c.tls.bridge.Close()
}

// plainBuf is the client's buffer for decrypted bytes, shared like readBuf
// (whose bytes the bridge may still hold while crypto/tls decrypts).
func (c *Client) plainBuf() []byte {
	if c.plain == nil {
		c.plain = make([]byte, 16<<10) // a TLS record's plaintext at most
	}
	return c.plain
}

// TLSError is a TLS handshake that failed, and with which host.
type TLSError struct {
	Host string // as in the URL: a name or an address, and the port if not 443
	Err  error
}

// Error says which host, and why as crypto/tls and crypto/x509 put it —
// escaped, since their words quote the server's certificate ("valid for
// <its names>"), which may hold any bytes the server chose.
func (e *TLSError) Error() string {
	return "http1: TLS handshake with " + e.Host + ": " + printable.Escape(e.Err.Error())
}

func (e *TLSError) Unwrap() error { return e.Err }

// Certificate reports whether the server's certificate was refused: an
// unknown authority, another host's name, expired. Asking again will not
// help, unlike a handshake cut short.
func (e *TLSError) Certificate() bool {
	var v *tls.CertificateVerificationError
	return errors.As(e.Err, &v)
}
