package http1_test

import (
	"bufio"
	"errors"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"loopkit/crawler/http1"
	"loopkit/future"
	"loopkit/loop"
)

// The tests in this file pin what the client keeps, and for how long:
// each one fails if a timer is left running, a connection is left open or
// a host's state is never let go.

// runFor runs the loop for d, so that its timers can fire.
func runFor(t testing.TB, l *loop.Loop, d time.Duration) {
	t.Helper()
	done := future.New[struct{}](l)
	l.CallLater(d, func() { done.SetResult(struct{}{}) })
	await(t, l, done)
}

// waitUntil runs the loop until cond holds, failing after 10 s.
func waitUntil(t testing.TB, l *loop.Loop, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting until %s", what)
		}
		runFor(t, l, 5*time.Millisecond)
	}
}

// A pooled connection unused for IdleTimeout is closed by the client: the
// server, which would keep it forever, sees it close.
func TestIdleTimeoutClosesPooledConnections(t *testing.T) {
	t.Parallel()
	srv := newCountingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }))
	l, c := onLoop(t, http1.Options{IdleTimeout: 100 * time.Millisecond})
	if _, err := get(t, l, c, srv.URL); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, l, "the idle connection is closed", func() bool { return c.OpenConns() == 0 })
	for deadline := time.Now().Add(5 * time.Second); srv.closed.Load() == 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the server never saw the idle connection close")
		}
	}
}

// A host with no connection left is forgotten: its pool, and its DNS
// entry once the TTL is over. A crawler meets most hosts once.
func TestIdleHostStateIsForgotten(t *testing.T) {
	closing := rawServer(t, answer("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok"))
	refused := "http://" + closedAddr(t) + "/"
	keepAlive := newCountingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }))
	byName := strings.Replace(keepAlive.URL, "127.0.0.1", "localhost", 1)
	l, c := onLoop(t, http1.Options{IdleTimeout: 50 * time.Millisecond, DNSTTL: 50 * time.Millisecond})

	if _, err := get(t, l, c, refused); err == nil {
		t.Fatal("a closed port answered")
	}
	if _, err := get(t, l, c, closing); err != nil {
		t.Fatal(err)
	}
	if pools, entries := c.HostState(); pools != 0 || entries != 0 {
		t.Fatalf("after a refused connection and a closed one: %d pools, %d DNS entries; want none", pools, entries)
	}
	if _, err := get(t, l, c, byName); err != nil {
		t.Fatal(err)
	}
	if pools, entries := c.HostState(); pools != 1 || entries != 1 {
		t.Fatalf("with a connection open: %d pools, %d DNS entries; want 1 and 1", pools, entries)
	}
	waitUntil(t, l, "the host is forgotten", func() bool {
		pools, entries := c.HostState()
		return pools == 0 && entries == 0
	})
}

// closedAddr is a 127.0.0.1 address nothing listens on.
func closedAddr(t testing.TB) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// Once a reply has come, nothing of the client keeps it: no timer left
// running holds its exchange (500 replies of 100 KB were once held on the
// heap for up to two minutes by total timers left running; the reply is
// part of its exchange's allocation now, so this watches the exchange
// too), and the pooled connection's parser lets go of the response it
// parsed last. The Response is a field of the exchange as well; the
// body, an array of its own, is watched beside it.
func TestRepliesAreNotKeptByTheClient(t *testing.T) {
	srv := newCountingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write(make([]byte, 100<<10))
	}))
	l, c := onLoop(t, http1.Options{})
	const n = 20
	var freed atomic.Int64
	fetch := func() { // in a function, so that no variable keeps the reply
		r, err := get(t, l, c, srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		runtime.SetFinalizer(r, func(*http1.Reply) { freed.Add(1) })
		runtime.SetFinalizer(&r.Body[0], func(*byte) { freed.Add(1) })
	}
	for range n {
		fetch()
	}
	runFor(t, l, time.Millisecond) // let the loop run the callbacks that completed
	for deadline := time.Now().Add(5 * time.Second); freed.Load() < 2*n; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d replies and their bodies are still reachable after the requests ended", 2*n-freed.Load(), 2*n)
		}
		runtime.GC()
	}
}

// A connection that closes stops its timer: left running, the idle
// timer would keep the connection, its parser and its buffers for 30 s.
func TestClosedConnectionStopsItsTimer(t *testing.T) {
	srv := newCountingServerIdle(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }), 50*time.Millisecond)
	l, c := onLoop(t, http1.Options{})
	if _, err := get(t, l, c, srv.URL); err != nil {
		t.Fatal(err)
	}
	cn := c.AnyConn()
	waitUntil(t, l, "the server closes the idle connection", func() bool { return c.OpenConns() == 0 })
	if http1.TimerPending(cn) {
		t.Fatal("the closed connection's idle timer is still pending")
	}
}

