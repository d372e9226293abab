package loop_test

import (
	"bytes"
	"errors"
	"net"
	"net/netip"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"loopkit/future"
	"loopkit/loop"
	"loopkit/netpoll"
)

func TestConnectToClosedPortIsRefusedViaSOError(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		fd, addr, err := l.Listen(loopback)
		if err != nil {
			t.Fatal(err)
		}
		l.SockClose(fd) // nothing listens on addr now
		_, err = runFor(t, l, l.SockConnect(addr))
		var sysErr *os.SyscallError
		if !errors.As(err, &sysErr) || sysErr.Syscall != "connect" || !strings.Contains(err.Error(), "connection refused") {
			t.Fatalf("got %v, want connect: connection refused", err)
		}
	})
}

func TestUnresolvableHostFailsWithResolverError(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		_, err := runFor(t, l, l.Resolve("no-such-host.invalid"))
		var dnsErr *net.DNSError
		if !errors.As(err, &dnsErr) || !strings.Contains(err.Error(), `resolve "no-such-host.invalid"`) {
			t.Fatalf("got %v, want a resolver error naming the host", err)
		}
		addrs, err := runFor(t, l, l.Resolve("::1"))
		if err != nil || len(addrs) != 1 || addrs[0] != netip.IPv6Loopback() {
			t.Fatalf("IP literal: %v %v", addrs, err)
		}
	})
}

// The system resolver may give an IPv4 address as IPv6 (Go's gives
// localhost from /etc/hosts as ::ffff:127.0.0.1); Resolve gives it as
// IPv4, which is what it is, so the caller's socket, its address family
// and every comparison agree.
func TestResolveGivesIPv4AddressesAsIPv4(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		addrs, err := runFor(t, l, l.Resolve("localhost"))
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range addrs {
			if a.Is4In6() {
				t.Errorf("localhost resolved to %v, an IPv4 address written as IPv6", a)
			}
		}
		if !slices.Contains(addrs, netip.MustParseAddr("127.0.0.1")) && !slices.Contains(addrs, netip.IPv6Loopback()) {
			t.Fatalf("localhost resolved to %v, neither 127.0.0.1 nor ::1", addrs)
		}
	})
}

func TestIPv6Loopback(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		lfd, addr, err := l.Listen(netip.MustParseAddrPort("[::1]:0"))
		if err != nil {
			t.Skipf("no IPv6 loopback here: %v", err)
		}
		acc := l.SockAccept(lfd)
		if _, err := runFor(t, l, l.SockConnect(addr)); err != nil {
			t.Fatal(err)
		}
		a, err := runFor(t, l, acc)
		if err != nil || !a.Peer.Addr().Is6() {
			t.Fatalf("accepted %v, %v", a, err)
		}
	})
}

// An IPv4 address written as IPv6 (::ffff:127.0.0.1, as some resolvers
// and configurations give it) reaches the IPv4 listener: the socket and
// its address are of one family.
func TestIPv4MappedAddressConnects(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		lfd, addr, err := l.Listen(loopback)
		if err != nil {
			t.Fatal(err)
		}
		defer l.SockClose(lfd)
		acc := l.SockAccept(lfd)
		mapped := netip.AddrPortFrom(netip.AddrFrom16(addr.Addr().As16()), addr.Port())
		fd, err := runFor(t, l, l.SockConnect(mapped))
		if err != nil {
			t.Fatalf("connect to %v: %v", mapped, err)
		}
		defer l.SockClose(fd)
		if _, err := runFor(t, l, acc); err != nil {
			t.Fatal(err)
		}
	})
}

// echo serves one connection with callbacks: recv, send it back, repeat
// until EOF, then close.
func echo(l *loop.Loop, fd int) {
	buf := make([]byte, 64<<10)
	var next func()
	next = func() {
		l.SockRecv(fd, buf).AddDoneCallback(func(f *future.Future[int]) {
			n, err := f.Result()
			if err != nil || n == 0 {
				l.SockClose(fd)
				return
			}
			l.SockSendAll(fd, buf[:n]).AddDoneCallback(func(s *future.Future[int]) {
				if s.Err() != nil {
					l.SockClose(fd)
					return
				}
				next()
			})
		})
	}
	next()
}

