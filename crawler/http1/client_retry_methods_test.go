package http1_test

import (
	"bufio"
	"net"
	"strings"
	"sync/atomic"
	"testing"

	"loopkit/crawler/http1"
)

// Every idempotent method of RFC 9110 §9.2.2 is sent again when its pooled
// connection turns out to be dead, not only GET: a server that answers
// one request per connection and drops the second sees each method twice,
// the second time on a fresh connection.
func TestEveryIdempotentMethodIsRetriedOnAStaleConnection(t *testing.T) {
	for _, method := range []string{"GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"} {
		t.Run(method, func(t *testing.T) {
			var conns, requests atomic.Int64
			url := rawServer(t, func(c net.Conn, r *bufio.Reader) {
				conns.Add(1)
				head, err := readRequest(r)
				if err != nil {
					return
				}
				requests.Add(1)
				if strings.HasPrefix(head, "HEAD ") {
					c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n"))
				} else {
					c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
				}
				if _, err := readRequest(r); err == nil { // the second request: dropped
					requests.Add(1)
				}
			})
			l, c := onLoop(t, http1.Options{})
			if _, err := await(t, l, c.Do(http1.Request{Method: method, URL: url})); err != nil {
				t.Fatalf("first: %v", err)
			}
			r, err := await(t, l, c.Do(http1.Request{Method: method, URL: url}))
			if err != nil || !r.Retried {
				t.Fatalf("second, on the stale connection: %v (reply %+v)", err, r)
			}
			if n, m := conns.Load(), requests.Load(); n != 2 || m != 3 {
				t.Fatalf("server saw %d connections and %d requests, want 2 and 3", n, m)
			}
		})
	}
}
