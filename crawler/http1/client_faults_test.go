package http1_test

import (
	"bufio"
	"errors"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"loopkit/crawler/http1"
	"loopkit/future"
	"loopkit/netpoll"
	"loopkit/task"
)

// Each malformed response fails with an error of the right kind, and the
// connection that carried it is closed, never pooled.
func TestMalformedResponsesFailWithTheirKind(t *testing.T) {
	cases := []struct {
		name, resp string
		kind       error
		mention    string
	}{
		{"bad status line", "HTTP/1.1 OK\r\n\r\n", http1.ErrProtocol, "status"},
		{"not HTTP at all", "SSH-2.0-OpenSSH_9.6\r\n", http1.ErrProtocol, ""},
		{"header over the limit", "HTTP/1.1 200 OK\r\nX-Big: " + strings.Repeat("a", 70<<10) + "\r\n\r\n", http1.ErrHeaderTooLarge, ""},
		{"conflicting Content-Length", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!", http1.ErrProtocol, "Content-Length"},
		{"truncated body", "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly this", http1.ErrTruncated, "body"},
		{"truncated chunk", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nshort", http1.ErrTruncated, "chunk"},
		{"body over the limit", "HTTP/1.1 200 OK\r\nContent-Length: 2000000\r\n\r\n" + strings.Repeat("x", 2000000), http1.ErrBodyTooLarge, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			url := rawServer(t, answer(tc.resp))
			l, c := onLoop(t, http1.Options{Limits: http1.Limits{MaxBodyBytes: 1 << 20}})
			_, err := get(t, l, c, url)
			if !errors.Is(err, tc.kind) || !strings.Contains(err.Error(), tc.mention) {
				t.Fatalf("got %v, want %v mentioning %q", err, tc.kind, tc.mention)
			}
			if n := c.OpenConns(); n != 0 {
				t.Fatalf("%d connections kept after a bad response", n)
			}
		})
	}
}

func TestResetMidBody(t *testing.T) {
	url := rawServer(t, func(c net.Conn, r *bufio.Reader) {
		readRequest(r)
		c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nhalf of it"))
		time.Sleep(20 * time.Millisecond)
		c.(*net.TCPConn).SetLinger(0) // close with RST
	})
	l, c := onLoop(t, http1.Options{})
	_, err := get(t, l, c, url)
	if err == nil || !(strings.Contains(err.Error(), "reset") || errors.Is(err, http1.ErrTruncated)) {
		t.Fatalf("got %v, want a reset", err)
	}
}

// dribble writes a 30-byte body one byte every 100 ms: 3 s in all, more
// than the 2 s read timeout of the tests that use it, whose gaps between
// bytes are a twentieth of it, so that a busy machine (the race detector,
// other packages' tests beside) cannot stretch a gap to a timeout.
func dribble(c net.Conn, r *bufio.Reader) {
	readRequest(r)
	c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 30\r\n\r\n"))
	for range 30 {
		time.Sleep(100 * time.Millisecond)
		if _, err := c.Write([]byte("x")); err != nil {
			return
		}
	}
}

// The read timeout is between bytes, not for the whole response: a server
// that dribbles a byte every 100 ms for 3 s passes a 2 s read timeout,
// and is stopped only by the total deadline.
func TestDribblingServerReadTimeoutVersusTotalDeadline(t *testing.T) {
	t.Parallel()
	if underRace {
		t.Skip("a dribble 100 ms apart against a 2 s read timeout is timing: the run without -race checks it")
	}
	url := rawServer(t, dribble)
	l, c := onLoop(t, http1.Options{ReadTimeout: 2 * time.Second})
	r, err := get(t, l, c, url)
	if err != nil || string(r.Body) != strings.Repeat("x", 30) {
		t.Fatalf("read timeout between bytes: %v", err)
	}
	l2, c2 := onLoop(t, http1.Options{ReadTimeout: 2 * time.Second, TotalTimeout: 400 * time.Millisecond})
	_, err = get(t, l2, c2, url)
	var te *http1.TimeoutError
	if !errors.As(err, &te) || te.Phase != "total" || te.After != 400*time.Millisecond {
		t.Fatalf("got %v, want a total timeout after 400ms", err)
	}
}

// The server holds the connection, silent, until the client has its answer:
// a fixed sleep would race the timer, and a close would end the request first.
func TestServerThatNeverAnswersHitsTheReadTimeout(t *testing.T) {
	t.Parallel()
	answered := make(chan struct{})
	defer close(answered)
	url := rawServer(t, func(c net.Conn, r *bufio.Reader) {
		readRequest(r)
		<-answered
	})
	l, c := onLoop(t, http1.Options{ReadTimeout: 100 * time.Millisecond})
	_, err := get(t, l, c, url)
	var te *http1.TimeoutError
	if !errors.As(err, &te) || te.Phase != "read" || te.After != 100*time.Millisecond || !errors.Is(err, http1.ErrTimeout) {
		t.Fatalf("got %v, want a read timeout after 100ms", err)
	}
	// Code written for net.Error asks Timeout(), as net/http's callers do.
	var ne interface{ Timeout() bool }
	if !errors.As(err, &ne) || !ne.Timeout() {
		t.Fatalf("%v says it is not a timeout to a Timeout() check", err)
	}
}

// A server answers one request per connection and then, on the next
// request, closes without a word — the race every keep-alive client meets
// when a server's idle timeout fires just as a request is sent. The client
// retries that request once on a fresh connection.
func TestStaleKeepAliveConnectionIsRetriedOnce(t *testing.T) {
	var conns atomic.Int64
	url := rawServer(t, func(c net.Conn, r *bufio.Reader) {
		conns.Add(1)
		if _, err := readRequest(r); err != nil {
			return
		}
		c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
		readRequest(r) // the second request: dropped
	})
	l, c := onLoop(t, http1.Options{})
	first, err := get(t, l, c, url)
	if err != nil || first.Retried {
		t.Fatalf("first: %v", err)
	}
	second, err := get(t, l, c, url)
	if err != nil || string(second.Body) != "ok" || !second.Retried || second.Reused {
		t.Fatalf("second: %+v, %v; want ok, retried, on a connection not reused", second, err)
	}
	// The retry's connection is the client's, pooled, not an orphan of a
	// pool forgotten when the dead connection closed.
	if n := c.OpenConns(); n != 1 {
		t.Fatalf("%d connections open after the retry, want the fresh one", n)
	}
	if n := conns.Load(); n != 2 {
		t.Fatalf("server saw %d connections, want 2", n)
	}
	// Not idempotent: not retried.
	third, err := await(t, l, c.Do(http1.Request{Method: "POST", URL: url}))
	if err == nil {
		t.Fatalf("a POST on a stale connection was retried: %+v", third)
	}
}

// A pooled connection that the server closes while idle is noticed at
// once by its reader and dropped, so the next request dials afresh
// instead of failing.
func TestIdleConnectionClosedByServerIsDropped(t *testing.T) {
	srv := newCountingServerIdle(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("hi")) }), 50*time.Millisecond)
	l, c := onLoop(t, http1.Options{})
	if _, err := get(t, l, c, srv.URL); err != nil {
		t.Fatal(err)
	}
	// Wait for the pool to drop it: the hang guard fails the test if it
	// never does.
	dropped := future.New[bool](l)
	var look func()
	look = func() {
		if c.OpenConns() == 0 {
			dropped.SetResult(true)
			return
		}
		l.CallLater(5*time.Millisecond, look)
	}
	look()
	await(t, l, dropped)
	r, err := get(t, l, c, srv.URL)
	if err != nil || r.Reused || r.Retried {
		t.Fatalf("after the idle close: %+v, %v", r, err)
	}
}

