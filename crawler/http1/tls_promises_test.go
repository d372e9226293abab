package http1_test

import (
	"bufio"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"loopkit/crawler/http1"
	"loopkit/future"
	"loopkit/internal/testca"
	"loopkit/loop"
)

// The promises of the https client that the package comment makes, each
// checked from the server's side of the wire where it can be.

// recordingConn keeps every byte read through it.
type recordingConn struct {
	net.Conn
	mu   sync.Mutex
	read []byte
}

func (r *recordingConn) Read(p []byte) (int, error) {
	n, err := r.Conn.Read(p)
	r.mu.Lock()
	r.read = append(r.read, p[:n]...)
	r.mu.Unlock()
	return n, err
}

// recordTypes lists the content types of the TLS records in b (RFC 8446
// §5.1): 22 handshake, 20 change_cipher_spec, 21 alert, 23 application data.
func recordTypes(b []byte) []byte {
	var types []byte
	for len(b) >= 5 {
		types = append(types, b[0])
		n := 5 + (int(b[3])<<8 | int(b[4]))
		b = b[min(n, len(b)):]
	}
	return types
}

// Closing the client says goodbye with a close_notify alert (RFC 8446
// §6.1) on its idle connections, so the server can tell a finished
// conversation from one cut short. TLS 1.2, where an alert travels in a
// record of its own type, lets the server's side see it.
func TestCloseSendsCloseNotify(t *testing.T) {
	ca := testca.New(t)
	cfg := ca.ServerConfig(t)
	cfg.MaxVersion = tls.VersionTLS12
	lastRecord := make(chan byte, 1)
	url := strings.Replace(rawServer(t, func(tcp net.Conn, _ *bufio.Reader) {
		rec := &recordingConn{Conn: tcp}
		c := tls.Server(rec, cfg)
		r := bufio.NewReader(c)
		if _, err := readRequest(r); err != nil {
			return
		}
		c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
		io.Copy(io.Discard, r) // until the client closes
		rec.mu.Lock()
		types := recordTypes(rec.read)
		rec.mu.Unlock()
		lastRecord <- types[len(types)-1]
	}), "http:", "https:", 1)
	l, c := onLoop(t, trusting(ca))
	if _, err := get(t, l, c, url); err != nil {
		t.Fatal(err)
	}
	c.Close()
	select {
	case typ := <-lastRecord:
		if typ != 21 {
			t.Fatalf("the last record the server read was of type %d, want 21 (an alert: close_notify)", typ)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("hung: the server never saw the connection close")
	}
}

// A host's second connection resumes the TLS session of its first, as
// the server sees it: no full handshake, no certificate sent and checked
// again.
func TestSecondConnectionResumesTheSession(t *testing.T) {
	ca := testca.New(t)
	cfg := ca.ServerConfig(t)
	var mu sync.Mutex
	var resumed []bool
	url := strings.Replace(rawServer(t, func(tcp net.Conn, _ *bufio.Reader) {
		c := tls.Server(tcp, cfg)
		if c.Handshake() != nil {
			return
		}
		mu.Lock()
		resumed = append(resumed, c.ConnectionState().DidResume)
		mu.Unlock()
		if _, err := readRequest(bufio.NewReader(c)); err == nil {
			c.Write([]byte("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok"))
		}
		c.Close()
	}), "http:", "https:", 1)
	l, c := onLoop(t, trusting(ca))
	for i := range 3 {
		if _, err := get(t, l, c, url); err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(resumed) != 3 || resumed[0] || !resumed[1] || !resumed[2] {
		t.Fatalf("the server's handshakes resumed a session: %v; want [false true true]", resumed)
	}
}

// A server that closes the connection in the middle of the handshake —
// right after the client's hello, inside its own first record or its
// first message — gives
// a TLS error that says the connection was cut short (ErrTruncated),
// which a crawler treats as a network failure worth another try.
func TestCloseDuringTheHandshakeIsTruncated(t *testing.T) {
	for name, serve := range map[string]func(net.Conn, *bufio.Reader){
		"after the hello": func(c net.Conn, r *bufio.Reader) { r.Peek(1) },
		"inside a record": func(c net.Conn, r *bufio.Reader) { r.Peek(1); c.Write([]byte("\x16\x03\x03\x00\x40abc")) },
		// A whole record holding the start of a 100-byte ServerHello.
		"inside a message": func(c net.Conn, r *bufio.Reader) { r.Peek(1); c.Write([]byte("\x16\x03\x03\x00\x04\x02\x00\x00\x64")) },
	} {
		t.Run(name, func(t *testing.T) {
			url := strings.Replace(rawServer(t, serve), "http:", "https:", 1)
			l, c := onLoop(t, http1.Options{})
			_, err := get(t, l, c, url)
			var te *http1.TLSError
			if !errors.As(err, &te) || !errors.Is(err, http1.ErrTruncated) || !strings.Contains(err.Error(), "during the handshake") {
				t.Fatalf("got %v, want a TLS error matching ErrTruncated", err)
			}
		})
	}
}

// A server that floods the client during the handshake, faster than
// crypto/tls reads, is cut off at the limit on what the loop buffers for
// a handshake, with a protocol error; not buffered without end, nor left
// to the handshake timeout. The client's own certificate check holds the
// handshake up meanwhile, as a slow one would.
func TestHandshakeInputIsBounded(t *testing.T) {
	ca := testca.New(t)
	cfg := ca.ServerConfig(t)
	url := strings.Replace(rawServer(t, func(tcp net.Conn, _ *bufio.Reader) {
		// The server's first flight, then 320 KiB of anything: past the
		// 256 KiB limit, and short of twice it.
		tls.Server(&floodingConn{Conn: tcp}, cfg).Handshake()
	}), "http:", "https:", 1)
	release := make(chan struct{})
	opts := trusting(ca)
	opts.HandshakeTimeout = time.Minute
	opts.TLS.VerifyConnection = func(tls.ConnectionState) error {
		select { // until the test has its answer, or long enough for the flood
		case <-release:
		case <-time.After(10 * time.Second):
		}
		return nil
	}
	l, c := onLoop(t, opts)
	_, err := get(t, l, c, url)
	close(release) // lets the handshake's goroutine end, so the loop can close
	var te *http1.TLSError
	if !errors.As(err, &te) || !errors.Is(err, http1.ErrProtocol) || !strings.Contains(err.Error(), "before the handshake ended") {
		t.Fatalf("got %v, want a TLS protocol error: too many bytes before the handshake ended", err)
	}
}

// floodingConn, on a server, follows its first write with a flood of
// bytes, from a goroutine of its own: the handshake goes on waiting for
// the client meanwhile. The flood ends when the connection closes.
type floodingConn struct {
	net.Conn
	once sync.Once
}

func (f *floodingConn) Write(p []byte) (int, error) {
	n, err := f.Conn.Write(p)
	f.once.Do(func() { go f.Conn.Write(make([]byte, 320<<10)) })
	return n, err
}

// An IPv6 address with a zone ("fe80::1%25eth0" in a URL) is checked
// against the certificate without its zone, which means something only on
// this machine: the certificate names fe80::1, and the request goes
// through. No name is sent in the hello (SNI is for names, not addresses).
func TestIPv6ZoneIsNotPartOfTheServerName(t *testing.T) {
	ca := testca.New(t)
	srv := newTLSServer(t, ca, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}), "fe80::1")
	realAddr := netip.MustParseAddrPort(strings.TrimPrefix(srv.URL, "https://"))
	l, c := onLoop(t, trusting(ca))
	var dialled []netip.AddrPort
	c.FakeDial(nil, func(ap netip.AddrPort) *future.Future[int] {
		dialled = append(dialled, ap)
		return l.SockConnect(realAddr) // the link-local address stands for the test server
	}, -1)
	url := "https://[fe80::1%25lo]:" + strconv.Itoa(int(realAddr.Port())) + "/"
	if _, err := get(t, l, c, url); err != nil {
		t.Fatalf("%s: %v", url, err)
	}
	if len(dialled) != 1 || dialled[0].Addr().Zone() != "lo" {
		t.Fatalf("dialled %v, want fe80::1%%lo: the zone is for the dialer", dialled)
	}
	if sni := srv.lastHello().ServerName; sni != "" {
		t.Fatalf("the hello named %q, want no name for an address", sni)
	}
}

