package loop

import (
	"net/netip"
	"testing"
	"time"

	"loopkit/netpoll"
)

// connectedPair returns a connected client socket and the accepted one.
func connectedPair(t *testing.T, l *Loop) (client, server int) {
	t.Helper()
	lfd, addr, err := l.Listen(netip.MustParseAddrPort("127.0.0.1:0"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.SockClose(lfd)
	accepted := l.SockAccept(lfd)
	client = await(t, l, l.SockConnect(addr))
	return client, await(t, l, accepted).FD
}

// Once connected, a socket is no longer watched for writability: an idle
// connected socket is always writable, so a writer left behind would wake
// the loop on every wait (a busy loop with nothing to do).
func TestAConnectedSocketIsNotLeftInWriterInterest(t *testing.T) {
	eachCountingPoller(t, func(t *testing.T, l *Loop, p *countingPoller) {
		client, _ := connectedPair(t, l)
		p.reset()
		runIdle(t, l, 20*time.Millisecond)
		if n := p.events[client]; n != 0 {
			t.Fatalf("an idle connected socket woke the loop %d times in 20 ms (%d waits)", n, p.waits)
		}
	})
}

// A cancelled recv stops watching its socket at once: data that arrives
// after the cancel does not wake the loop for a reader that is gone.
func TestACancelledRecvStopsWatching(t *testing.T) {
	eachCountingPoller(t, func(t *testing.T, l *Loop, p *countingPoller) {
		client, server := connectedPair(t, l)
		l.SockRecv(client, make([]byte, 8)).Cancel()
		runIdle(t, l, time.Millisecond) // the cancellation's callbacks run
		if _, err := netpoll.Write(server, []byte("late")); err != nil {
			t.Fatal(err)
		}
		p.reset()
		runIdle(t, l, 20*time.Millisecond)
		if n := p.events[client]; n != 0 {
			t.Fatalf("data after a cancelled recv woke the loop %d times for it", n)
		}
	})
}
