package http1_test

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"loopkit/crawler/http1"
	"loopkit/future"
	"loopkit/internal/testca"
)

// rawTLSServer is rawServer over TLS: serve gets the TLS connection after
// its handshake, and the TCP connection under it.
func rawTLSServer(t *testing.T, ca *testca.CA, serve func(c *tls.Conn, tcp net.Conn, r *bufio.Reader)) string {
	cfg := ca.ServerConfig(t)
	url := rawServer(t, func(tcp net.Conn, _ *bufio.Reader) {
		c := tls.Server(tcp, cfg)
		if c.Handshake() != nil {
			return
		}
		serve(c, tcp, bufio.NewReader(c))
	})
	return strings.Replace(url, "http:", "https:", 1)
}

// stallMidHandshake is a server that reads the client's hello, sends the
// first bytes of a record promising 64 more, and then nothing, ever.
func stallMidHandshake(c net.Conn, r *bufio.Reader) {
	r.Peek(1)
	c.Write([]byte("\x16\x03\x03\x00\x40abc"))
	io.Copy(io.Discard, r) // until the client gives up and closes
}

// A peer that stalls in the middle of the handshake holds up nothing but
// its own request: twenty requests to a good server on the same loop
// complete while it is stuck. The stalled request then ends at its
// handshake timeout, and the goroutine its handshake ran on is gone: the
// loop can close.
func TestStalledHandshakeDelaysNoOne(t *testing.T) {
	t.Parallel()
	ca := testca.New(t)
	stalls := strings.Replace(rawServer(t, stallMidHandshake), "http:", "https:", 1)
	good := newTLSServer(t, ca, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }))

	// First with a handshake timeout no test would wait for, so that the
	// stalled request is surely still stuck when the others are done.
	opts := trusting(ca)
	opts.HandshakeTimeout = time.Hour
	l, c := onLoop(t, opts)
	stuck := c.Do(http1.Request{URL: stalls})
	var others []*future.Future[*http1.Reply]
	for i := range 20 {
		others = append(others, c.Do(http1.Request{URL: fmt.Sprintf("%s/%d", good.URL, i)}))
	}
	for i, f := range others {
		if _, err := await(t, l, f); err != nil {
			t.Fatalf("request %d to the good server: %v", i, err)
		}
	}
	if stuck.Done() {
		t.Fatalf("the stalled handshake ended: %v", stuck.Err())
	}
	c.Close() // ends the stuck handshake's goroutine, checked below

	// Then with a short one.
	opts.HandshakeTimeout = 200 * time.Millisecond
	l, c = onLoop(t, opts)
	_, err := get(t, l, c, stalls)
	var te *http1.TimeoutError
	if !errors.As(err, &te) || te.Phase != "handshake" || te.After != 200*time.Millisecond {
		t.Fatalf("got %v, want a handshake timeout after 200ms", err)
	}
	// Closing the connection ended the handshake's goroutine, which was
	// waiting for the rest of the record, without waiting for the loop
	// to close.
	for deadline := time.Now().Add(5 * time.Second); handshakesWaiting() > 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the timed-out handshake's goroutine is still waiting for input")
		}
	}
	c.Close()
	hung := time.AfterFunc(10*time.Second, func() { panic("the loop did not close: a handshake goroutine is still blocked") })
	l.Close() // waits for the executor's goroutines
	hung.Stop()
}

// A server that closes as soon as the handshake is done, its close_notify
// perhaps in the same read as its last handshake message: the request
// fails at once, as on a plain connection closed before the response,
// instead of waiting out the read timeout for an answer that cannot come.
func TestTLSCloseRightAfterTheHandshake(t *testing.T) {
	ca := testca.New(t)
	cfg := ca.ServerConfig(t)
	cfg.MaxVersion = tls.VersionTLS12 // the server's Finished is the handshake's last message
	url := strings.Replace(rawServer(t, func(tcp net.Conn, _ *bufio.Reader) {
		c := tls.Server(tcp, cfg)
		if c.Handshake() == nil {
			c.Close()
		}
	}), "http:", "https:", 1)
	opts := trusting(ca)
	opts.ReadTimeout = 10 * time.Second
	l, c := onLoop(t, opts)
	for range 20 {
		if _, err := get(t, l, c, url); !errors.Is(err, http1.ErrTruncated) {
			t.Fatalf("got %v, want ErrTruncated", err)
		}
	}
}

