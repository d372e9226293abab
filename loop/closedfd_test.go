package loop_test

import (
	"fmt"
	"net/netip"
	"strings"
	"testing"
	"time"

	"loopkit/future"
	"loopkit/loop"
	"loopkit/netpoll"
)

// Closing an fd without RemoveReader is a caller's bug. The loop must say
// so, naming the fd, and forget it — never spin on it (poll(2) reports a
// closed fd on every wait), and never let a new fd that got its number go
// unwatched (epoll has forgotten the old one, so "nothing changed" would
// leave the new fd unregistered).
func TestFDClosedWhileWatchedIsReportedAndForgotten(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		var reports []string
		l.SetPanicHandler(func(p loop.PanicInfo) { reports = append(reports, fmt.Sprint(p.Value)) })
		lfd, addr, err := netpoll.Listen(loopback, 8)
		if err != nil {
			t.Fatal(err)
		}
		connectTo(t, addr) // the listener is readable from now on
		oldCalls := 0
		if err := l.AddReader(lfd, func() { oldCalls++ }); err != nil {
			t.Fatal(err)
		}
		netpoll.Close(lfd) // the bug: no RemoveReader first
		l.CallLater(20*time.Millisecond, l.Stop)
		run(t, l)
		// poll(2) says at once that the fd is closed; epoll and kqueue say
		// nothing until its number is used again, below.
		if l.PollerName() == "poll" && len(reports) != 1 {
			t.Errorf("after a wait on poll(2), reports: %q, want one", reports)
		}

		// A new listener gets the old number, and a reader of its own.
		release, ok := nextFDWillBe(t, lfd)
		if !ok {
			t.Skipf("fd %d was taken meanwhile; cannot reuse its number", lfd)
		}
		nfd, naddr, err := netpoll.Listen(loopback, 8)
		release()
		if err != nil {
			t.Fatal(err)
		}
		defer netpoll.Close(nfd)
		if nfd != lfd {
			t.Fatalf("the new listener got fd %d, not %d", nfd, lfd)
		}
		newCalled := future.New[bool](l)
		if err := l.AddReader(nfd, func() {
			l.RemoveReader(nfd)
			newCalled.SetResult(true)
		}); err != nil {
			t.Fatal(err)
		}
		connectTo(t, naddr)
		if _, err := runFor(t, l, newCalled); err != nil {
			t.Fatal(err)
		}
		if oldCalls != 0 {
			t.Errorf("the closed fd's reader ran %d times", oldCalls)
		}
		want := fmt.Sprintf("fd %d was closed while the loop watched it", lfd)
		if len(reports) != 1 || !strings.Contains(reports[0], want) {
			t.Errorf("reports to the panic handler: %q, want one saying %q", reports, want)
		}
	})
}

// A socket the loop owns, closed behind its back with a recv pending: the
// recv fails with an error naming the fd once the loop notices, here when
// the loop is given a new socket with the same number.
func TestOwnedSocketClosedBehindTheLoopFailsItsPendingRecv(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		var reports []string
		l.SetPanicHandler(func(p loop.PanicInfo) { reports = append(reports, fmt.Sprint(p.Value)) })
		client, _ := socketPair(t, l)
		recv := l.SockRecv(client, make([]byte, 8))
		netpoll.Close(client) // the bug: not SockClose
		release, ok := nextFDWillBe(t, client)
		if !ok {
			t.Skipf("fd %d was taken meanwhile; cannot reuse its number", client)
		}
		lfd, _, err := l.Listen(loopback)
		release()
		if err != nil {
			t.Fatal(err)
		}
		if lfd != client {
			t.Fatalf("the new socket got fd %d, not %d", lfd, client)
		}
		want := fmt.Sprintf("fd %d was closed while the loop watched it", client)
		if err := recv.Err(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("the pending recv: %v, want an error saying %q", err, want)
		}
		if len(reports) != 1 || !strings.Contains(reports[0], want) {
			t.Errorf("reports to the panic handler: %q, want one saying %q", reports, want)
		}
	})
}

// connectTo starts a connection to a listener of the test's, so that the
// listener becomes readable. The socket is closed when the test ends.
func connectTo(t *testing.T, addr netip.AddrPort) {
	t.Helper()
	fd, err := netpoll.Socket(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { netpoll.Close(fd) })
	if err := netpoll.Connect(fd, addr); err != nil && err != netpoll.ErrInProgress {
		t.Fatal(err)
	}
}

// nextFDWillBe makes the kernel's next fd number fd, which must be free:
// the kernel hands out the lowest free number, so it takes the free ones
// below fd until fd comes up. release gives them back; ok is false if fd
// is not free.
func nextFDWillBe(t *testing.T, fd int) (release func(), ok bool) {
	t.Helper()
	var held []int
	release = func() {
		for _, h := range held {
			netpoll.Close(h)
		}
	}
	for range 1000 {
		s, err := netpoll.Socket(loopback)
		if err != nil {
			release()
			t.Fatal(err)
		}
		if s >= fd {
			netpoll.Close(s)
			if s > fd {
				release()
				return func() {}, false
			}
			return release, true
		}
		held = append(held, s)
	}
	release()
	return func() {}, false
}
