package http1_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"

	"loopkit/crawler/http1"
)

func TestKeepAliveReusesOneConnection(t *testing.T) {
	srv := newCountingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "page %s", r.URL.Path)
	}))
	l, c := onLoop(t, http1.Options{})
	for i := range 100 {
		r, err := get(t, l, c, fmt.Sprintf("%s/p%d", srv.URL, i))
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		if string(r.Body) != fmt.Sprintf("page /p%d", i) || r.StatusCode != 200 {
			t.Fatalf("request %d: %d %q", i, r.StatusCode, r.Body)
		}
		if r.Reused != (i > 0) {
			t.Fatalf("request %d: Reused = %v", i, r.Reused)
		}
	}
	if n := srv.conns.Load(); n != 1 {
		t.Fatalf("server saw %d connections for 100 sequential requests, want 1", n)
	}
}

func TestRequestHeadersSent(t *testing.T) {
	seen := make(chan *http.Request, 1)
	srv := newCountingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen <- r.Clone(r.Context())
	}))
	l, c := onLoop(t, http1.Options{UserAgent: "loopkit-test (+mailto:ops@example.invalid)"})
	if _, err := get(t, l, c, srv.URL+"/a%20b?q=1"); err != nil {
		t.Fatal(err)
	}
	// A channel, not shared variables: the race detector cannot see the
	// happens-before that the socket provides.
	req := <-seen
	got, host := req.Header, req.Host
	if req.URL.RequestURI() != "/a%20b?q=1" {
		t.Fatalf("request target %q", req.URL.RequestURI())
	}
	if got.Get("User-Agent") != "loopkit-test (+mailto:ops@example.invalid)" || got.Get("Accept-Encoding") != "gzip" ||
		!strings.Contains(got.Get("Accept"), "text/html") || host != strings.TrimPrefix(srv.URL, "http://") {
		t.Fatalf("server saw host %q, headers %v", host, got)
	}
}

// The request head carries Host, then the client's own fields, then the
// request's, each group in the order it was given: as a server (or its
// log) reads them line by line.
func TestRequestFieldsGoInOrder(t *testing.T) {
	names := make(chan []string, 1)
	url := rawServer(t, func(c net.Conn, r *bufio.Reader) {
		head, err := readRequest(r)
		if err != nil {
			names <- nil
			return
		}
		var got []string
		for _, line := range strings.Split(strings.TrimSuffix(head, "\r\n\r\n"), "\r\n")[1:] {
			name, _, _ := strings.Cut(line, ":")
			got = append(got, name)
		}
		names <- got
		io.WriteString(c, "HTTP/1.1 204 No Content\r\n\r\n")
	})
	l, c := onLoop(t, http1.Options{})
	extra := http1.Header{{"X-First", "1"}, {"X-Second", "2"}}
	if _, err := await(t, l, c.Do(http1.Request{URL: url + "/", Header: extra})); err != nil {
		t.Fatal(err)
	}
	got := <-names
	want := []string{"Host", "User-Agent", "Accept", "Accept-Encoding", "X-First", "X-Second"}
	if !slices.Equal(got, want) {
		t.Fatalf("fields in the order %q, want %q", got, want)
	}
}

// A User-Agent that would break a line in the request head (an operator's
// typo, or a config file someone else wrote) fails every request before
// anything is dialled: the client checks its own fields once, when it is
// made, and never sends them unchecked.
func TestABadUserAgentFailsEveryRequestUnsent(t *testing.T) {
	srv := newCountingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	l, c := onLoop(t, http1.Options{UserAgent: "bot\r\nX-Injected: 1"})
	for i := range 2 {
		if _, err := get(t, l, c, srv.URL); err == nil || !strings.Contains(err.Error(), "control byte") {
			t.Fatalf("request %d: %v, want the User-Agent refused", i, err)
		}
	}
	if n := srv.conns.Load(); n != 0 {
		t.Fatalf("the server saw %d connections, want none", n)
	}
}

// A request's own bad parts — a field that would inject another, a
// method that is not a token — fail it before anything is dialled, and
// leave the client's next request as good as ever.
func TestABadRequestFailsUnsent(t *testing.T) {
	srv := newCountingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }))
	l, c := onLoop(t, http1.Options{})
	for _, req := range []http1.Request{
		{URL: srv.URL, Header: http1.Header{{Name: "X-Tag", Value: "a\r\nX-Injected: 1"}}},
		{URL: srv.URL, Method: "GE T"},
	} {
		if r, err := await(t, l, c.Do(req)); err == nil {
			t.Fatalf("%+v: %+v, want it refused", req, r)
		}
	}
	if n := srv.conns.Load(); n != 0 {
		t.Fatalf("the server saw %d connections, want none", n)
	}
	if r, err := get(t, l, c, srv.URL); err != nil || string(r.Body) != "ok" {
		t.Fatalf("a good request after them: %v", err)
	}
}

