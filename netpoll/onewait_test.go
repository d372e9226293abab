package netpoll_test

import (
	"slices"
	"testing"
	"time"

	"loopkit/netpoll"
)

// An fd watched for both readiness kinds, and both, is reported as both
// in one event: the loop's reader and writer of one socket share its
// registration.
func TestAnFDWatchedForReadingAndWritingIsReportedAsBoth(t *testing.T) {
	eachPoller(t, func(t *testing.T, p netpoll.Poller) {
		client, server := connectedPair(t)
		defer netpoll.Close(server)
		if _, err := netpoll.Write(client, []byte("x")); err != nil {
			t.Fatal(err)
		}
		// Watched for reading alone first, so the byte is known to have
		// arrived before both are asked for.
		if err := p.Register(server, 5, netpoll.Readable); err != nil {
			t.Fatal(err)
		}
		defer p.Deregister(server)
		if evs, err := p.Wait(10 * time.Second); err != nil || len(evs) != 1 {
			t.Fatalf("hung: the server socket not readable after 10 s (%+v %v)", evs, err)
		}
		if err := p.Modify(server, 6, netpoll.Readable|netpoll.Writable); err != nil {
			t.Fatal(err)
		}
		evs, err := p.Wait(5 * time.Second)
		want := netpoll.Event{Token: 6, Ready: netpoll.Readable | netpoll.Writable}
		if err != nil || len(evs) != 1 || evs[0] != want {
			t.Fatalf("a readable and writable socket watched for both: %+v %v, want [%+v]", evs, err, want)
		}
	})
}

// A Wait woken while fds are ready too returns the fds' events with the
// wake-up: the wake-up is the poller's own business, and the events that
// came with it are not dropped.
func TestAWakeUpDoesNotHideTheEventsOfItsWait(t *testing.T) {
	eachPoller(t, func(t *testing.T, p netpoll.Poller) {
		// Woken first, so that the wake-up comes before the fds in what
		// the kernel hands back.
		if err := p.Wake(); err != nil {
			t.Fatal(err)
		}
		fds := readyFDs(t, 3)
		for i, fd := range fds {
			if err := p.Register(fd, netpoll.Token(i+1), netpoll.Readable); err != nil {
				t.Fatal(err)
			}
			defer p.Deregister(fd)
		}
		evs, err := p.Wait(5 * time.Second)
		if err != nil {
			t.Fatal(err)
		}
		var toks []netpoll.Token
		for _, ev := range evs {
			toks = append(toks, ev.Token)
		}
		slices.Sort(toks)
		if !slices.Equal(toks, []netpoll.Token{1, 2, 3}) {
			t.Fatalf("a woken Wait with three ready fds reported tokens %v, want [1 2 3]", toks)
		}
	})
}