// A body that ends with the connection is complete over TLS only if the
// server said so with close_notify before closing; a bare close may be an
// attacker cutting it short (RFC 9112 §9.8). A body whose length was
// given is judged by its length either way.
func TestTLSCloseWithoutCloseNotify(t *testing.T) {
	ca := testca.New(t)
	serve := func(resp string, notify bool) string {
		return rawTLSServer(t, ca, func(c *tls.Conn, tcp net.Conn, r *bufio.Reader) {
			readRequest(r)
			c.Write([]byte(resp))
			if notify {
				c.Close() // close_notify, then the TCP close
			}
			tcp.Close()
		})
	}
	untilClose := "HTTP/1.1 200 OK\r\n\r\nthe body, until the connection closes"
	withLength := "HTTP/1.1 200 OK\r\nContent-Length: 4\r\nConnection: close\r\n\r\nbody"
	l, c := onLoop(t, trusting(ca))
	if r, err := get(t, l, c, serve(untilClose, true)); err != nil || !strings.HasSuffix(string(r.Body), "closes") {
		t.Fatalf("with close_notify: %v", err)
	}
	if _, err := get(t, l, c, serve(untilClose, false)); !errors.Is(err, http1.ErrTruncated) || !strings.Contains(err.Error(), "close_notify") {
		t.Fatalf("without close_notify: %v, want ErrTruncated", err)
	}
	if r, err := get(t, l, c, serve(withLength, false)); err != nil || string(r.Body) != "body" {
		t.Fatalf("a known length, without close_notify: %v", err)
	}
}

// A large body comes in many TLS records over many reads, and arrives
// whole, byte for byte; so does a chunked one.
func TestTLSLargeBodies(t *testing.T) {
	ca := testca.New(t)
	page := make([]byte, 3<<20)
	rand.Read(page)
	srv := newTLSServer(t, ca, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/chunked" {
			for i := 0; i < len(page); i += 100 << 10 {
				w.Write(page[i:min(i+100<<10, len(page))])
				w.(http.Flusher).Flush()
			}
			return
		}
		w.Header().Set("Content-Length", fmt.Sprint(len(page)))
		w.Write(page)
	}))
	l, c := onLoop(t, trusting(ca))
	for _, path := range []string{"/length", "/chunked"} {
		r, err := await(t, l, c.Do(http1.Request{URL: srv.URL + path, MaxBodyBytes: 4 << 20}))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if !bytes.Equal(r.Body, page) {
			t.Fatalf("%s: %d bytes came, not the %d sent", path, len(r.Body), len(page))
		}
	}
}

// A pooled TLS connection the server dropped is noticed like a plain one:
// the request is sent again, once, on a fresh connection.
func TestTLSStaleConnectionIsRetried(t *testing.T) {
	ca := testca.New(t)
	var mu sync.Mutex
	conns := 0
	url := rawTLSServer(t, ca, func(c *tls.Conn, tcp net.Conn, r *bufio.Reader) {
		mu.Lock()
		conns++
		mu.Unlock()
		if _, err := readRequest(r); err != nil {
			return
		}
		c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
		readRequest(r) // the second request: dropped without a word
	})
	l, c := onLoop(t, trusting(ca))
	if _, err := get(t, l, c, url); err != nil {
		t.Fatal(err)
	}
	r, err := get(t, l, c, url)
	if err != nil || !r.Retried || string(r.Body) != "ok" {
		t.Fatalf("second request: %v, retried %v", err, r != nil && r.Retried)
	}
	mu.Lock()
	defer mu.Unlock()
	if conns != 2 {
		t.Fatalf("%d connections, want 2", conns)
	}
}

// handshakesWaiting counts the goroutines whose handshake waits for input
// in the bridge.
func handshakesWaiting() int {
	buf := make([]byte, 1<<20)
	return strings.Count(string(buf[:runtime.Stack(buf, true)]), "http1.(*bridge).Read")
}

// A connection that ends inside a TLS record was cut, whatever the body's
// framing: here a body that ends with the connection, whose bytes so far
// came whole, is still refused as truncated. The server writes the start
// of one more record, then closes the TCP connection under it.
func TestTLSCloseInsideARecordIsTruncated(t *testing.T) {
	ca := testca.New(t)
	url := rawTLSServer(t, ca, func(c *tls.Conn, tcp net.Conn, r *bufio.Reader) {
		readRequest(r)
		c.Write([]byte("HTTP/1.1 200 OK\r\n\r\nthe body, until the connection closes"))
		tcp.Write([]byte("\x17\x03\x03\x00\x40abc")) // a record promising 64 bytes: 3 come
		tcp.Close()
	})
	l, c := onLoop(t, trusting(ca))
	if _, err := get(t, l, c, url); !errors.Is(err, http1.ErrTruncated) || !strings.Contains(err.Error(), "inside a TLS record") {
		t.Fatalf("closed inside a record: %v, want ErrTruncated", err)
	}
}
