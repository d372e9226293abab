package http1_test

import (
	"bufio"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"loopkit/crawler/http1"
	"loopkit/future"
)

// A server may answer before it has read all of a request: an error page
// for a request too large, say. The rest of the request is still on its
// way, so the connection cannot carry the next one — that would arrive
// glued to the tail of the first, for a server that stopped listening.
// It is closed, and the request waiting for it gets a new connection;
// also when the answer's body was not wanted, and would otherwise be
// drained to keep the connection.
func TestConnectionIsNotReusedWhileItsRequestIsStillBeingSent(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		wantBody bool
	}{{"a whole response", true}, {"a head, its body unwanted", false}} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var arrived []string
			conns := 0
			stop := make(chan struct{})
			headSeen := make(chan struct{}) // the client has read the 413's head
			url := rawServer(t, func(c net.Conn, r *bufio.Reader) {
				mu.Lock()
				conns++
				n := conns
				mu.Unlock()
				line, err := r.ReadString('\n')
				if err != nil {
					return
				}
				mu.Lock()
				arrived = append(arrived, fmt.Sprintf("conn %d: %s", n, strings.Fields(line)[1]))
				mu.Unlock()
				if n == 1 {
					// Answer at once, and listen no more: not a byte more
					// is read, so the request can never be sent whole.
					// (A server that read the rest would let a client
					// that finished sending reuse the connection, rightly.)
					c.Write([]byte("HTTP/1.1 413 Content Too Large\r\nContent-Length: 5\r\n\r\n"))
					select { // the body after the head, in a read of its own
					case <-headSeen:
					case <-stop:
						return
					}
					c.Write([]byte("large"))
					<-stop
					return
				}
				readRequest(r)
				c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
			})
			// The read timeout only bounds the failure: a request glued to
			// the first connection is never answered.
			t.Cleanup(func() { close(stop) }) // before the server's own cleanup waits for it
			l, c := onLoop(t, http1.Options{MaxConnsPerHost: 1, ReadTimeout: 10 * time.Second})
			// Far more than the socket buffers hold while the server does
			// not read.
			huge := http1.Header{{Name: "X-Padding", Value: strings.Repeat("p", 16<<20)}}
			want := func(*http1.Response) bool { close(headSeen); return tc.wantBody }
			fs := []*future.Future[*http1.Reply]{
				c.Do(http1.Request{URL: url + "/huge", Header: huge, WantBody: want}),
				c.Do(http1.Request{URL: url + "/next"}),
			}
			for i, f := range fs {
				r, err := await(t, l, f)
				if err != nil {
					t.Fatalf("request %d: %v", i, err)
				}
				if i == 1 && (string(r.Body) != "ok" || r.Reused) {
					t.Fatalf("second request: %q, reused %v; want ok on a new connection", r.Body, r.Reused)
				}
			}
			mu.Lock()
			defer mu.Unlock()
			if len(arrived) != 2 || arrived[1] != "conn 2: /next" {
				t.Fatalf("the server saw %q; want /next on a second connection", arrived)
			}
		})
	}
}
