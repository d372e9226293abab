package netpoll_test

import (
	"net/netip"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"loopkit/netpoll"
)

func eachPoller(t *testing.T, test func(t *testing.T, p netpoll.Poller)) {
	for _, name := range netpoll.Available() {
		t.Run(name, func(t *testing.T) {
			p, err := netpoll.Open(name)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			if p.Name() != name {
				t.Fatalf("Open(%q) gave %q", name, p.Name())
			}
			test(t, p)
		})
	}
}

func TestOpenRejectsUnknownNames(t *testing.T) {
	_, err := netpoll.Open("select")
	if err == nil || !strings.Contains(err.Error(), `"select"`) {
		t.Fatalf("Open(select) = %v", err)
	}
	p, err := netpoll.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if p.Name() != netpoll.Available()[0] {
		t.Fatalf("default poller %q, want %q", p.Name(), netpoll.Available()[0])
	}
}

// Many Wakes from many goroutines make one Wait return; the wake-up is
// consumed, so the next Wait times out with nothing to report.
func TestWakeIsDeduplicatedAndConsumed(t *testing.T) {
	eachPoller(t, func(t *testing.T, p netpoll.Poller) {
		var wg sync.WaitGroup
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 1000 {
					if err := p.Wake(); err != nil {
						t.Error(err)
						return
					}
				}
			}()
		}
		wg.Wait()
		if evs, err := p.Wait(5 * time.Second); err != nil || len(evs) != 0 {
			t.Fatalf("woken Wait: %v %v", evs, err)
		}
		start := time.Now()
		if evs, err := p.Wait(20 * time.Millisecond); err != nil || len(evs) != 0 {
			t.Fatalf("second Wait: %v %v", evs, err)
		}
		if time.Since(start) < 10*time.Millisecond {
			t.Fatal("the wake-up was not consumed: the second Wait returned at once")
		}
	})
}

func TestWakeInterruptsABlockedWait(t *testing.T) {
	eachPoller(t, func(t *testing.T, p netpoll.Poller) {
		go func() {
			time.Sleep(20 * time.Millisecond)
			p.Wake()
		}()
		done := make(chan error, 1)
		go func() { _, err := p.Wait(-1); done <- err }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("Wait(-1) was not woken")
		}
	})
}

// Register reports readiness with the token given, Modify changes it, and
// after Deregister the fd is never reported again. The tokens use all 64
// bits, as the loop's do (a generation in the high half): every bit comes
// back.
func TestRegisterModifyDeregister(t *testing.T) {
	eachPoller(t, func(t *testing.T, p netpoll.Poller) {
		lfd, addr, err := netpoll.Listen(netip.MustParseAddrPort("127.0.0.1:0"), 8)
		if err != nil {
			t.Fatal(err)
		}
		defer netpoll.Close(lfd)
		c, err := netpoll.Socket(addr)
		if err != nil {
			t.Fatal(err)
		}
		defer netpoll.Close(c)
		if err := netpoll.Connect(c, addr); err != nil && err != netpoll.ErrInProgress {
			t.Fatal(err)
		}
		first, second := netpoll.Token(7)<<32|42, netpoll.Token(1<<31)<<32|43
		if err := p.Register(lfd, first, netpoll.Readable); err != nil {
			t.Fatal(err)
		}
		evs, err := p.Wait(5 * time.Second)
		if err != nil || len(evs) != 1 || evs[0].Token != first || evs[0].Ready&netpoll.Readable == 0 {
			t.Fatalf("listener readiness: %+v %v", evs, err)
		}
		if err := p.Modify(lfd, second, netpoll.Readable); err != nil {
			t.Fatal(err)
		}
		if evs, _ = p.Wait(5 * time.Second); len(evs) != 1 || evs[0].Token != second {
			t.Fatalf("after Modify: %+v (level-triggered: still readable)", evs)
		}
		if err := p.Deregister(lfd); err != nil {
			t.Fatal(err)
		}
		if evs, _ = p.Wait(10 * time.Millisecond); len(evs) != 0 {
			t.Fatalf("after Deregister: %+v", evs)
		}
		if err := p.Deregister(lfd); err == nil {
			t.Fatal("deregistering twice is not an error")
		}
	})
}

// A hang-up or an error without readable data (here: a TCP socket that
// was never connected, which epoll and poll report as hung up and nothing
// else) must reach a caller that asked only for Readable: its reader is
// what would find the error, and a registration that never fires would
// leave it waiting for ever.
func TestHangUpWithoutDataIsReportedAsReadable(t *testing.T) {
	eachPoller(t, func(t *testing.T, p netpoll.Poller) {
		fd, err := netpoll.Socket(netip.MustParseAddrPort("127.0.0.1:0"))
		if err != nil {
			t.Fatal(err)
		}
		defer netpoll.Close(fd)
		if err := p.Register(fd, 7, netpoll.Readable); err != nil {
			t.Fatal(err)
		}
		defer p.Deregister(fd)
		evs, err := p.Wait(2 * time.Second)
		if err != nil || len(evs) != 1 || evs[0].Token != 7 || evs[0].Ready&netpoll.Readable == 0 {
			t.Fatalf("an unconnected socket: %+v %v, want token 7 Readable", evs, err)
		}
	})
}

// Deregistering one fd leaves the others as they were, whichever slot
// each is kept in (poll(2) moves its last entry into the freed one): the
// moved fd can still be modified and deregistered, under its own token.
func TestDeregisterLeavesTheOthersReachable(t *testing.T) {
	eachPoller(t, func(t *testing.T, p netpoll.Poller) {
		fds := readyFDs(t, 3)
		for i, fd := range fds {
			if err := p.Register(fd, netpoll.Token(i+1), netpoll.Readable); err != nil {
				t.Fatal(err)
			}
		}
		if err := p.Deregister(fds[0]); err != nil {
			t.Fatal(err)
		}
		if err := p.Modify(fds[2], 33, netpoll.Readable); err != nil {
			t.Fatal(err)
		}
		tokens := func() []netpoll.Token {
			evs, err := p.Wait(5 * time.Second)
			if err != nil {
				t.Fatal(err)
			}
			var toks []netpoll.Token
			for _, ev := range evs {
				toks = append(toks, ev.Token)
			}
			slices.Sort(toks)
			return toks
		}
		if got := tokens(); !slices.Equal(got, []netpoll.Token{2, 33}) {
			t.Fatalf("after deregistering the first and modifying the third: tokens %v, want [2 33]", got)
		}
		if err := p.Deregister(fds[2]); err != nil {
			t.Fatal(err)
		}
		if got := tokens(); !slices.Equal(got, []netpoll.Token{2}) {
			t.Fatalf("after deregistering the third too: tokens %v, want [2]", got)
		}
		p.Deregister(fds[1])
	})
}