// A server that sends its part of the handshake and closes at once, while
// the client is still checking its certificate: the socket is at its end,
// and readable for ever after. The loop reads the end once and stops
// watching, instead of spinning on it until the handshake is over.
func TestEOFDuringTheHandshakeIsReadOnce(t *testing.T) {
	t.Parallel()
	ca := testca.New(t)
	cfg := ca.ServerConfig(t)
	url := strings.Replace(rawServer(t, func(tcp net.Conn, _ *bufio.Reader) {
		tls.Server(&closingConn{Conn: tcp}, cfg).Handshake()
	}), "http:", "https:", 1)
	l, err := loop.New(&loop.Options{Stats: true})
	if err != nil {
		t.Fatal(err)
	}
	opts := trusting(ca)
	opts.TLS.VerifyConnection = func(tls.ConnectionState) error {
		time.Sleep(300 * time.Millisecond) // a slow check, while the end has come
		return nil
	}
	c := http1.NewClient(l, opts)
	t.Cleanup(func() { c.Close(); l.Close() })
	if _, err := get(t, l, c, url); !errors.Is(err, http1.ErrTruncated) {
		t.Fatalf("got %v, want ErrTruncated", err)
	}
	// A few turns for the connection, the handshake and its messages; a
	// loop spinning on the readable end turns thousands of times in 300 ms.
	if n := l.Stats().Iterations; n > 200 {
		t.Fatalf("the loop turned %d times for one failed request: it spun on the closed socket", n)
	}
}

// closingConn, on a server, closes its side of the connection after its
// first write.
type closingConn struct{ net.Conn }

func (c *closingConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	c.Conn.(*net.TCPConn).CloseWrite()
	return n, err
}
