package http1_test

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"loopkit/crawler/http1"
)

func notHTML(head *http1.Response) bool {
	return strings.HasPrefix(head.Header.Get("Content-Type"), "text/html")
}

// A body the caller does not want is not read: the reply comes with the
// head, and a big body's connection is closed — the server manages to
// write only what the socket buffers hold, a small part of it.
func TestUnwantedBigBodyIsNotRead(t *testing.T) {
	const size = 64 << 20
	var written atomic.Int64
	url := rawServer(t, func(c net.Conn, r *bufio.Reader) {
		if _, err := readRequest(r); err != nil {
			return
		}
		fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Type: application/pdf\r\nContent-Length: %d\r\n\r\n", size)
		chunk := make([]byte, 64<<10)
		for written.Load() < size {
			n, err := c.Write(chunk)
			written.Add(int64(n))
			if err != nil {
				return
			}
		}
	})
	l, c := onLoop(t, http1.Options{})
	reply, err := await(t, l, c.Do(http1.Request{URL: url, WantBody: notHTML}))
	if err != nil || !reply.BodySkipped || reply.Body != nil || reply.ContentLength != size {
		t.Fatalf("reply %+v, %v", reply, err)
	}
	if c.OpenConns() != 0 {
		t.Fatalf("%d connections open: a 64 MiB rest is not worth draining", c.OpenConns())
	}
	if w := written.Load(); w >= size {
		t.Fatalf("the server wrote all %d bytes", w)
	}
}

// A short unwanted body is read and dropped, so the connection goes back
// to the pool and carries the next request. (One connection per host, so
// the next request waits for the drained one instead of racing it.)
func TestUnwantedShortBodyIsDrained(t *testing.T) {
	srv := newCountingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/style.css" {
			w.Header().Set("Content-Type", "text/css")
			w.Header().Set("Content-Length", "20000")
			w.WriteHeader(200)
			w.(http.Flusher).Flush()
			// The head goes first and the body after, so the reply comes
			// before the body and the connection has a rest to drain.
			time.Sleep(30 * time.Millisecond)
			w.Write(make([]byte, 20000))
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<p>page</p>")
	}))
	l, c := onLoop(t, http1.Options{MaxConnsPerHost: 1})
	css, err := await(t, l, c.Do(http1.Request{URL: srv.URL + "/style.css", WantBody: notHTML}))
	if err != nil || !css.BodySkipped || css.Reused { // the first reply on a fresh connection
		t.Fatalf("css: %+v, %v", css, err)
	}
	page, err := await(t, l, c.Do(http1.Request{URL: srv.URL + "/", WantBody: notHTML}))
	if err != nil || page.BodySkipped || string(page.Body) != "<p>page</p>" || !page.Reused {
		t.Fatalf("page: %+v, %v", page, err)
	}
	if n := srv.conns.Load(); n != 1 {
		t.Fatalf("%d connections, want the drained one reused", n)
	}
}

// A body over a request's own limit is cut there with TruncateBody, and
// refused without it, whatever the client's limit; so are chunked ones.
// TruncateBody without a limit of the request's own cuts at the client's.
func TestRequestBodyLimitAndTruncation(t *testing.T) {
	body := strings.Repeat("x", 3000)
	for _, framing := range []string{"length", "chunked"} {
		srv := newCountingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if framing == "length" {
				w.Header().Set("Content-Length", "3000")
			}
			w.Write([]byte(body[:1000]))
			w.(http.Flusher).Flush()
			w.Write([]byte(body[1000:]))
		}))
		l, c := onLoop(t, http1.Options{Limits: http1.Limits{MaxBodyBytes: 100}})
		// A chunked body's framing counts against the limit, so less of it
		// is kept: net/http sends this one as two chunks, 12 bytes of
		// framing before the cut.
		want := 2048
		if framing == "chunked" {
			want -= 12
		}
		cut, err := await(t, l, c.Do(http1.Request{URL: srv.URL, MaxBodyBytes: 2048, TruncateBody: true}))
		if err != nil || !cut.Truncated || len(cut.Body) != want || !cut.Close {
			t.Fatalf("%s, truncated: %v, %+v", framing, err, cut)
		}
		_, err = await(t, l, c.Do(http1.Request{URL: srv.URL, MaxBodyBytes: 2048}))
		if !errors.Is(err, http1.ErrBodyTooLarge) {
			t.Fatalf("%s, not truncated: %v, want ErrBodyTooLarge", framing, err)
		}
		whole, err := await(t, l, c.Do(http1.Request{URL: srv.URL, MaxBodyBytes: 4096}))
		if err != nil || whole.Truncated || len(whole.Body) != 3000 {
			t.Fatalf("%s, under the limit: %v", framing, err)
		}
		// TruncateBody alone cuts at the client's limit.
		atClients, err := await(t, l, c.Do(http1.Request{URL: srv.URL, TruncateBody: true}))
		if err != nil || !atClients.Truncated || len(atClients.Body) == 0 || len(atClients.Body) > 100 {
			t.Fatalf("%s, truncated at the client's limit: %v, %+v", framing, err, atClients)
		}
	}
}

// A request that failed after the client's silent retry on a fresh
// connection says so, for whoever counts attempts.
func TestFailureAfterTheStaleRetrySaysSo(t *testing.T) {
	var conns atomic.Int64
	url := rawServer(t, func(c net.Conn, r *bufio.Reader) {
		if conns.Add(1) > 1 {
			return // every later connection: closed at once
		}
		if _, err := readRequest(r); err != nil {
			return
		}
		c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
		readRequest(r) // the second request: dropped
	})
	l, c := onLoop(t, http1.Options{})
	if _, err := get(t, l, c, url); err != nil {
		t.Fatal(err)
	}
	_, err := get(t, l, c, url)
	if !errors.Is(err, http1.ErrRetried) {
		t.Fatalf("err %v, want it marked ErrRetried", err)
	}
	if n := conns.Load(); n != 2 {
		t.Fatalf("%d connections, want 2", n)
	}
}
