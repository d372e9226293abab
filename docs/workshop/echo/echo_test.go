//go:build workshop

package echo_test

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"io"
	"net"
	"net/netip"
	"sync"
	"testing"
	"time"

	"loopkit/docs/workshop/echo"
	"loopkit/docs/workshop/internal/wstest"
	"loopkit/loop"
)

// start runs an echo server on a loop of its own goroutine. The test talks
// to it over ordinary Go sockets, as any client would; stop closes the
// server on the loop and waits for the loop to end.
func start(t *testing.T) (addr string, stop func()) {
	t.Helper()
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := echo.Listen(l, netip.MustParseAddrPort("127.0.0.1:0"))
	if err != nil {
		l.Close()
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- l.Run() }() // from here on, the loop is that goroutine's
	var once sync.Once
	stop = func() {
		once.Do(func() {
			l.CallSoonThreadsafe(func() {
				if err := s.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
				l.Stop()
			})
			if err := <-done; err != nil {
				t.Error(err)
			}
			l.Close()
		})
	}
	t.Cleanup(stop)
	return s.Addr().String(), stop
}

func dial(t *testing.T, addr string) *net.TCPConn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	c.SetDeadline(time.Now().Add(wstest.HangGuard)) // a hang guard, not a speed test
	t.Cleanup(func() { c.Close() })
	return c.(*net.TCPConn)
}

func TestEchoesEachMessageInOrder(t *testing.T) {
	addr, _ := start(t)
	c := dial(t, addr)
	for i := range 5 {
		msg := fmt.Sprintf("message %d\n", i)
		if _, err := io.WriteString(c, msg); err != nil {
			t.Fatal(err)
		}
		got := make([]byte, len(msg))
		if _, err := io.ReadFull(c, got); err != nil || string(got) != msg {
			t.Fatalf("echo of %q: %q, %v", msg, got, err)
		}
	}
}

func TestClosesAfterEchoingWhenTheClientIsDone(t *testing.T) {
	addr, _ := start(t)
	c := dial(t, addr)
	io.WriteString(c, "last words")
	c.CloseWrite() // "that is all": the server echoes the rest, then closes
	got, err := io.ReadAll(c)
	if err != nil || string(got) != "last words" {
		t.Fatalf("read %q, %v; want the echo and then EOF", got, err)
	}
}

func TestManyClientsAtOnce(t *testing.T) {
	addr, _ := start(t)
	var wg sync.WaitGroup
	for i := range 20 {
		c := dial(t, addr)
		wg.Add(1)
		go func() {
			defer wg.Done()
			msg := bytes.Repeat([]byte{byte('a' + i)}, 1000+i)
			c.Write(msg)
			c.CloseWrite()
			got, err := io.ReadAll(c)
			if err != nil || !bytes.Equal(got, msg) {
				t.Errorf("client %d: echo of %d bytes came back as %d bytes (%v)", i, len(msg), len(got), err)
			}
		}()
	}
	wg.Wait()
}

// The client sends 8 MiB, more than the kernel buffers between the two
// hold, and reads nothing until it has sent it all (or for a moment, if
// the server's backpressure stops it sooner). Meanwhile the server's
// writes fill the socket: some take only part of what they are given,
// others nothing. Every byte must still come back, in order.
func TestLargeEchoSurvivesPartialWrites(t *testing.T) {
	addr, _ := start(t)
	c := dial(t, addr)
	payload := make([]byte, 8<<20)
	rand.Read(payload)
	sent := make(chan struct{})
	go func() {
		defer close(sent)
		c.Write(payload)
		c.CloseWrite()
	}()
	select {
	case <-sent:
	case <-time.After(200 * time.Millisecond): // not a speed bet: the test passes either way
	}
	got, err := io.ReadAll(c)
	if err != nil {
		t.Fatalf("after %d bytes: %v", len(got), err)
	}
	if !bytes.Equal(got, payload) {
		t.Fatalf("echoed %d bytes, want the %d sent, byte for byte", len(got), len(payload))
	}
}

func TestCloseStopsListeningAndClosesConnections(t *testing.T) {
	addr, stop := start(t)
	c := dial(t, addr)
	io.WriteString(c, "ping")
	io.ReadFull(c, make([]byte, 4))
	stop()
	if n, err := c.Read(make([]byte, 1)); err == nil {
		t.Errorf("read %d bytes from a connection the server closed", n)
	}
	if c2, err := net.Dial("tcp", addr); err == nil {
		c2.Close()
		t.Error("the server still accepts connections after Close")
	}
}
