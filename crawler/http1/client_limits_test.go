package http1_test

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"loopkit/crawler/http1"
)

// A server that sends its head a byte every 20 ms never goes silent for
// the read timeout; the header timeout, counted from the request written
// to the end of the head, stops it. (Not parallel: with the header
// timeout equal to the read timeout, a 300 ms stall of a machine busy
// with other tests would turn it into a read timeout.)
func TestHeadDribbledAByteAtATimeHitsTheHeaderTimeout(t *testing.T) {
	url := rawServer(t, func(c net.Conn, r *bufio.Reader) {
		readRequest(r)
		c.Write([]byte("HTTP/1.1 200 OK\r\nX-Slow: "))
		for range 500 {
			time.Sleep(20 * time.Millisecond)
			if _, err := c.Write([]byte("a")); err != nil {
				return
			}
		}
	})
	for _, opts := range []http1.Options{
		{ReadTimeout: time.Second, HeaderTimeout: 300 * time.Millisecond},
		{ReadTimeout: 300 * time.Millisecond}, // the header timeout defaults to the read timeout
	} {
		l, c := onLoop(t, opts)
		_, err := get(t, l, c, url)
		var te *http1.TimeoutError
		if !errors.As(err, &te) || te.Phase != "header" || te.After != 300*time.Millisecond {
			t.Fatalf("%+v: got %v, want a header timeout after 300ms", opts, err)
		}
	}
}

// The header timeout ends with the head: a body that takes longer than it
// to arrive, a byte every 100 ms for 3 s, is not cut.
func TestHeaderTimeoutDoesNotCoverTheBody(t *testing.T) {
	t.Parallel()
	if underRace {
		t.Skip("a dribble 100 ms apart against a 2 s read timeout is timing: the run without -race checks it")
	}
	url := rawServer(t, dribble)
	// A second for the head, which comes at once: a busy machine may take
	// a few hundred milliseconds to connect and answer.
	l, c := onLoop(t, http1.Options{ReadTimeout: 2 * time.Second, HeaderTimeout: time.Second})
	r, err := get(t, l, c, url)
	if err != nil || string(r.Body) != strings.Repeat("x", 30) {
		t.Fatalf("got %v, want the whole body after 3 s", err)
	}
}

// One-byte chunks, each with 4 KiB of extensions, without end: the client
// stops at its body limit, which counts the framing, instead of reading
// until the total timeout (before this limit, a client read 4.2 GB at
// a limit of 1 MiB).
func TestChunkExtensionFloodStopsAtTheBodyLimit(t *testing.T) {
	const serverCap = 64 << 20 // so that a broken client still ends the test
	var written atomic.Int64
	chunk := []byte("1;" + strings.Repeat("e", 4000) + "\r\nx\r\n")
	url := rawServer(t, func(c net.Conn, r *bufio.Reader) {
		readRequest(r)
		fmt.Fprint(c, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
		for written.Load() < serverCap {
			n, err := c.Write(chunk)
			written.Add(int64(n))
			if err != nil {
				return
			}
		}
	})
	l, c := onLoop(t, http1.Options{Limits: http1.Limits{MaxBodyBytes: 64 << 10}})
	_, err := get(t, l, c, url)
	if !errors.Is(err, http1.ErrBodyTooLarge) {
		t.Fatalf("got %v, want ErrBodyTooLarge", err)
	}
	// What the server wrote is what the client read plus what the socket
	// buffers held when it closed: a few MiB at most on loopback.
	if w := written.Load(); w >= serverCap/4 {
		t.Fatalf("the server wrote %d bytes before the client stopped reading", w)
	}
}