func TestConnectErrors(t *testing.T) {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	closedPort := "http://" + ln.Addr().String()
	ln.Close()
	l, c := onLoop(t, http1.Options{})
	if _, err := get(t, l, c, closedPort); err == nil || !strings.Contains(err.Error(), "connection refused") {
		t.Fatalf("closed port: %v", err)
	}
	var dnsErr *net.DNSError
	if _, err := get(t, l, c, "http://no-such-host.invalid/"); !errors.As(err, &dnsErr) {
		t.Fatalf("unknown host: %v", err)
	}
	if _, err := get(t, l, c, "ftp://example.com/"); !errors.Is(err, http1.ErrUnsupportedURL) {
		t.Fatalf("ftp: %v", err)
	}
}

// With one connection allowed per host, a second request waits for it;
// if the first takes too long, the second fails with a pool timeout.
func TestPoolTimeoutWhileTheHostIsAtItsCap(t *testing.T) {
	t.Parallel()
	url := rawServer(t, func(c net.Conn, r *bufio.Reader) {
		readRequest(r)
		time.Sleep(300 * time.Millisecond)
		c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"))
	})
	l, c := onLoop(t, http1.Options{MaxConnsPerHost: 1, PoolTimeout: 50 * time.Millisecond})
	first := c.Do(http1.Request{URL: url})
	second := c.Do(http1.Request{URL: url})
	_, err := await(t, l, second)
	var te *http1.TimeoutError
	if !errors.As(err, &te) || te.Phase != "pool" || te.After != 50*time.Millisecond {
		t.Fatalf("second: %v, want a pool timeout after 50ms", err)
	}
	if r, err := await(t, l, first); err != nil || r.StatusCode != 200 {
		t.Fatalf("first: %v", err)
	}
}

