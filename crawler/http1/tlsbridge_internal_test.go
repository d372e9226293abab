package http1

import (
	"crypto/tls"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"loopkit/internal/testca"
)

// The TLS bridge rests on two behaviours of crypto/tls that its API does
// not promise in so many words. These tests pin them on the Go version
// that runs them, so an upgrade that changes them fails here first.

// tlsPair is a client and a server crypto/tls connection, each over a
// bridge. During the handshake each side's writes go straight into the
// other's input; after it, the test carries the bytes by hand.
func tlsPair(t *testing.T) (client, server *tls.Conn, cb, sb *bridge) {
	ca := testca.New(t)
	var c, s *bridge
	c = newBridge(bridgeAddr("server"), func() { s.feed(c.take(), nil) })
	s = newBridge(bridgeAddr("client"), func() { c.feed(s.take(), nil) })
	client = tls.Client(c, &tls.Config{RootCAs: ca.Pool(), ServerName: "localhost"})
	server = tls.Server(s, ca.ServerConfig(t, "localhost"))
	errs := make(chan error, 2)
	go func() { errs <- client.Handshake() }()
	go func() { errs <- server.Handshake() }()
	for range 2 {
		select {
		case err := <-errs:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("handshake hung")
		}
	}
	c.handshakeDone()
	s.handshakeDone()
	return client, server, c, s
}

// After the handshake, the loop calls crypto/tls's Read with whatever has
// arrived, often half a record. The bridge then says errWouldBlock, and
// crypto/tls must keep the half it has and read on later, not fail for
// good: it does so only for an error whose Temporary method says true.
func TestTLSReadAfterWouldBlock(t *testing.T) {
	client, server, cb, sb := tlsPair(t)
	cb.feed(sb.take(), nil) // session tickets, if the server sent any
	if _, err := server.Write([]byte("hello, world")); err != nil {
		t.Fatal(err)
	}
	record := sb.take()
	buf := make([]byte, 64)
	fed := 0
	for _, upTo := range []int{0, 3, len(record) - 1} { // no byte, half a header, all but one
		cb.feed(record[fed:upTo], nil)
		fed = upTo
		if n, err := client.Read(buf); n != 0 || err != errWouldBlock {
			t.Fatalf("with %d bytes of a %d-byte record: %d bytes, %v; want errWouldBlock", fed, len(record), n, err)
		}
	}
	cb.feed(record[fed:], nil)
	n, err := client.Read(buf)
	if err != nil || string(buf[:n]) != "hello, world" {
		t.Fatalf("after the rest of the record: %q, %v", buf[:n], err)
	}
	var ne net.Error
	if !errors.As(errWouldBlock, &ne) || !ne.Timeout() {
		t.Fatal("errWouldBlock is not a timeout net.Error")
	}
}

// A failed handshake fails for good: every later call returns the same
// error without reading any more input. The connection code relies on it
// to never read records from a connection whose handshake failed.
func TestTLSHandshakeErrorIsSticky(t *testing.T) {
	b := newBridge(bridgeAddr("server"), func() {})
	client := tls.Client(b, &tls.Config{ServerName: "localhost"})
	b.feed([]byte("HTTP/1.1 400 Bad Request\r\n\r\n"), nil) // a server that does not speak TLS
	first := client.Handshake()
	if first == nil || !strings.Contains(first.Error(), "does not look like a TLS handshake") {
		t.Fatalf("handshake with a plain HTTP server: %v", first)
	}
	b.feed([]byte("\x16\x03\x01\x00\x05hello"), nil)
	before := b.buffered()
	if again := client.Handshake(); again != first {
		t.Fatalf("second handshake: %v, want the first error", again)
	}
	if _, err := client.Read(make([]byte, 16)); err != first {
		t.Fatalf("read after the failed handshake: %v, want the handshake's error", err)
	}
	if b.buffered() != before {
		t.Fatal("crypto/tls read input after its handshake had failed")
	}
}