// readAll reads fd until EOF into a future.
func readAll(l *loop.Loop, fd int) *future.Future[[]byte] {
	out := future.New[[]byte](l)
	var got []byte
	buf := make([]byte, 32<<10)
	var next func()
	next = func() {
		l.SockRecv(fd, buf).AddDoneCallback(func(f *future.Future[int]) {
			n, err := f.Result()
			switch {
			case err != nil:
				out.SetError(err)
			case n == 0:
				out.SetResult(got)
			default:
				got = append(got, buf[:n]...)
				next()
			}
		})
	}
	next()
	return out
}

// 8 MiB does not fit in the socket buffers, so both sides see partial
// writes and the loop must finish them.
func TestEchoLargerThanSocketBuffers(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		client, server := socketPair(t, l)
		echo(l, server)
		payload := bytes.Repeat([]byte("0123456789abcdef"), 8<<20/16)
		reply := readAll(l, client)
		l.SockSendAll(client, payload).AddDoneCallback(func(f *future.Future[int]) {
			if f.Err() != nil {
				t.Error(f.Err())
			}
			netpoll.ShutdownWrite(client)
		})
		got, err := runFor(t, l, reply)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, payload) {
			t.Fatalf("echoed %d bytes, sent %d (equal: false)", len(got), len(payload))
		}
	})
}

func TestHalfCloseWithDataPendingReadsAllThenEOF(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		client, server := socketPair(t, l)
		mustSend(t, l, server, "last words")
		if err := netpoll.ShutdownWrite(server); err != nil {
			t.Fatal(err)
		}
		got, err := runFor(t, l, readAll(l, client))
		if err != nil || string(got) != "last words" {
			t.Fatalf("got %q, %v", got, err)
		}
		// The half-closed peer can still receive.
		mustSend(t, l, client, "ack")
		buf := make([]byte, 8)
		n, err := runFor(t, l, l.SockRecv(server, buf))
		if err != nil || string(buf[:n]) != "ack" {
			t.Fatalf("reply after half-close: %q, %v", buf[:n], err)
		}
	})
}

func TestClosingSocketFailsPendingRecvAndLoopGoesOn(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		client, _ := socketPair(t, l)
		recv := l.SockRecv(client, make([]byte, 8))
		second := l.SockRecv(client, make([]byte, 8))
		if second.Err() == nil || !strings.Contains(second.Err().Error(), "already has a recv") {
			t.Fatalf("a second concurrent recv: %v", second.Err())
		}
		l.CallLater(5*time.Millisecond, func() { l.SockClose(client) })
		_, err := runFor(t, l, recv)
		if !errors.Is(err, loop.ErrSocketClosed) {
			t.Fatalf("pending recv got %v, want ErrSocketClosed", err)
		}
		ok := future.New[bool](l)
		l.CallLater(time.Millisecond, func() { ok.SetResult(true) })
		if v, _ := runFor(t, l, ok); !v {
			t.Fatal("loop did not go on after the close")
		}
	})
}

// A send waiting for room in the send buffer is the fd's pending send: a
// second is refused beside it, and SockClose fails it.
func TestClosingSocketFailsAWaitingSend(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		client, _ := socketPair(t, l)
		send := l.SockSendAll(client, make([]byte, 64<<20)) // more than loopback buffers hold
		if send.Done() {
			t.Fatalf("64 MiB went into the send buffer at once: %v", send.Err())
		}
		second := l.SockSendAll(client, []byte("x"))
		if second.Err() == nil || !strings.Contains(second.Err().Error(), "already has a send") {
			t.Fatalf("a second send beside a waiting one: %v", second.Err())
		}
		if err := l.SockClose(client); err != nil {
			t.Fatal(err)
		}
		if !send.Done() || !errors.Is(send.Err(), loop.ErrSocketClosed) {
			t.Fatalf("the waiting send after SockClose: done %v, %v; want ErrSocketClosed", send.Done(), send.Err())
		}
	})
}

