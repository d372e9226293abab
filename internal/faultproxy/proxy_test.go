package faultproxy_test

import (
	"bytes"
	"io"
	"net"
	"testing"
	"time"

	"loopkit/internal/faultproxy"
	"loopkit/internal/redistest"
)

// echoServer answers every byte it reads with the same byte.
func echoServer(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { io.Copy(c, c); c.Close() }()
		}
	}()
	return ln.Addr().String()
}

func dial(t *testing.T, addr string) net.Conn {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(10 * time.Second))
	return c
}

// A cut at byte 5 of the way down lets exactly five bytes through, then
// the connection ends; the next connection, with no fault, is whole.
func TestCutAtAByte(t *testing.T) {
	p := faultproxy.New(t, echoServer(t), faultproxy.Faults{{{Dir: faultproxy.Down, At: 5, Action: faultproxy.Cut}}})
	c := dial(t, p.Addr())
	c.Write([]byte("0123456789"))
	got, _ := io.ReadAll(c)
	if string(got) != "01234" {
		t.Fatalf("through a cut at 5: %q", got)
	}
	c2 := dial(t, p.Addr())
	c2.Write([]byte("abc"))
	buf := make([]byte, 3)
	if _, err := io.ReadFull(c2, buf); err != nil || string(buf) != "abc" {
		t.Fatalf("the next connection: %q, %v", buf, err)
	}
}

// A stall keeps the connection open and passes nothing more, either way.
func TestStallPassesNothingMore(t *testing.T) {
	p := faultproxy.New(t, echoServer(t), faultproxy.Faults{{{Dir: faultproxy.Down, At: 2, Action: faultproxy.Stall}}})
	c := dial(t, p.Addr())
	c.Write([]byte("abcd"))
	buf := make([]byte, 2)
	if _, err := io.ReadFull(c, buf); err != nil || string(buf) != "ab" {
		t.Fatalf("before the stall: %q, %v", buf, err)
	}
	c.Write([]byte("ef"))
	c.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
	n, err := c.Read(buf)
	if ne, ok := err.(net.Error); n != 0 || !ok || !ne.Timeout() {
		t.Fatalf("after the stall: %d bytes, %v; want nothing and a timeout (the connection open)", n, err)
	}
}

// A delay holds the bytes from its offset for its time; none are lost.
func TestDelayHoldsThenPasses(t *testing.T) {
	const hold = 200 * time.Millisecond
	p := faultproxy.New(t, echoServer(t), faultproxy.Faults{{{Dir: faultproxy.Down, At: 3, Action: faultproxy.Delay, For: hold}}})
	c := dial(t, p.Addr())
	start := time.Now()
	c.Write([]byte("abcdef"))
	got := make([]byte, 6)
	if _, err := io.ReadFull(c, got); err != nil || string(got) != "abcdef" {
		t.Fatalf("through a delay: %q, %v", got, err)
	}
	if took := time.Since(start); took < hold {
		t.Fatalf("the bytes came back in %v, before the delay of %v", took, hold)
	}
}

// A blackhole stalls what is open and what comes; Restore lets new
// connections through.
func TestBlackhole(t *testing.T) {
	p := faultproxy.New(t, echoServer(t), nil)
	old := dial(t, p.Addr())
	old.Write([]byte("x"))
	io.ReadFull(old, make([]byte, 1))
	p.Blackhole()
	for _, c := range []net.Conn{old, dial(t, p.Addr())} {
		c.Write([]byte("y"))
		c.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
		if n, err := c.Read(make([]byte, 1)); n != 0 || err == nil {
			t.Fatalf("through a blackhole: %d bytes, %v", n, err)
		}
	}
	p.Restore()
	c := dial(t, p.Addr())
	c.Write([]byte("z"))
	if _, err := io.ReadFull(c, make([]byte, 1)); err != nil {
		t.Fatalf("after Restore: %v", err)
	}
}

// Replies finds the reply to the second ECHO of "b" in a pipeline, on a
// real Redis, and cuts it one byte before its end: the first reply and
// everything before the cut arrive, nothing after.
func TestRepliesCutsTheReplyToAChosenCommand(t *testing.T) {
	rds := redistest.Start(t, redistest.Options{})
	rule := &faultproxy.Replies{
		Match:  func(cmd []string) bool { return len(cmd) == 2 && cmd[0] == "ECHO" && cmd[1] == "bb" },
		Faults: []*faultproxy.Fault{nil, {At: -1, Action: faultproxy.Cut}},
	}
	p := faultproxy.New(t, rds.Addr(), rule)
	c := dial(t, p.Addr())
	c.Write([]byte("*2\r\n$4\r\nECHO\r\n$2\r\nbb\r\n*2\r\n$4\r\nECHO\r\n$1\r\na\r\n*2\r\n$4\r\nECHO\r\n$2\r\nbb\r\n*1\r\n$4\r\nPING\r\n"))
	got, _ := io.ReadAll(c)
	if want := "$2\r\nbb\r\n$1\r\na\r\n$2\r\nbb\r"; string(got) != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	fired := rule.Fired()
	if len(fired) != 1 || fired[0].Len != 8 || fired[0].At != 7 || !bytes.Equal([]byte(fired[0].Cmd[1]), []byte("bb")) {
		t.Fatalf("fired: %+v", fired)
	}
}
