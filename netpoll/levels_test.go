package netpoll_test

import (
	"errors"
	"net/netip"
	"os"
	"syscall"
	"testing"
	"time"

	"loopkit/netpoll"
)

// Readiness is level-triggered on every poller: a writable socket is
// reported writable by each Wait, not only by the first after it became
// so; and a socket with nothing to read is not reported readable.
func TestWritableIsReportedByEveryWait(t *testing.T) {
	eachPoller(t, func(t *testing.T, p netpoll.Poller) {
		client, server := connectedPair(t)
		defer netpoll.Close(server)
		if err := p.Register(client, 1, netpoll.Writable); err != nil {
			t.Fatal(err)
		}
		if err := p.Register(server, 2, netpoll.Readable); err != nil {
			t.Fatal(err)
		}
		for i := range 2 {
			// A bound, not a bet: the socket is writable at once.
			events, err := p.Wait(2 * time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if len(events) != 1 || events[0].Token != 1 || events[0].Ready != netpoll.Writable {
				t.Fatalf("wait %d: %v, want only token 1 writable", i, events)
			}
		}
	})
}

// The errors of the system calls name the call, and keep the errno for
// errors.Is.
func TestErrorsNameTheirCallAndKeepTheErrno(t *testing.T) {
	buf := make([]byte, 4)
	_, rerr := netpoll.Read(-1, buf)
	_, werr := netpoll.Write(-1, buf)
	for call, err := range map[string]error{"read": rerr, "write": werr} {
		var se *os.SyscallError
		if !errors.As(err, &se) || se.Syscall != call || !errors.Is(err, syscall.EBADF) {
			t.Errorf("%s of fd -1: %v, want the %s call's EBADF", call, err, call)
		}
	}
	if err := netpoll.ConnectResult(-1); err == nil {
		t.Error("ConnectResult of fd -1 says the connect succeeded")
	}
}

// Deregister of an fd that was never registered matches both
// ErrNotRegistered and the errno the kernel (or the poll table) gave.
func TestNotRegisteredKeepsTheErrno(t *testing.T) {
	eachPoller(t, func(t *testing.T, p netpoll.Poller) {
		client, server := connectedPair(t)
		defer netpoll.Close(server)
		err := p.Deregister(client)
		if !errors.Is(err, netpoll.ErrNotRegistered) || !errors.Is(err, syscall.ENOENT) {
			t.Fatalf("Deregister of an fd never registered: %v, want ErrNotRegistered and ENOENT", err)
		}
	})
}

// A listener on IPv6 loopback says the port it was given, and the peer
// an accept sees is the client's, port included.
func TestListenAndAcceptOnIPv6SayTheirPorts(t *testing.T) {
	lfd, addr, err := netpoll.Listen(netip.MustParseAddrPort("[::1]:0"), 8)
	if err != nil {
		t.Skipf("no IPv6 loopback here: %v", err)
	}
	defer netpoll.Close(lfd)
	if addr.Port() == 0 || addr.Addr() != netip.IPv6Loopback() {
		t.Fatalf("bound to %v", addr)
	}
	_, server, peer := dial(t, lfd, addr)
	defer netpoll.Close(server)
	if peer.Port() == 0 || peer.Addr() != netip.IPv6Loopback() {
		t.Fatalf("accepted a peer %v", peer)
	}
}

// Close, ShutdownWrite and ResetOnClose of a bad fd fail, naming their
// call and keeping EBADF: a close that failed silently would hide a
// double close, which may have closed someone else's fd.
func TestSocketCallsOfABadFDFailNamingTheirCall(t *testing.T) {
	for call, err := range map[string]error{
		"close":      netpoll.Close(-1),
		"shutdown":   netpoll.ShutdownWrite(-1),
		"setsockopt": netpoll.ResetOnClose(-1),
	} {
		var se *os.SyscallError
		if !errors.As(err, &se) || se.Syscall != call || !errors.Is(err, syscall.EBADF) {
			t.Errorf("%s of fd -1: %v, want the %s call's EBADF", call, err, call)
		}
	}
}

// ConnectResult reports whatever error SO_ERROR holds, not only a
// refusal: here the reset of a connection whose peer closed it with RST.
func TestConnectResultReportsAReset(t *testing.T) {
	client, server := connectedPair(t)
	if err := netpoll.ResetOnClose(server); err != nil {
		t.Fatal(err)
	}
	if err := netpoll.Close(server); err != nil {
		t.Fatal(err)
	}
	// Wait for the RST without reading: a read would take the error.
	p, err := netpoll.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.Register(client, 1, netpoll.Readable); err != nil {
		t.Fatal(err)
	}
	defer p.Deregister(client)
	if evs, err := p.Wait(10 * time.Second); err != nil || len(evs) == 0 {
		t.Fatalf("hung: no reset after 10 s (%v)", err)
	}
	if err := netpoll.ConnectResult(client); !netpoll.IsReset(err) || netpoll.ErrName(err) != "ECONNRESET" {
		t.Fatalf("ConnectResult of a reset connection: %v, want ECONNRESET", err)
	}
}