// Two sockets are readable in the same batch of events. Whichever callback
// runs first closes the other socket and opens a new one, which the kernel
// gives the same fd number. The second event of the batch is for the old
// socket: it must be dropped, not delivered to the new socket's reader.
func TestEventForClosedAndReusedFDIsDropped(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		a1, b1 := socketPair(t, l)
		a2, b2 := socketPair(t, l)
		mustSend(t, l, b1, "x")
		mustSend(t, l, b2, "y")
		waitReadable(t, a1, a2) // so that one Wait reports both sockets

		reused, misdelivered, ran := false, false, 0
		victimOf := map[int]int{a1: a2, a2: a1}
		for _, fd := range []int{a1, a2} {
			l.AddReader(fd, func() {
				ran++
				if ran > 1 {
					return // the second reader: its socket survived
				}
				l.RemoveReader(fd)
				victim := victimOf[fd]
				l.SockClose(victim)
				var newFD int
				newFD, reused = takeFDNumber(t, victim)
				if !reused {
					l.Stop()
					return
				}
				if err := l.AddReader(newFD, func() { misdelivered = true }); err != nil {
					t.Fatal(err)
				}
				l.CallSoon(func() {
					l.RemoveReader(newFD)
					netpoll.Close(newFD)
					l.Stop()
				})
			})
		}
		run(t, l)
		if !reused {
			t.Skip("the kernel did not reuse the fd number; nothing to check")
		}
		if misdelivered {
			t.Fatal("an event for the closed fd reached the new socket's reader")
		}
		if ran != 1 {
			t.Fatalf("%d readers ran, want only the first", ran)
		}
	})
}

// After a cancelled recv, the next recv on the socket works.
func TestCancelledOperationsCleanUp(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		client, server := socketPair(t, l)
		recv := l.SockRecv(client, make([]byte, 8))
		recv.Cancel()
		mustSend(t, l, server, "after")
		buf := make([]byte, 8)
		n, err := runFor(t, l, l.SockRecv(client, buf))
		if err != nil || string(buf[:n]) != "after" {
			t.Fatalf("recv after a cancelled recv: %q, %v", buf[:n], err)
		}
	})
}

// A connect cancelled before it completes closes the socket it opened:
// nobody will ever be given that fd to close.
func TestACancelledConnectClosesItsSocket(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		lfd, addr, err := l.Listen(loopback)
		if err != nil {
			t.Fatal(err)
		}
		defer l.SockClose(lfd)
		before := openFDs(t)
		f := l.SockConnect(addr)
		if !f.Cancel() {
			fd, _ := f.Result()
			l.SockClose(fd)
			t.Skip("the connect completed at once; there was nothing to cancel")
		}
		done := future.New[bool](l)
		l.CallLater(time.Millisecond, func() { done.SetResult(true) })
		runFor(t, l, done) // the cancellation's callbacks run
		if after := openFDs(t); after != before {
			t.Fatalf("open fds: %d before the connect, %d after it was cancelled", before, after)
		}
	})
}

// SockClose closes only the loop's own sockets. Given an fd the caller
// watches with AddReader, it refuses, and leaves the reader in place.
func TestSockCloseRefusesACallersFD(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		fd, err := netpoll.Socket(loopback)
		if err != nil {
			t.Fatal(err)
		}
		defer netpoll.Close(fd)
		if err := l.AddReader(fd, func() {}); err != nil {
			t.Fatal(err)
		}
		if err := l.SockClose(fd); err == nil {
			t.Error("SockClose of a caller's fd: no error")
		}
		if !l.RemoveReader(fd) {
			t.Error("after the refused SockClose, the fd's reader was gone")
		}
	})
}
