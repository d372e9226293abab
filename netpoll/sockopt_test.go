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
	client, server, _ = dial(t, lfd, addr)
	return client, server
}

// dial connects a new socket to addr, which the listener lfd serves, and
// returns it (closed when the test ends), the accepted socket (which the
// caller closes), and the client's address as the listener saw it.
func dial(t *testing.T, lfd int, addr netip.AddrPort) (client, server int, peer netip.AddrPort) {
	t.Helper()
	client, err := netpoll.Socket(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { netpoll.Close(client) })
	if err := netpoll.Connect(client, addr); err != nil && err != netpoll.ErrInProgress {
		t.Fatal(err)
	}
	// A bound on a hang, not a measurement: loopback accepts at once.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		if server, peer, err = netpoll.Accept(lfd); err != netpoll.ErrWouldBlock || time.Now().After(deadline) {
			break
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	return client, server, peer
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

// An IPv4 address written as IPv6 (::ffff:127.0.0.1, as a resolver may
// hand it out) is an IPv4 address: Socket makes an IPv4 socket for it,
// and Connect reaches a listener on 127.0.0.1 through it. An IPv6 socket
// could not connect to an IPv4 sockaddr at all.
func TestMappedAddressGetsAnIPv4Socket(t *testing.T) {
	lfd, addr, err := netpoll.Listen(netip.MustParseAddrPort("127.0.0.1:0"), 8)
	if err != nil {
		t.Fatal(err)
	}
	defer netpoll.Close(lfd)
	mapped := netip.AddrPortFrom(netip.AddrFrom16(addr.Addr().As16()), addr.Port())
	if !mapped.Addr().Is4In6() {
		t.Fatalf("%v is not v4-mapped", mapped)
	}
	client, server, peer := dial(t, lfd, mapped)
	defer netpoll.Close(server)
	sa, err := unix.Getsockname(client)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := sa.(*unix.SockaddrInet4); !ok {
		t.Fatalf("the socket for %v has a %T address, want an IPv4 one", mapped, sa)
	}
	if err := netpoll.ConnectResult(client); err != nil {
		t.Fatalf("connect through %v: %v", mapped, err)
	}
	if !peer.Addr().Is4() || peer.Addr() != addr.Addr() {
		t.Fatalf("the listener saw %v connect, want 127.0.0.1", peer)
	}
}

// A listener binds a port that connections of an earlier listener on it
// still hold — closed by the server first, so its side lingers in
// TIME_WAIT for a minute — as a server restarted on its fixed port must
// (SO_REUSEADDR). Two listeners on one port at once are still refused.
func TestListenerRebindsAPortItsOldConnectionsHold(t *testing.T) {
	lfd, addr, err := netpoll.Listen(netip.MustParseAddrPort("127.0.0.1:0"), 8)
	if err != nil {
		t.Fatal(err)
	}
	client, server, _ := dial(t, lfd, addr)
	netpoll.Close(server) // the server closes first: its side lingers
	var n int
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		if n, err = netpoll.Read(client, make([]byte, 8)); err != netpoll.ErrWouldBlock || time.Now().After(deadline) {
			break
		}
	}
	if n != 0 || err != nil {
		t.Fatalf("the client read %d bytes, %v; want the server's EOF", n, err)
	}
	netpoll.Close(client)
	netpoll.Close(lfd)

	again, bound, err := netpoll.Listen(addr, 8)
	if err != nil {
		t.Fatalf("listening again on %v, which a closed connection holds: %v", addr, err)
	}
	defer netpoll.Close(again)
	if bound != addr {
		t.Fatalf("bound to %v, want %v", bound, addr)
	}
	if second, _, err := netpoll.Listen(addr, 8); err == nil {
		netpoll.Close(second)
		t.Fatalf("a second listener on %v while the first listens", addr)
	}
}

// readReady reads fd once it is readable, as a poller of its own sees it:
// a test waits for the bytes to arrive, not for a time that is usually
// enough.
func readReady(t *testing.T, fd int, buf []byte) (int, error) {
	t.Helper()
	p, err := netpoll.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.Register(fd, 1, netpoll.Readable); err != nil {
		t.Fatal(err)
	}
	defer p.Deregister(fd)
	if evs, err := p.Wait(10 * time.Second); err != nil || len(evs) == 0 {
		t.Fatalf("hung: fd %d not readable after 10 s (%v)", fd, err)
	}
	return netpoll.Read(fd, buf)
}

// ShutdownWrite closes the sending half only (half-close, as an HTTP/1.0
// client does after its request): the peer reads EOF, and its answer
// still reaches the socket that shut its writing side.
func TestShutdownWriteLeavesTheReadingSideOpen(t *testing.T) {
	client, server := connectedPair(t)
	defer netpoll.Close(server)
	if err := netpoll.ShutdownWrite(client); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	if n, err := readReady(t, server, buf); n != 0 || err != nil {
		t.Fatalf("the peer read %q, %v; want EOF", buf[:n], err)
	}
	if _, err := netpoll.Write(server, []byte("answer")); err != nil {
		t.Fatal(err)
	}
	if n, err := readReady(t, client, buf); err != nil || string(buf[:n]) != "answer" {
		t.Fatalf("after ShutdownWrite the client read %q, %v; want the peer's answer", buf[:n], err)
	}
}

// A non-blocking connect to a port nobody listens on: Connect says it is
// in progress (or refused at once, as loopback may), and once the socket
// is writable ConnectResult reads the refusal from SO_ERROR — the socket
// being writable says only that the attempt is over.
func TestConnectResultReadsTheRefusal(t *testing.T) {
	lfd, addr, err := netpoll.Listen(netip.MustParseAddrPort("127.0.0.1:0"), 8)
	if err != nil {
		t.Fatal(err)
	}
	netpoll.Close(lfd) // nothing listens on addr now
	fd, err := netpoll.Socket(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer netpoll.Close(fd)
	switch err := netpoll.Connect(fd, addr); {
	case netpoll.IsRefused(err):
		t.Skip("refused at once: this kernel did not make the connect wait")
	case err != netpoll.ErrInProgress:
		t.Fatalf("connect to a closed port: %v", err)
	}
	p, err := netpoll.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.Register(fd, 1, netpoll.Writable); err != nil {
		t.Fatal(err)
	}
	defer p.Deregister(fd)
	if evs, err := p.Wait(10 * time.Second); err != nil || len(evs) == 0 {
		t.Fatalf("hung: the connect was not over after 10 s (%v)", err)
	}
	if err := netpoll.ConnectResult(fd); !netpoll.IsRefused(err) || netpoll.ErrName(err) != "ECONNREFUSED" {
		t.Fatalf("ConnectResult after a refused connect: %v, want ECONNREFUSED", err)
	}
}
