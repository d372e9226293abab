package netpoll_test

import (
	"net/netip"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"loopkit/netpoll"
)

// connectedPair returns a connected loopback client socket, closed when
// the test ends, and the accepted server socket, which the caller closes.
func connectedPair(t *testing.T) (client, server int) {
	t.Helper()
	lfd, addr, err := netpoll.Listen(netip.MustParseAddrPort("127.0.0.1:0"), 8)
	if err != nil {
		t.Fatal(err)
	}
	defer netpoll.Close(lfd)
	client, err = netpoll.Socket(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { netpoll.Close(client) })
	if err := netpoll.Connect(client, addr); err != nil && err != netpoll.ErrInProgress {
		t.Fatal(err)
	}
	// A bound on a hang, not a measurement: loopback accepts at once.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		if server, _, err = netpoll.Accept(lfd); err != netpoll.ErrWouldBlock || time.Now().After(deadline) {
			break
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	return client, server
}

// Socket turns Nagle's algorithm off: a request is written whole, and
// holding its last small segment back for an acknowledgement would only
// add a round trip's wait.
func TestSocketHasNagleOff(t *testing.T) {
	client, server := connectedPair(t)
	defer netpoll.Close(server)
	v, err := unix.GetsockoptInt(client, unix.IPPROTO_TCP, unix.TCP_NODELAY)
	if err != nil {
		t.Fatal(err)
	}
	if v == 0 {
		t.Fatal("TCP_NODELAY is off: Nagle's algorithm would delay small writes")
	}
}

// A write to a connection that can no longer be written (EPIPE) is a
// reset to IsReset, as a connection the peer reset (ECONNRESET) is: the
// crawler files both under "reset". The write side is shut here, which
// gives EPIPE every time; a peer's close under a write gives it too, but
// only after its RST has come back.
func TestIsResetKnowsBrokenPipeAndReset(t *testing.T) {
	client, server := connectedPair(t)
	if err := netpoll.ShutdownWrite(client); err != nil {
		t.Fatal(err)
	}
	_, err := netpoll.Write(client, []byte("x"))
	if err == nil || !netpoll.IsReset(err) {
		t.Errorf("a write after shutdown: %v; IsReset %v, want an error that is a reset", err, netpoll.IsReset(err))
	}
	if netpoll.IsRefused(err) {
		t.Errorf("%v is a refused connection to IsRefused", err)
	}

	// The peer resets: the next read says ECONNRESET.
	if err := netpoll.ResetOnClose(server); err != nil {
		t.Fatal(err)
	}
	if err := netpoll.Close(server); err != nil {
		t.Fatal(err)
	}
	var rerr error
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		if _, rerr = netpoll.Read(client, make([]byte, 8)); rerr != netpoll.ErrWouldBlock || time.Now().After(deadline) {
			break
		}
	}
	if !netpoll.IsReset(rerr) {
		t.Errorf("a read after the peer's reset: %v; want an error that is a reset", rerr)
	}
}
