package http1_test

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"loopkit/crawler/http1"
)

// A skipped body is drained, to keep its connection, when what is left of
// it is at most 64 KiB, and the connection is closed when it is more: the
// limit is inclusive. The server sends the head, and the body only once
// the client has read the head (WantBody is asked then), so the rest to
// drain is the whole body, exactly.
func TestSkippedBodyIsDrainedUpToTheLimitInclusive(t *testing.T) {
	const maxDrain = 64 << 10
	for _, tc := range []struct {
		size  int
		conns int64 // connections for the skipped body and one page after it
	}{
		{size: maxDrain, conns: 1},
		{size: maxDrain + 1, conns: 2},
	} {
		t.Run(fmt.Sprint(tc.size), func(t *testing.T) {
			headSeen := make(chan struct{})
			srv := pageAndLatePDF(t, headSeen, make([]byte, tc.size), fmt.Sprint(tc.size))
			l, c := onLoop(t, http1.Options{MaxConnsPerHost: 1})
			wantBody := func(head *http1.Response) bool {
				close(headSeen)
				return notHTML(head)
			}
			pdf, err := await(t, l, c.Do(http1.Request{URL: srv.URL + "/doc.pdf", WantBody: wantBody}))
			if err != nil || !pdf.BodySkipped {
				t.Fatalf("pdf: %+v, %v", pdf, err)
			}
			page, err := await(t, l, c.Do(http1.Request{URL: srv.URL + "/"}))
			if err != nil || string(page.Body) != "<p>page</p>" {
				t.Fatalf("page: %+v, %v", page, err)
			}
			if n := srv.conns.Load(); n != tc.conns || page.Reused != (tc.conns == 1) {
				t.Fatalf("a skipped body of %d bytes: %d connections, the page's reused %v; want %d",
					tc.size, n, page.Reused, tc.conns)
			}
		})
	}
}

// A skipped body whose server closes the connection before the rest of
// it arrives costs nothing more: the draining connection is closed, not
// left open waiting for bytes that never come.
func TestADrainCutShortByTheServerClosesTheConnection(t *testing.T) {
	t.Parallel()
	url := rawServer(t, answer("HTTP/1.1 200 OK\r\nContent-Type: application/pdf\r\nContent-Length: 100\r\n\r\n%PDF"))
	l, c := onLoop(t, http1.Options{})
	pdf, err := await(t, l, c.Do(http1.Request{URL: url, WantBody: notHTML}))
	if err != nil || !pdf.BodySkipped {
		t.Fatalf("pdf: %+v, %v", pdf, err)
	}
	waitUntil(t, l, "the draining connection is closed", func() bool { return c.OpenConns() == 0 })
}

// A reply whose body is skipped on a connection's second use says it came
// over a reused connection, like any other reply there. The server keeps
// the one connection: a page, then a PDF head with only the start of its
// body, so the reply is answered before the body ends.
func TestASkippedReplyOnAReusedConnectionSaysReused(t *testing.T) {
	t.Parallel()
	var accepted atomic.Int64
	url := rawServer(t, func(c net.Conn, r *bufio.Reader) {
		accepted.Add(1)
		if _, err := readRequest(r); err != nil {
			return
		}
		c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 2\r\n\r\nok"))
		if _, err := readRequest(r); err != nil {
			return
		}
		c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Type: application/pdf\r\nContent-Length: 100\r\n\r\n%PDF"))
	})
	l, c := onLoop(t, http1.Options{MaxConnsPerHost: 1})
	page, err := await(t, l, c.Do(http1.Request{URL: url + "/", WantBody: notHTML}))
	if err != nil || string(page.Body) != "ok" || page.Reused {
		t.Fatalf("page: %+v, %v; want ok on a fresh connection", page, err)
	}
	pdf, err := await(t, l, c.Do(http1.Request{URL: url + "/doc.pdf", WantBody: notHTML}))
	if err != nil || !pdf.BodySkipped || !pdf.Reused {
		t.Fatalf("pdf: %+v, %v; want its body skipped and Reused", pdf, err)
	}
	if n := accepted.Load(); n != 1 {
		t.Fatalf("%d connections accepted, want the page's one reused", n)
	}
}

