package http1_test

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"loopkit/crawler/http1"
	"loopkit/future"
	"loopkit/internal/testca"
)

// batchedConn holds back what is written to it while hold is set, and
// sends it in one write on flush: each crypto/tls Write is a record of its
// own, so a server can put several records into one TCP segment, and the
// client reads them all at once.
type batchedConn struct {
	net.Conn
	hold bool
	buf  bytes.Buffer
}

func (b *batchedConn) Write(p []byte) (int, error) {
	if b.hold {
		return b.buf.Write(p)
	}
	return b.Conn.Write(p)
}

// SetWriteDeadline does nothing: crypto/tls sets one around a close_notify
// and leaves it in the past, which would fail the flush.
func (b *batchedConn) SetWriteDeadline(time.Time) error { return nil }

func (b *batchedConn) flush() error {
	b.hold = false
	_, err := b.Conn.Write(b.buf.Bytes())
	b.buf.Reset()
	return err
}

// forgedReply is what a server says out of turn, after a complete response:
// a reply to a request it has not been sent yet.
const forgedReply = "HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nFORGED"

// closeNotify, among a server's records, stands for its close_notify alert.
const closeNotify = "close_notify"

// extraRecordServer answers the first request of its first connection
// with records, then the raw bytes of tail, all in one TCP write, then answers every other request
// with its path, and logs which connection each request came on.
type extraRecordServer struct {
	url     string
	mu      sync.Mutex
	arrived []string // "conn N: /path"
}

func newExtraRecordServer(t *testing.T, ca *testca.CA, tail string, first ...string) *extraRecordServer {
	s := &extraRecordServer{}
	cfg := ca.ServerConfig(t)
	conns := 0
	s.url = strings.Replace(rawServer(t, func(tcp net.Conn, _ *bufio.Reader) {
		s.mu.Lock()
		conns++
		n := conns
		s.mu.Unlock()
		bc := &batchedConn{Conn: tcp}
		c := tls.Server(bc, cfg)
		if c.Handshake() != nil {
			return
		}
		r := bufio.NewReader(c)
		for i := 0; ; i++ {
			head, err := readRequest(r)
			if err != nil {
				return
			}
			path := strings.Fields(head)[1]
			s.mu.Lock()
			s.arrived = append(s.arrived, fmt.Sprintf("conn %d: %s", n, path))
			s.mu.Unlock()
			if n == 1 && i == 0 {
				bc.hold = true
				for _, rec := range first {
					if rec == closeNotify {
						c.CloseWrite()
						continue
					}
					c.Write([]byte(rec))
				}
				bc.buf.WriteString(tail) // raw bytes after the records
				bc.flush()
				continue
			}
			fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s", len(path), path)
		}
	}), "http:", "https:", 1)
	return s
}

func (s *extraRecordServer) log() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.arrived...)
}

// Bytes a server sends after a complete response, in a TLS record of their
// own that arrives in the same read, are not the next request's response:
// the connection is closed, as it is over plain HTTP, and the request
// queued for it goes out on a new connection. (Handed on, the connection
// gave the queued request the server's unsolicited reply, as if it had
// been asked on a reused connection.) The same holds after a body the
// caller did not want has been read and dropped.
func TestTLSExtraRecordAfterAResponseClosesTheConnection(t *testing.T) {
	ca := testca.New(t)
	for _, tc := range []struct {
		name     string
		records  []string
		tail     string
		wantBody bool
	}{
		{"a response, then a forged one", []string{"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nfirst", forgedReply}, "", true},
		{"a skipped body drained, then a forged response", []string{
			"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nfirst", "-body", forgedReply}, "", false},
		// A server that says goodbye will not answer the next request.
		{"a response, then close_notify", []string{"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nfirst", closeNotify}, "", true},
		// Half a record cannot be judged yet, and it would shift every
		// record after it.
		{"a response, then the first bytes of a record", []string{"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nfirst"},
			"\x17\x03\x03\x00\x40abc", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newExtraRecordServer(t, ca, tc.tail, tc.records...)
			opts := trusting(ca)
			opts.MaxConnsPerHost = 1 // the second request waits for the first one's connection
			l, c := onLoop(t, opts)
			want := func(*http1.Response) bool { return tc.wantBody }
			first := c.Do(http1.Request{URL: srv.url + "/a", WantBody: want})
			second := c.Do(http1.Request{URL: srv.url + "/b"})
			if _, err := await(t, l, first); err != nil {
				t.Fatalf("first: %v", err)
			}
			r, err := await(t, l, second)
			if err != nil {
				t.Fatalf("second: %v", err)
			}
			if string(r.Body) != "/b" || r.Reused || r.Retried {
				t.Errorf("second request: body %q, reused %v, retried %v; want its own reply on a new connection", r.Body, r.Reused, r.Retried)
			}
			if got := srv.log(); len(got) != 2 || got[1] != "conn 2: /b" {
				t.Errorf("the server saw %q; want /b on a second connection", got)
			}
		})
	}
}

// A response that ends exactly where a read of whole records ends leaves
// the connection usable: the request queued behind it reuses it.
func TestTLSConnectionWithNothingLeftIsReused(t *testing.T) {
	ca := testca.New(t)
	srv := newExtraRecordServer(t, ca, "", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n", "first")
	opts := trusting(ca)
	opts.MaxConnsPerHost = 1
	l, c := onLoop(t, opts)
	fs := []*future.Future[*http1.Reply]{c.Do(http1.Request{URL: srv.url + "/a"}), c.Do(http1.Request{URL: srv.url + "/b"})}
	for i, f := range fs {
		r, err := await(t, l, f)
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		if i == 1 && (string(r.Body) != "/b" || !r.Reused) {
			t.Fatalf("second request: body %q, reused %v; want /b on the first connection", r.Body, r.Reused)
		}
	}
	if got := srv.log(); len(got) != 2 || got[1] != "conn 1: /b" {
		t.Fatalf("the server saw %q; want both on one connection", got)
	}
}
