package http1_test

import (
	"bufio"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"loopkit/crawler/http1"
	"loopkit/future"
	"loopkit/loop"
)

// onLoop gives each client test a fresh loop and client.
func onLoop(t testing.TB, opts http1.Options) (*loop.Loop, *http1.Client) {
	t.Helper()
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	c := http1.NewClient(l, opts)
	t.Cleanup(func() { c.Close(); l.Close() })
	return l, c
}

// await runs the loop until f completes, with a generous hang guard.
func await[T any](t testing.TB, l *loop.Loop, f *future.Future[T]) (T, error) {
	t.Helper()
	guard := l.CallLater(30*time.Second, func() { t.Error("hung"); l.Stop() })
	defer guard.Cancel()
	if err := l.RunUntilComplete(f); err != nil {
		t.Fatal(err)
	}
	return f.Result()
}

func get(t testing.TB, l *loop.Loop, c *http1.Client, url string) (*http1.Reply, error) {
	t.Helper()
	return await(t, l, c.Do(http1.Request{URL: url}))
}

// countingServer is Go's own net/http server (a real server that no one
// here wrote) that counts the connections it accepts.
type countingServer struct {
	*httptest.Server
	conns  atomic.Int64 // accepted
	closed atomic.Int64 // closed, by either side
}

func newCountingServer(t testing.TB, h http.Handler) *countingServer {
	return newCountingServerIdle(t, h, 0)
}

// newCountingServerIdle sets the server's idle timeout before it starts.
func newCountingServerIdle(t testing.TB, h http.Handler, idle time.Duration) *countingServer {
	s := &countingServer{Server: httptest.NewUnstartedServer(h)}
	s.Config.IdleTimeout = idle
	s.Config.ConnState = s.count
	s.Start()
	t.Cleanup(s.Close)
	return s
}

// count is the server's ConnState hook.
func (s *countingServer) count(_ net.Conn, st http.ConnState) {
	switch st {
	case http.StateNew:
		s.conns.Add(1)
	case http.StateClosed, http.StateHijacked:
		s.closed.Add(1)
	}
}

// rawServer accepts connections on 127.0.0.1 and hands each to serve, for
// the misbehaving servers that net/http would never be.
func rawServer(t testing.TB, serve func(c net.Conn, r *bufio.Reader)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer c.Close()
				c.SetDeadline(time.Now().Add(20 * time.Second))
				serve(c, bufio.NewReader(c))
			}()
		}
	}()
	return "http://" + ln.Addr().String()
}

// readRequest consumes one request head.
func readRequest(r *bufio.Reader) (string, error) {
	var head strings.Builder
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return head.String(), err
		}
		head.WriteString(line)
		if line == "\r\n" {
			return head.String(), nil
		}
	}
}

// answer is a raw server that reads one request and writes resp verbatim.
func answer(resp string) func(net.Conn, *bufio.Reader) {
	return func(c net.Conn, r *bufio.Reader) {
		if _, err := readRequest(r); err == nil {
			c.Write([]byte(resp))
		}
	}
}