// The read timeout guards a drain as it guards a read: from the last
// bytes that came, not from the start. A skipped body dribbled in 21
// pieces, 100 ms apart, takes longer than the 2 s read timeout in all
// but never goes silent that long (a busy machine has 1.9 s to spare on
// each gap): the drain ends, and the connection carries the next request.
func TestADrainThatKeepsProgressingOutlivesTheReadTimeout(t *testing.T) {
	t.Parallel()
	if underRace {
		t.Skip("a dribble 100 ms apart against a 2 s read timeout is timing: the run without -race checks it")
	}
	var accepted atomic.Int64
	url := rawServer(t, func(c net.Conn, r *bufio.Reader) {
		accepted.Add(1)
		for {
			head, err := readRequest(r)
			if err != nil {
				return
			}
			if !strings.HasPrefix(head, "GET /doc.pdf ") {
				c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 2\r\n\r\nok"))
				continue
			}
			c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Type: application/pdf\r\nContent-Length: 21\r\n\r\n"))
			for range 21 {
				time.Sleep(100 * time.Millisecond)
				c.Write([]byte("x"))
			}
		}
	})
	l, c := onLoop(t, http1.Options{MaxConnsPerHost: 1, ReadTimeout: 2 * time.Second})
	pdf, err := await(t, l, c.Do(http1.Request{URL: url + "/doc.pdf", WantBody: notHTML}))
	if err != nil || !pdf.BodySkipped {
		t.Fatalf("pdf: %+v, %v", pdf, err)
	}
	page, err := await(t, l, c.Do(http1.Request{URL: url + "/"}))
	if err != nil || string(page.Body) != "ok" || !page.Reused {
		t.Fatalf("page: %+v, %v; want ok on the drained connection", page, err)
	}
	if n := accepted.Load(); n != 1 {
		t.Fatalf("%d connections accepted, want 1", n)
	}
}

// Only a rest of known length is drained: a skipped chunked body, short
// as it is, could go on for ever, and its connection is closed. The body
// comes once the client has read the head, so there is a rest to skip.
func TestASkippedChunkedBodyIsNotDrained(t *testing.T) {
	t.Parallel()
	headSeen := make(chan struct{})
	srv := pageAndLatePDF(t, headSeen, []byte("%PDF"), "") // no Content-Length: net/http sends it chunked
	l, c := onLoop(t, http1.Options{MaxConnsPerHost: 1})
	wantBody := func(head *http1.Response) bool {
		close(headSeen)
		return notHTML(head)
	}
	pdf, err := await(t, l, c.Do(http1.Request{URL: srv.URL + "/doc.pdf", WantBody: wantBody}))
	if err != nil || !pdf.BodySkipped || pdf.Header.Get("Transfer-Encoding") != "chunked" {
		t.Fatalf("pdf: %+v, %v; want a chunked body skipped", pdf, err)
	}
	page, err := await(t, l, c.Do(http1.Request{URL: srv.URL + "/"}))
	if err != nil || string(page.Body) != "<p>page</p>" || page.Reused {
		t.Fatalf("page: %+v, %v; want it on a new connection", page, err)
	}
	if n := srv.conns.Load(); n != 2 {
		t.Fatalf("%d connections accepted, want 2: the chunked one closed", n)
	}
}

// pageAndLatePDF serves "<p>page</p>" at / and a PDF anywhere else: the
// PDF's head at once, its body only once headSeen is closed (the client
// has read the head), so that the client has a rest of the body to skip.
// With contentLength "", net/http sends the body chunked.
func pageAndLatePDF(t *testing.T, headSeen chan struct{}, body []byte, contentLength string) *countingServer {
	return newCountingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<p>page</p>")
			return
		}
		w.Header().Set("Content-Type", "application/pdf")
		if contentLength != "" {
			w.Header().Set("Content-Length", contentLength)
		}
		w.WriteHeader(200)
		w.(http.Flusher).Flush()
		select {
		case <-headSeen:
		case <-time.After(10 * time.Second): // a bound on a hang
		}
		w.Write(body)
	}))
}