func TestChunkedBody(t *testing.T) {
	srv := newCountingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for i := range 5 {
			fmt.Fprintf(w, "part%d;", i)
			w.(http.Flusher).Flush() // no Content-Length: net/http chunks it
		}
	}))
	l, c := onLoop(t, http1.Options{})
	r, err := get(t, l, c, srv.URL)
	if err != nil || string(r.Body) != "part0;part1;part2;part3;part4;" {
		t.Fatalf("got %v, %v", r, err)
	}
	if r.Header.Get("Transfer-Encoding") != "chunked" {
		t.Fatalf("the server did not chunk: %v", r.Header)
	}
}

func TestCloseDelimitedHTTP10(t *testing.T) {
	url := rawServer(t, answer("HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the end"))
	l, c := onLoop(t, http1.Options{})
	r, err := get(t, l, c, url)
	if err != nil || string(r.Body) != "until the end" || !r.Close {
		t.Fatalf("got %+v, %v", r, err)
	}
	if n := c.OpenConns(); n != 0 {
		t.Fatalf("%d connections left open after a close-delimited response", n)
	}
}

func TestHeadAndBodilessStatuses(t *testing.T) {
	srv := newCountingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/204":
			w.WriteHeader(204)
		case "/304":
			w.WriteHeader(304)
		default:
			w.Header().Set("Content-Length", "11")
			w.Write([]byte("hello world"))
		}
	}))
	l, c := onLoop(t, http1.Options{})
	r, err := await(t, l, c.Do(http1.Request{Method: "HEAD", URL: srv.URL + "/page"}))
	if err != nil || r.StatusCode != 200 || len(r.Body) != 0 || r.ContentLength != 11 {
		t.Fatalf("HEAD: %+v, %v", r, err)
	}
	for _, code := range []int{204, 304} {
		r, err := get(t, l, c, fmt.Sprintf("%s/%d", srv.URL, code))
		if err != nil || r.StatusCode != code || len(r.Body) != 0 {
			t.Fatalf("%d: %+v, %v", code, r, err)
		}
	}
	// The body-less responses left the connection in step: one connection.
	if srv.conns.Load() != 1 {
		t.Fatalf("%d connections, want 1", srv.conns.Load())
	}
}

func TestGzipBodyIsDecodedWithinTheLimit(t *testing.T) {
	page := strings.Repeat("<p>compressible</p>", 1000)
	srv := newCountingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		zw := gzip.NewWriter(w)
		zw.Write([]byte(page))
		zw.Close()
	}))
	l, c := onLoop(t, http1.Options{})
	r, err := get(t, l, c, srv.URL)
	if err != nil || string(r.Body) != page || !r.Decoded {
		t.Fatalf("gzip: %v (decoded %v, %d bytes)", err, r != nil && r.Decoded, len(r.Body))
	}
	// The same page decompresses past a 10 KiB limit: an error, not a cut.
	l2, small := onLoop(t, http1.Options{Limits: http1.Limits{MaxBodyBytes: 10 << 10}})
	_, err = get(t, l2, small, srv.URL)
	if !errors.Is(err, http1.ErrBodyTooLarge) {
		t.Fatalf("over the limit after decompression: %v", err)
	}
}

func TestRedirectIsReturnedNotFollowed(t *testing.T) {
	srv := newCountingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/old" {
			http.Redirect(w, r, "/new", http.StatusMovedPermanently)
			return
		}
		t.Errorf("the client followed the redirect to %s", r.URL.Path)
	}))
	l, c := onLoop(t, http1.Options{})
	r, err := get(t, l, c, srv.URL+"/old")
	if err != nil || r.StatusCode != 301 || r.Header.Get("Location") != "/new" {
		t.Fatalf("got %+v, %v", r, err)
	}
}

func TestCharsetAndTimings(t *testing.T) {
	srv := newCountingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<html><head><meta charset="windows-1252"></head><body>caf` + "\xe9" + `</body></html>`))
	}))
	l, c := onLoop(t, http1.Options{})
	r, err := get(t, l, c, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if cs := r.Charset(); cs != "windows-1252" {
		t.Fatalf("charset %q", cs)
	}
	tm := r.Timings
	if !(tm.Connect > 0 && tm.Connect <= tm.Written && tm.Written <= tm.FirstByte && tm.FirstByte <= tm.Done) {
		t.Fatalf("timings out of order: %+v", tm)
	}
	if !bytes.Contains(r.Body, []byte("caf\xe9")) {
		t.Fatal("the body was changed")
	}
}
