package canned

import (
	"bytes"
	"net"
	"testing"
)

// The server's promise: a request on an open connection costs it no
// allocation. The client here allocates nothing either (a net.Conn's
// Write and Read do not, once the connection is open), so the count is
// the server's. Checked by hand: a make per request in serve fails it.
func TestNoAllocations(t *testing.T) {
	s := Start(t)
	c, err := net.Dial("tcp", s.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	request := []byte("GET /delay?ms=0 HTTP/1.1\r\nHost: " + s.Addr() + "\r\n\r\n")
	buf := make([]byte, 4096)
	var failed error
	roundTrip := func() {
		if _, err := c.Write(request); err != nil {
			failed = err
			return
		}
		for have := 0; have < len(Response); {
			n, err := c.Read(buf[have:])
			if err != nil {
				failed = err
				return
			}
			have += n
		}
	}
	roundTrip() // the connection's buffers are made on its first request
	allocs := testing.AllocsPerRun(200, roundTrip)
	if failed != nil {
		t.Fatal(failed)
	}
	if !bytes.Equal(buf[:len(Response)], []byte(Response)) {
		t.Fatalf("got %q", buf[:len(Response)])
	}
	if got := s.Requests(); got != 202 { // AllocsPerRun runs once more to warm up
		t.Errorf("the server counted %d requests, want 202", got)
	}
	if allocs != 0 {
		t.Errorf("a request costs %v allocations, want 0", allocs)
	}
}

// Pipelined requests, several in one read, are each answered, in order.
func TestPipelined(t *testing.T) {
	s := Start(t)
	c, err := net.Dial("tcp", s.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	one := "GET / HTTP/1.1\r\nHost: x\r\n\r\n"
	if _, err := c.Write([]byte(one + one + one)); err != nil {
		t.Fatal(err)
	}
	want := Response + Response + Response
	buf := make([]byte, len(want))
	for have := 0; have < len(want); {
		n, err := c.Read(buf[have:])
		if err != nil {
			t.Fatal(err)
		}
		have += n
	}
	if string(buf) != want {
		t.Fatalf("got %q", buf)
	}
}
