package netpoll_test

import (
	"errors"
	"net/netip"
	"testing"
	"time"

	"loopkit/netpoll"
)

// An fd closed while registered (the caller's bug) is never reported as
// ready again: poll(2) reports it once as Invalid and forgets it, epoll
// and kqueue drop it silently. On every backend, Modify and Deregister of
// it then fail with ErrNotRegistered — also once a new fd has its number.
func TestClosedFDIsForgottenAndModifyFailsWithErrNotRegistered(t *testing.T) {
	eachPoller(t, func(t *testing.T, p netpoll.Poller) {
		lfd := readableListener(t)
		if err := p.Register(lfd, 42, netpoll.Readable); err != nil {
			t.Fatal(err)
		}
		netpoll.Close(lfd) // without Deregister
		evs, err := p.Wait(20 * time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		want := 0
		if p.Name() == "poll" {
			want = 1
		}
		if len(evs) != want || want == 1 && evs[0] != (netpoll.Event{Token: 42, Ready: netpoll.Invalid}) {
			t.Fatalf("first Wait after the close: %+v, want %d event(s) {42 Invalid}", evs, want)
		}
		if evs, _ := p.Wait(20 * time.Millisecond); len(evs) != 0 {
			t.Fatalf("the closed fd was reported again: %+v", evs)
		}
		if err := p.Modify(lfd, 42, netpoll.Readable); !errors.Is(err, netpoll.ErrNotRegistered) {
			t.Fatalf("Modify of the closed fd: %v", err)
		}
		// A new fd gets the number: the old registration is still gone.
		nfd := readableListener(t)
		defer netpoll.Close(nfd)
		if nfd != lfd {
			t.Skipf("the new fd got number %d, not %d", nfd, lfd)
		}
		if err := p.Modify(nfd, 43, netpoll.Readable); !errors.Is(err, netpoll.ErrNotRegistered) {
			t.Fatalf("Modify of the reused number: %v", err)
		}
		if err := p.Deregister(nfd); !errors.Is(err, netpoll.ErrNotRegistered) {
			t.Fatalf("Deregister of the reused number: %v", err)
		}
		if err := p.Register(nfd, 43, netpoll.Readable); err != nil {
			t.Fatal(err)
		}
		// Twice: the new fd stays registered (still readable, it is
		// reported again), not forgotten with the closed fd it replaced.
		for range 2 {
			if evs, _ := p.Wait(5 * time.Second); len(evs) != 1 || evs[0] != (netpoll.Event{Token: 43, Ready: netpoll.Readable}) {
				t.Fatalf("the new fd: %+v", evs)
			}
		}
		p.Deregister(nfd)
	})
}

// readableListener returns a listening socket with a connection waiting,
// so it is readable. The connecting socket is closed when the test ends;
// the listener is the test's to close.
func readableListener(t *testing.T) int {
	t.Helper()
	lfd, addr, err := netpoll.Listen(netip.MustParseAddrPort("127.0.0.1:0"), 8)
	if err != nil {
		t.Fatal(err)
	}
	c, err := netpoll.Socket(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { netpoll.Close(c) })
	if err := netpoll.Connect(c, addr); err != nil && err != netpoll.ErrInProgress {
		t.Fatal(err)
	}
	return lfd
}
