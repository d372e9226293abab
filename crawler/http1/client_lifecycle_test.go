package http1_test

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"loopkit/crawler/http1"
	"loopkit/future"
	"loopkit/loop"
	"loopkit/task"
)

// The tests in this file follow a connection through its life in the
// pool — which one is reused, who gets it, when a failure is retried —
// judged from the server's side: which requests arrived, and on which
// connection.

// pathLog is a handler that notes each request's path, in arrival order.
type pathLog struct {
	mu    sync.Mutex
	paths []string
}

func (p *pathLog) note(path string) {
	p.mu.Lock()
	p.paths = append(p.paths, path)
	p.mu.Unlock()
}

func (p *pathLog) seen() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.paths)
}

// The pool reuses the connection that went idle last, and never hands one
// connection to two requests at once: after a slow and a fast request on
// two connections, the next request takes the slow one's, and two at once
// take one each, opening none.
func TestPoolReusesTheNewestIdleConnectionOnce(t *testing.T) {
	srv := newCountingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			time.Sleep(50 * time.Millisecond)
		}
		w.Write([]byte(r.URL.Path))
	}))
	l, c := onLoop(t, http1.Options{MaxConnsPerHost: 2})
	do := func(path string, tr *http1.Trace) *future.Future[*http1.Reply] {
		return c.Do(http1.Request{URL: srv.URL + path, Trace: tr})
	}
	var slow, fast, next, a, b http1.Trace
	fs := []*future.Future[*http1.Reply]{do("/slow", &slow), do("/fast", &fast)}
	for _, f := range fs {
		if _, err := await(t, l, f); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := await(t, l, do("/next", &next)); err != nil {
		t.Fatal(err)
	}
	if slow.Conn == fast.Conn || next.Conn != slow.Conn {
		t.Fatalf("slow on %d, fast on %d, then next on %d; want next on the newest idle, the slow one's",
			slow.Conn, fast.Conn, next.Conn)
	}
	fs = []*future.Future[*http1.Reply]{do("/a", &a), do("/b", &b)}
	for _, f := range fs {
		if r, err := await(t, l, f); err != nil || !r.Reused {
			t.Fatalf("two at once: %v, reused %v", err, r != nil && r.Reused)
		}
	}
	if a.Conn == b.Conn || srv.conns.Load() != 2 {
		t.Fatalf("two at once went on connections %d and %d; the server accepted %d; want two different of the two",
			a.Conn, b.Conn, srv.conns.Load())
	}
}

// A request that gave up while waiting for a connection (its caller
// cancelled it) is skipped when one comes free: it never reaches the
// server, and the next in line gets the connection.
func TestAWaiterThatGaveUpIsSkipped(t *testing.T) {
	var log pathLog
	srv := newCountingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.note(r.URL.Path)
		if r.URL.Path == "/a" {
			time.Sleep(50 * time.Millisecond)
		}
		w.Write([]byte(r.URL.Path))
	}))
	l, c := onLoop(t, http1.Options{MaxConnsPerHost: 1})
	a := c.Do(http1.Request{URL: srv.URL + "/a"})
	b := c.Do(http1.Request{URL: srv.URL + "/b"})
	cc := c.Do(http1.Request{URL: srv.URL + "/c"})
	l.CallLater(10*time.Millisecond, func() { b.Cancel() })
	for _, f := range []*future.Future[*http1.Reply]{a, cc} {
		if _, err := await(t, l, f); err != nil {
			t.Fatal(err)
		}
	}
	if got := log.seen(); !slices.Equal(got, []string{"/a", "/c"}) {
		t.Fatalf("the server saw %q, want /a and /c: the cancelled /b must not be sent", got)
	}
}

// A reused connection that breaks after its response has begun is not
// "stale": the server got the request and started to answer, so sending
// it again would not be safe to assume harmless. The request fails with
// what cut it short, and reaches the server once.
func TestFailureAfterTheResponseBeganIsNotRetried(t *testing.T) {
	var log pathLog
	url := rawServer(t, func(c net.Conn, r *bufio.Reader) {
		for {
			head, err := readRequest(r)
			if err != nil {
				return
			}
			path := strings.Fields(head)[1]
			log.note(path)
			if path == "/cut" {
				c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc"))
				return // and close, mid-body
			}
			c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
		}
	})
	l, c := onLoop(t, http1.Options{})
	if _, err := get(t, l, c, url+"/first"); err != nil {
		t.Fatal(err)
	}
	r, err := get(t, l, c, url+"/cut")
	if !errors.Is(err, http1.ErrTruncated) || errors.Is(err, http1.ErrRetried) {
		t.Fatalf("got %v (reply %v), want ErrTruncated, not retried", err, r)
	}
	if got := log.seen(); !slices.Equal(got, []string{"/first", "/cut"}) {
		t.Fatalf("the server saw %q; want /cut once", got)
	}
}

