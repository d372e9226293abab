//go:build workshop

package echo_test

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"io"
	"net"
	"net/netip"
	"os"
	"strconv"
	"strings"
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
	// The loop reports its misuse here: a callback that panicked, or an
	// fd closed while the loop still watched it.
	l.SetPanicHandler(func(p loop.PanicInfo) {
		t.Errorf("the loop reports: %v", p.Value)
	})
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
			// The loop closes what it still watches: the server's fds,
			// if Close left some registered, or closed them behind the
			// loop's back (epoll then refuses to forget them: EBADF).
			if err := l.Close(); err != nil {
				t.Errorf("closing the loop after the server: %v", err)
			}
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

// The client sends 8 MiB, more than the server's echo can put in the
// kernel's buffers while the client reads nothing: the server's send
// buffer grows to 4 MiB at most on Linux, and the client keeps its
// receive buffer small. So the server's writes come up short — some take
// part of what they are given, others nothing. The client reads nothing
// until it has sent it all (or for a moment, if the server's backpressure
// stops it sooner), and then for half a second more: time for the server
// to meet a full socket, however much of the 8 MiB the kernel took off
// the client's hands at once. Every byte must still come back, in order.
// (The waits are not speed bets: a right answer passes whatever they are.)
func TestLargeEchoSurvivesPartialWrites(t *testing.T) {
	addr, _ := start(t)
	c := dial(t, addr)
	c.SetReadBuffer(64 << 10)
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
	case <-time.After(200 * time.Millisecond):
	}
	time.Sleep(500 * time.Millisecond)
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
	c.SetReadDeadline(time.Now().Add(2 * time.Second)) // a guard: on loopback a close arrives at once
	if n, err := c.Read(make([]byte, 1)); err == nil {
		t.Errorf("read %d bytes from a connection the server closed", n)
	} else if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Error("the connection is still open after Close: the read waited until the test's deadline")
	}
	if c2, err := net.Dial("tcp", addr); err == nil {
		c2.Close()
		t.Error("the server still accepts connections after Close")
	}
}

// Backpressure. The client writes 64 KiB at a time and reads nothing. Once
// the kernel's buffers between the two are full, the server's echo cannot
// be written, and the server must stop reading: the client's writes then
// stall. A server that reads on regardless keeps everything in its own
// memory, and the client gets all 32 MiB out. Everything written must
// still come back once the client reads.
func TestAClientThatNeverReadsIsNotBufferedWithoutLimit(t *testing.T) {
	addr, _ := start(t)
	c := dial(t, addr)
	c.SetReadBuffer(64 << 10)  // small kernel buffers at our end, so that
	c.SetWriteBuffer(64 << 10) // what is in flight is mostly at the server's
	chunk, sent, limit := writeUntilStalled(c)
	if sent >= limit {
		t.Fatalf("the client wrote all %d MiB without reading a byte: the server reads on while its echo cannot be written", limit>>20)
	}
	t.Logf("the client's writes stalled after %.1f MiB", float64(sent)/(1<<20))
	c.SetDeadline(time.Now().Add(wstest.HangGuard))
	c.CloseWrite()
	got, err := io.ReadAll(c)
	if err != nil {
		t.Fatalf("after %d of %d bytes: %v", len(got), sent, err)
	}
	if len(got) != sent {
		t.Fatalf("echoed %d bytes, want the %d written", len(got), sent)
	}
	for i, b := range got {
		if b != chunk[i%len(chunk)] {
			t.Fatalf("echoed byte %d is %d, want %d", i, b, chunk[i%len(chunk)])
		}
	}
}

// writeUntilStalled writes 64 KiB at a time to c and reads nothing, until
// a write stalls (the server stopped reading) or limit bytes, more than
// the kernel's buffers at both ends hold, are out. It returns the chunk it
// wrote over and over, how much was written, and the limit.
func writeUntilStalled(c *net.TCPConn) (chunk []byte, sent, limit int) {
	chunk = make([]byte, 64<<10)
	for i := range chunk {
		chunk[i] = byte(i * 7)
	}
	limit = kernelBuffers() + 4<<20
	for sent < limit {
		// A write that makes no progress for a second has stalled: the
		// server stopped reading. A guard, not a speed test: a server
		// that keeps reading never lets a write wait that long.
		c.SetWriteDeadline(time.Now().Add(time.Second))
		n, err := c.Write(chunk)
		sent += n
		if err != nil {
			break
		}
	}
	return chunk, sent, limit
}

// Close while a connection's echo waits for room: the server has stopped
// reading from it, and waits for it to be writable. Close must remove that
// writer before it closes the fd: a writer left behind makes the loop
// watch a closed fd, which it reports when it closes (EBADF), and whose
// number the next accepted connection would get, flush and all.
func TestCloseInTheMiddleOfBackpressure(t *testing.T) {
	addr, stop := start(t)
	c := dial(t, addr)
	c.SetReadBuffer(64 << 10)
	c.SetWriteBuffer(64 << 10)
	if _, sent, limit := writeUntilStalled(c); sent >= limit {
		t.Fatalf("the client wrote all %d MiB without reading a byte: the server reads on while its echo cannot be written", limit>>20)
	}
	stop() // it fails the test if the loop is left watching a closed fd
	c.SetReadDeadline(time.Now().Add(wstest.HangGuard))
	_, err := io.Copy(io.Discard, c) // the echo in flight, then EOF or a reset
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Error("the connection is still open after Close")
	}
}

// kernelBuffers is the most the kernel may buffer between the test and
// the server: the largest receive buffer and the largest send buffer it
// grows the server's socket to, and our own end's, which the test keeps
// small (the kernel doubles what it is asked for). Linux says so in /proc;
// elsewhere, a generous guess.
func kernelBuffers() int {
	total := 4 * 64 << 10
	for _, f := range []string{"/proc/sys/net/ipv4/tcp_rmem", "/proc/sys/net/ipv4/tcp_wmem"} {
		b, err := os.ReadFile(f)
		fields := strings.Fields(string(b))
		if err != nil || len(fields) != 3 {
			return 64 << 20
		}
		n, err := strconv.Atoi(fields[2])
		if err != nil {
			return 64 << 20
		}
		total += n
	}
	return total
}
