package http1_test

import (
	"bufio"
	"errors"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"loopkit/crawler/http1"
)

// Request.Sent is called each time the request is all written: once for
// a request sent once, twice for one sent again on a fresh connection
// after a dead pooled one. The server reads as many requests as Sent was
// called, each before its reply completes the future.
func TestSentIsCalledForEverySend(t *testing.T) {
	var requests atomic.Int64
	url := rawServer(t, func(c net.Conn, r *bufio.Reader) {
		if _, err := readRequest(r); err != nil {
			return
		}
		requests.Add(1)
		c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
		if _, err := readRequest(r); err == nil { // the second request: dropped
			requests.Add(1)
		}
	})
	l, c := onLoop(t, http1.Options{})
	sent := 0
	req := http1.Request{URL: url, Sent: func() { sent++ }}
	if _, err := await(t, l, c.Do(req)); err != nil || sent != 1 {
		t.Fatalf("first: %v, Sent called %d times, want once", err, sent)
	}
	r, err := await(t, l, c.Do(req))
	if err != nil || !r.Retried || sent != 3 {
		t.Fatalf("second: %v, retried %v, Sent called %d times in all, want 3", err, r != nil && r.Retried, sent)
	}
	if n := requests.Load(); n != 3 {
		t.Fatalf("the server read %d requests, want 3", n)
	}
}

// Timings.FirstByte is the first read of the response, not the last:
// a body that comes after its head was read leaves FirstByte before Done.
func TestFirstByteIsTheFirstRead(t *testing.T) {
	headSeen := make(chan struct{})
	srv := newCountingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "4")
		w.WriteHeader(200)
		w.(http.Flusher).Flush()
		<-headSeen
		w.Write([]byte("body"))
	}))
	l, c := onLoop(t, http1.Options{})
	wantBody := func(*http1.Response) bool { close(headSeen); return true }
	r, err := await(t, l, c.Do(http1.Request{URL: srv.URL, WantBody: wantBody}))
	if err != nil || string(r.Body) != "body" {
		t.Fatalf("%v, %+v", err, r)
	}
	if tm := r.Timings; tm.FirstByte <= 0 || tm.FirstByte >= tm.Done {
		t.Fatalf("FirstByte %v, Done %v: want the head's read before the body's", tm.FirstByte, tm.Done)
	}
}

// Close fails the requests waiting for a connection too, not only those
// on one: nothing is left pending.
func TestCloseFailsTheRequestsWaitingForAConnection(t *testing.T) {
	var log pathLog
	url := rawServer(t, func(c net.Conn, r *bufio.Reader) {
		if head, err := readRequest(r); err == nil {
			log.note(strings.Fields(head)[1])
			r.ReadByte() // never answers: waits for the client to close
		}
	})
	l, c := onLoop(t, http1.Options{MaxConnsPerHost: 1})
	held := c.Do(http1.Request{URL: url + "/held"})
	waiting := c.Do(http1.Request{URL: url + "/waiting"})
	waitUntil(t, l, "the server has the first request", func() bool { return len(log.seen()) == 1 })
	c.Close()
	for name, f := range map[string]interface {
		Done() bool
		Err() error
	}{"on a connection": held, "waiting for one": waiting} {
		if !f.Done() || !errors.Is(f.Err(), http1.ErrClientClosed) {
			t.Errorf("a request %s at Close: done %v, %v; want ErrClientClosed at once", name, f.Done(), f.Err())
		}
	}
}
