package http1_test

import (
	"bufio"
	"io"
	"net"
	"sync/atomic"
	"testing"

	"loopkit/crawler/http1"
	"loopkit/future"
	"loopkit/loop"
)

// A server that talks on an idle connection, unasked, is out of step:
// whatever it sent would be read as the answer to the next request. The
// client closes such a connection at once, which the server sees as the
// end of its input, and the next request goes on a fresh one.
func TestAnIdleConnectionThatReceivesBytesIsClosed(t *testing.T) {
	var l *loop.Loop
	var closed *future.Future[bool] // true: the server read the end of its input
	idle := make(chan struct{})
	var conns atomic.Int64
	url := rawServer(t, func(conn net.Conn, r *bufio.Reader) {
		n := conns.Add(1)
		if _, err := readRequest(r); err != nil {
			return
		}
		conn.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
		if n > 1 {
			readRequest(r)
			return
		}
		<-idle
		conn.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nstale"))
		_, err := r.ReadByte() // the client's close: EOF (or, never closed, the server's deadline)
		l.CallSoonThreadsafe(func() { closed.SetResult(err == io.EOF) })
	})
	l, c := onLoop(t, http1.Options{})
	closed = future.New[bool](l)
	if _, err := get(t, l, c, url); err != nil {
		t.Fatal(err)
	}
	close(idle)
	if gotEOF, _ := await(t, l, closed); !gotEOF {
		t.Fatal("the client kept the idle connection that received unasked bytes open")
	}
	r, err := get(t, l, c, url)
	if err != nil || string(r.Body) != "ok" || r.Reused {
		t.Fatalf("the next request: %v, reused %v, body %q; want a fresh connection's answer", err, r != nil && r.Reused, r.Body)
	}
}

// A skipped body is drained to keep its connection, but a server that
// sends more than the body, unasked, is out of step, and one whose
// response says "Connection: close" wants it closed: either way the client
// closes the connection once the drain ends, which the server sees.
func TestADrainThatEndsOutOfStepOrAskingToCloseClosesTheConnection(t *testing.T) {
	for name, tc := range map[string]struct{ head, rest string }{
		"extra bytes": {head: "HTTP/1.1 200 OK\r\nContent-Type: application/pdf\r\nContent-Length: 10\r\n\r\n",
			rest: "0123456789HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nstale"},
		"Connection: close": {head: "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 10\r\n\r\n",
			rest: "0123456789"},
	} {
		t.Run(name, func(t *testing.T) {
			var l *loop.Loop
			var closed *future.Future[bool] // true: the server read the end of its input
			headSeen := make(chan struct{})
			url := rawServer(t, func(conn net.Conn, r *bufio.Reader) {
				if _, err := readRequest(r); err != nil {
					return
				}
				conn.Write([]byte(tc.head))
				<-headSeen
				conn.Write([]byte(tc.rest))
				_, err := r.ReadByte() // the client's close: EOF (or, never closed, the server's deadline)
				l.CallSoonThreadsafe(func() { closed.SetResult(err == io.EOF) })
			})
			l, c := onLoop(t, http1.Options{})
			closed = future.New[bool](l)
			wantBody := func(*http1.Response) bool { close(headSeen); return false }
			r, err := await(t, l, c.Do(http1.Request{URL: url, WantBody: wantBody}))
			if err != nil || !r.BodySkipped {
				t.Fatalf("the skipped page: %v, %+v", err, r)
			}
			if gotEOF, _ := await(t, l, closed); !gotEOF {
				t.Fatal("the client kept a connection it should have closed once the drain ended")
			}
		})
	}
}