// The pool timeout guards only the wait for a connection: a request that
// got one in time may then take longer than it. The second request here
// is answered only a pool timeout after it was sent, by a loop timer set
// then; the pool's timer, set earlier for the same length, would have
// fired first had it not been stopped.
func TestPoolTimeoutEndsWhenAConnectionComes(t *testing.T) {
	t.Parallel()
	const poolTimeout = 500 * time.Millisecond
	release, over := make(chan struct{}), make(chan struct{})
	url := rawServer(t, func(c net.Conn, r *bufio.Reader) {
		for i := 0; ; i++ {
			if _, err := readRequest(r); err != nil {
				return
			}
			if i == 1 {
				select {
				case <-release:
				case <-over:
					return
				}
			}
			c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
		}
	})
	t.Cleanup(func() { close(over) }) // before the server's own cleanup waits for it
	l, c := onLoop(t, http1.Options{MaxConnsPerHost: 1, PoolTimeout: poolTimeout})
	first := c.Do(http1.Request{URL: url})
	sent := func() { l.CallLater(poolTimeout, func() { close(release) }) }
	second := c.Do(http1.Request{URL: url, Sent: sent})
	if _, err := await(t, l, first); err != nil {
		t.Fatalf("first: %v", err)
	}
	if r, err := await(t, l, second); err != nil || string(r.Body) != "ok" || !r.Reused {
		t.Fatalf("second: %v; want ok on the first's connection", err)
	}
}

// Cancelling the task that waits in Get aborts the request and closes its
// connection.
func TestCancellingTheTaskAbortsTheRequest(t *testing.T) {
	over := make(chan struct{})
	defer close(over)
	url := rawServer(t, func(c net.Conn, r *bufio.Reader) {
		readRequest(r)
		<-over // silent until the test is over: only the cancel can end the request
	})
	l, c := onLoop(t, http1.Options{})
	tk := task.Spawn(l, func(y task.Yield) (*http1.Reply, error) { return c.Get(y, url) })
	l.CallLater(50*time.Millisecond, func() { tk.Cancel() })
	guard := l.CallLater(30*time.Second, func() { t.Error("hung"); l.Stop() })
	if err := l.RunUntilComplete(tk); err != nil {
		t.Fatal(err)
	}
	guard.Cancel()
	if !errors.Is(tk.Err(), future.ErrCancelled) {
		t.Fatalf("got %v", tk.Err())
	}
	settle := future.New[int](l)
	l.CallLater(10*time.Millisecond, func() { settle.SetResult(c.OpenConns()) })
	if n, _ := await(t, l, settle); n != 0 {
		t.Fatalf("%d connections open after the cancelled request", n)
	}
}

// A server that accepts a request but never reads it: once the socket
// buffers are full, the write stalls and the write timeout fires. The
// server holds the connection open until the client has its answer, so
// however late the timer fires, only the timeout can end the request.
func TestWriteTimeoutWhenTheServerStopsReading(t *testing.T) {
	t.Parallel()
	answered := make(chan struct{})
	defer close(answered)
	url := rawServer(t, func(c net.Conn, r *bufio.Reader) { <-answered })
	l, c := onLoop(t, http1.Options{WriteTimeout: 100 * time.Millisecond})
	huge := http1.Header{{Name: "X-Padding", Value: strings.Repeat("p", 32<<20)}}
	_, err := await(t, l, c.Do(http1.Request{URL: url, Header: huge}))
	var te *http1.TimeoutError
	if !errors.As(err, &te) || te.Phase != "write" || te.After != 100*time.Millisecond {
		t.Fatalf("got %v, want a write timeout after 100ms", err)
	}
}

// A listener whose accept queue is full drops new SYNs, so a connect to
// it neither succeeds nor fails: only the connect timeout ends it.
func TestConnectTimeoutWhenSYNsAreDropped(t *testing.T) {
	t.Parallel()
	// A backlog of one, and nobody accepting: two connections fill it.
	lfd, addr, err := netpoll.Listen(netip.MustParseAddrPort("127.0.0.1:0"), 1)
	if err != nil {
		t.Fatal(err)
	}
	defer netpoll.Close(lfd)
	var held []net.Conn
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	// A dial that fails says the queue is full, but only once the two
	// it holds are in: on a busy machine a dial may be slow to finish
	// even while there is room, and a connection that later gets in
	// would end in a read timeout, not a connect timeout.
	full := false
	for range 16 {
		c, err := net.DialTimeout("tcp", addr.String(), time.Second)
		if err != nil {
			full = len(held) >= 2
			break
		}
		held = append(held, c)
	}
	if !full {
		t.Skipf("the accept queue did not fill as a full one does (%d connections in before a dial failed)", len(held))
	}
	l, c := onLoop(t, http1.Options{ConnectTimeout: 100 * time.Millisecond})
	_, err = get(t, l, c, "http://"+addr.String()+"/")
	var te *http1.TimeoutError
	if !errors.As(err, &te) || te.Phase != "connect" || te.After != 100*time.Millisecond {
		t.Fatalf("got %v, want a connect timeout after 100ms", err)
	}
}