// When a pooled connection turns out to be dead, its idle siblings are
// likely dead too (the server restarted, or closes idle connections
// together): they are dropped, and the retry goes out on a new
// connection, not on the next dead one. Here the server drops every
// connection at its second request.
func TestAStaleConnectionTakesItsIdleSiblingsWithIt(t *testing.T) {
	var log pathLog
	url := rawServer(t, func(c net.Conn, r *bufio.Reader) {
		for i := 0; ; i++ {
			head, err := readRequest(r)
			if err != nil {
				return
			}
			log.note(strings.Fields(head)[1])
			if i == 1 {
				return // the second request on a connection: dropped unanswered
			}
			c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
		}
	})
	l, c := onLoop(t, http1.Options{MaxConnsPerHost: 3})
	for _, f := range openMany(t, c, url+"/open", 3) {
		if _, err := await(t, l, f); err != nil {
			t.Fatal(err)
		}
	}
	r, err := get(t, l, c, url+"/x")
	if err != nil || !r.Retried {
		t.Fatalf("got %v; want /x answered after one retry", err)
	}
	xs := 0
	for _, p := range log.seen() {
		if p == "/x" {
			xs++
		}
	}
	if xs != 2 {
		t.Fatalf("/x reached the server %d times, want 2: once on the dead connection, once on a new one", xs)
	}
}

// A request made after Close fails at once with ErrClientClosed, and
// never reaches the server.
func TestRequestsAfterCloseFail(t *testing.T) {
	var log pathLog
	srv := newCountingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { log.note(r.URL.Path) }))
	l, c := onLoop(t, http1.Options{})
	if _, err := get(t, l, c, srv.URL+"/before"); err != nil {
		t.Fatal(err)
	}
	c.Close()
	f := c.Do(http1.Request{URL: srv.URL + "/after"})
	if !f.Done() || !errors.Is(f.Err(), http1.ErrClientClosed) {
		t.Fatalf("a request after Close: done %v, %v; want ErrClientClosed at once", f.Done(), f.Err())
	}
	runFor(t, l, 20*time.Millisecond)
	if got := log.seen(); !slices.Equal(got, []string{"/before"}) {
		t.Fatalf("the server saw %q", got)
	}
}

// Close fails a request already on a connection, waiting for its
// answer, with ErrClientClosed at once: it is not left pending.
func TestCloseFailsARequestInFlight(t *testing.T) {
	var log pathLog
	url := rawServer(t, func(c net.Conn, r *bufio.Reader) {
		if head, err := readRequest(r); err == nil {
			log.note(strings.Fields(head)[1])
			r.ReadByte() // never answers: waits for the client to close
		}
	})
	l, c := onLoop(t, http1.Options{})
	f := c.Do(http1.Request{URL: url + "/held"})
	waitUntil(t, l, "the server has the request", func() bool { return len(log.seen()) == 1 })
	c.Close()
	if !f.Done() || !errors.Is(f.Err(), http1.ErrClientClosed) {
		t.Fatalf("a request in flight at Close: done %v, %v; want ErrClientClosed at once", f.Done(), f.Err())
	}
}

// A Get whose task is cancelled before the request could start is
// dropped quietly, whatever its URL: nothing is sent, and nothing
// panics on the loop (a URL the client cannot fetch would otherwise try
// to fail a future that the cancellation had already completed).
func TestAGetCancelledAtOnceIsDroppedQuietly(t *testing.T) {
	var log pathLog
	srv := newCountingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { log.note(r.URL.Path) }))
	l, c := onLoop(t, http1.Options{})
	var panics []string
	l.SetPanicHandler(func(p loop.PanicInfo) { panics = append(panics, fmt.Sprint(p.Value)) })
	for _, url := range []string{srv.URL + "/never", "ftp://example.invalid/"} {
		tk := task.Spawn(l, func(y task.Yield) (*http1.Reply, error) { return c.Get(y, url) })
		l.CallSoon(func() { tk.Cancel() }) // right after the task's first step, before the request starts
		guard := l.CallLater(30*time.Second, func() { t.Error("hung"); l.Stop() })
		if err := l.RunUntilComplete(tk); err != nil {
			t.Fatal(err)
		}
		guard.Cancel()
		if !tk.Cancelled() {
			t.Fatalf("%s: the task ended with %v, want cancelled", url, tk.Err())
		}
	}
	runFor(t, l, 20*time.Millisecond)
	if len(panics) > 0 || len(log.seen()) > 0 {
		t.Fatalf("panics on the loop: %q; the server saw %q", panics, log.seen())
	}
}