// With one connection per host, requests that wait for it get it in turn
// as each reply comes: one connection, the later requests reusing it.
func TestReleasedConnectionGoesToTheNextQueuedRequest(t *testing.T) {
	srv := newCountingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(20 * time.Millisecond)
		w.Write([]byte("ok"))
	}))
	l, c := onLoop(t, http1.Options{MaxConnsPerHost: 1, PoolTimeout: 2 * time.Second})
	fs := openMany(t, c, srv.URL, 3)
	for i, f := range fs {
		r, err := await(t, l, f)
		if err != nil || r.Reused != (i > 0) {
			t.Fatalf("request %d: %v, reused %v", i, err, r != nil && r.Reused)
		}
	}
	if n := srv.conns.Load(); n != 1 {
		t.Fatalf("%d connections, want 1", n)
	}
}

// The silent retry of a request whose pooled connection was dead happens
// once: if the retry too lands on a connection that dies, the request
// fails, marked ErrRetried, instead of going out a third time.
func TestARequestIsSentAtMostTwice(t *testing.T) {
	// Each connection answers its first request and closes on the second,
	// as a server whose keep-alive timeout races every reuse.
	srv := newDyingOnReuse(t)
	url := srv.url
	l, c := onLoop(t, http1.Options{MaxConnsPerHost: 1})
	if _, err := get(t, l, c, url+"/warm"); err != nil {
		t.Fatal(err)
	}
	// x goes out on the pooled connection, which dies; w waits for the
	// host's one connection and takes the fresh one dialed in its place;
	// x, retried, queues behind w and goes out on w's connection, reused,
	// which dies too.
	x := c.Do(http1.Request{URL: url + "/x"})
	w := c.Do(http1.Request{URL: url + "/w"})
	if _, err := await(t, l, w); err != nil {
		t.Fatalf("w: %v", err)
	}
	if _, err := await(t, l, x); !errors.Is(err, http1.ErrRetried) {
		t.Fatalf("x: %v, want a failure marked ErrRetried", err)
	}
	if n, _ := srv.counts("/x"); n != 2 {
		t.Fatalf("x arrived %d times, want 2", n)
	}
}

// Bytes after a response, in the same read, mean the server and the client
// disagree on where the response ended: the connection is not reused.
func TestExtraBytesAfterAResponseCloseTheConnection(t *testing.T) {
	url := rawServer(t, func(c net.Conn, r *bufio.Reader) {
		readRequest(r)
		c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok" + "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nextra"))
		readRequest(r) // keeps the connection open until the client closes it
	})
	l, c := onLoop(t, http1.Options{})
	r, err := get(t, l, c, url)
	if err != nil || string(r.Body) != "ok" {
		t.Fatalf("got %v, %v", r, err)
	}
	if n := c.OpenConns(); n != 0 {
		t.Fatalf("%d connections pooled after a response followed by extra bytes", n)
	}
}

// Sending is asked before every write of a request, the resend on a
// fresh connection too, and a no sends nothing: here the resend after a
// dead pooled connection is refused, so the request reached the server
// once, fails with Sending's error (not ErrRetried: it was sent once),
// and the connection dialled for the resend serves the next request.
func TestSendingIsAskedBeforeEveryWrite(t *testing.T) {
	srv := newDyingOnReuse(t) // each connection answers its first request and closes on the second
	url := srv.url
	l, c := onLoop(t, http1.Options{MaxConnsPerHost: 1})
	if _, err := get(t, l, c, url+"/warm"); err != nil {
		t.Fatal(err)
	}
	no := errors.New("no more")
	asked := 0
	x := c.Do(http1.Request{URL: url + "/x", Sending: func() error {
		if asked++; asked > 1 {
			return no
		}
		return nil
	}})
	if _, err := await(t, l, x); !errors.Is(err, no) || errors.Is(err, http1.ErrRetried) {
		t.Fatalf("x: %v, want Sending's error, not marked as sent twice", err)
	}
	if _, err := get(t, l, c, url+"/y"); err != nil {
		t.Fatalf("y after the refusal: %v", err)
	}
	xs, conns := srv.counts("/x")
	if asked != 2 || xs != 1 {
		t.Fatalf("Sending asked %d times, x arrived %d times; want 2 and 1", asked, xs)
	}
	if conns != 2 {
		t.Fatalf("%d connections; want 2: y went on the one dialled for x's resend", conns)
	}
}

// dyingOnReuse is a server each of whose connections answers its first
// request and closes on the second, without a word: a server whose
// keep-alive timeout races every reuse.
type dyingOnReuse struct {
	url      string
	mu       sync.Mutex
	arrivals map[string]int
	conns    int
}

func newDyingOnReuse(t *testing.T) *dyingOnReuse {
	s := &dyingOnReuse{arrivals: map[string]int{}}
	s.url = rawServer(t, func(c net.Conn, r *bufio.Reader) {
		s.mu.Lock()
		s.conns++
		s.mu.Unlock()
		for i := 0; ; i++ {
			head, err := readRequest(r)
			if err != nil {
				return
			}
			s.mu.Lock()
			s.arrivals[strings.Fields(head)[1]]++
			s.mu.Unlock()
			if i > 0 {
				return
			}
			c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
		}
	})
	return s
}

// counts are how many times path arrived, and how many connections came.
func (s *dyingOnReuse) counts(path string) (arrivals, conns int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.arrivals[path], s.conns
}
