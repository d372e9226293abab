package conns

import (
	"bufio"
	"net"
	"strings"
	"testing"

	"loopkit/crawler/http1"
	"loopkit/future"
	"loopkit/loop"
)

// heads serves one connection at a time on a loopback listener, answering
// each request with a tiny response and handing its head to the test.
func heads(t *testing.T) (addr string, got <-chan string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	out := make(chan string, 4)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			r := bufio.NewReader(c)
			var head strings.Builder
			for {
				line, err := r.ReadString('\n')
				if err != nil {
					break
				}
				head.WriteString(line)
				if line == "\r\n" {
					out <- head.String()
					head.Reset()
					c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
				}
			}
			c.Close()
		}
	}()
	return ln.Addr().String(), out
}

// The goroutine variants exist to do exactly the HTTP work of
// crawler/http1's Client, so the two must put the same bytes on the wire.
func TestTheSameRequestBytesAsTheLoopsClient(t *testing.T) {
	addr, got := heads(t)
	url := "http://" + addr + "/delay?ms=0&x=%41"

	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	client := http1.NewClient(l, http1.Options{})
	f := client.Do(http1.Request{URL: url})
	f.AddDoneCallback(func(*future.Future[*http1.Reply]) { l.Stop() })
	if err := l.Run(); err != nil {
		t.Fatal(err)
	}
	if reply, err := f.Result(); err != nil || reply.StatusCode != 200 {
		t.Fatalf("loop client: %v", err)
	}
	client.Close()
	fromLoop := <-got

	h, err := hostOf(url)
	if err != nil {
		t.Fatal(err)
	}
	c := newConn(h)
	defer c.close()
	resp, err := c.get(url)
	if err != nil || resp.Status != 200 || string(resp.Body) != "ok" {
		t.Fatalf("conns: %+v, %v", resp, err)
	}
	if fromConn := <-got; fromConn != fromLoop {
		t.Errorf("different requests:\nloop:  %q\nconns: %q", fromLoop, fromConn)
	}
	// The connection is kept alive and carries the next request.
	if _, err := c.get(url); err != nil || c.uses != 2 {
		t.Errorf("second request: %v, %d uses of the connection", err, c.uses)
	}
	if _, err := c.get("http://example.com/"); err != errOtherHost {
		t.Errorf("another host: %v", err)
	}
}
