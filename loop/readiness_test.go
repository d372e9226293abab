package loop_test

import (
	"errors"
	"testing"

	"loopkit/future"
	"loopkit/loop"
	"loopkit/netpoll"
)

// An event that says only readable runs the fd's reader and not its
// writer. A listening socket is never writable, so its writer must never
// run, however often a connection makes it readable.
func TestWriterDoesNotRunOnAReadableEvent(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		lfd, addr, err := l.Listen(loopback)
		if err != nil {
			t.Fatal(err)
		}
		defer l.SockClose(lfd)
		writes := 0
		if err := l.AddWriter(lfd, func() { writes++ }); err != nil {
			t.Fatal(err)
		}
		accepted := future.New[struct{}](l)
		// The reader leaves the writer in place: a writer removed by the
		// reader would be skipped anyway, and prove nothing.
		if err := l.AddReader(lfd, func() {
			fd, _, err := netpoll.Accept(lfd)
			if err == netpoll.ErrWouldBlock {
				return
			}
			if err == nil {
				netpoll.Close(fd)
			}
			l.RemoveReader(lfd)
			accepted.SetResult(struct{}{})
		}); err != nil {
			t.Fatal(err)
		}
		conn := l.SockConnect(addr)
		if _, err := runFor(t, l, accepted); err != nil {
			t.Fatal(err)
		}
		l.RemoveWriter(lfd)
		if fd, err := conn.Result(); err == nil {
			l.SockClose(fd)
		}
		if writes != 0 {
			t.Fatalf("the writer of a listening socket ran %d times, on events that said readable", writes)
		}
	})
}

// A recv whose timeout fired is cancelled, and another is started on the
// same socket in the same callback (the retry). The first one's clean-up,
// which runs a turn later, must leave the second one watching the socket:
// it gets the data.
func TestRecvCancelledAndStartedAgainInOneTurn(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		client, server := socketPair(t, l)
		mustSend(t, l, server, "hello")
		waitReadable(t, client)
		first := l.SockRecv(client, make([]byte, 16))
		buf := make([]byte, 16)
		var second *future.Future[int]
		l.CallSoon(func() {
			first.Cancel()
			second = l.SockRecv(client, buf)
		})
		if !runTurns(t, l, 100, func() bool { return second != nil && second.Done() }) {
			t.Fatal("the retry never read the data waiting on its socket: the cancelled recv took its reader away")
		}
		if n, err := second.Result(); err != nil || string(buf[:n]) != "hello" {
			t.Fatalf("the retry read %q, %v; want hello", buf[:n], err)
		}
		if !first.Cancelled() {
			t.Fatalf("the first recv: %v, want cancelled", first.Err())
		}
	})
}

// A SockSendAll cancelled while it waits for room stops writing: as the
// peer drains the socket, the rest of the data stays unsent, and the
// future stays cancelled (completing it again would panic on the loop).
func TestACancelledSendStopsWriting(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		client, server := socketPair(t, l)
		data := make([]byte, 32<<20) // more than any socket buffer takes
		f := l.SockSendAll(client, data)
		if f.Done() {
			t.Fatalf("32 MiB were sent at once (%v): nothing was left to cancel", f.Err())
		}
		f.Cancel()
		received := 0
		buf := make([]byte, 256<<10)
		if err := l.AddReader(server, func() {
			for {
				n, err := netpoll.Read(server, buf)
				if err != nil || n == 0 {
					return
				}
				received += n
			}
		}); err != nil {
			t.Fatal(err)
		}
		// Draining takes a few turns; a send that went on would finish
		// within these, and the peer would have all of it.
		runTurns(t, l, 2000, func() bool { return received == len(data) })
		l.RemoveReader(server)
		if received == len(data) || received == 0 {
			t.Fatalf("the peer received %d of %d bytes; want what was sent before the cancel, some and not all", received, len(data))
		}
		if !f.Cancelled() {
			t.Fatalf("the send: %v, want cancelled", f.Err())
		}
	})
}

// A turn's record counts its reader and writer callbacks as IO apart from
// the callbacks of the ready queue: a reader that schedules two callbacks
// is one IO callback of the three the turn ran.
func TestTraceCountsReadersApartFromTheReadyQueue(t *testing.T) {
	for _, name := range netpoll.Available() {
		t.Run(name, func(t *testing.T) {
			l, turns := tracedLoop(t, name)
			defer l.Close()
			loop.FailOnPanic(t, l)
			client, server := socketPair(t, l)
			mustSend(t, l, server, "x")
			waitReadable(t, client)
			if err := l.AddReader(client, func() {
				netpoll.Read(client, make([]byte, 8))
				l.RemoveReader(client)
				l.CallSoon(func() {})
				l.CallSoon(l.Stop)
			}); err != nil {
				t.Fatal(err)
			}
			run(t, l)
			for _, it := range *turns {
				if len(it.Ready) == 1 && it.Ready[0].FD == client {
					if it.IO != 1 || it.Callbacks != 3 {
						t.Fatalf("the reader's turn: %d IO of %d callbacks; want 1 of 3", it.IO, it.Callbacks)
					}
					return
				}
			}
			t.Fatal("no turn of the trace has the client readable")
		})
	}
}

// A connect that is refused after it went in progress closes its socket
// at once: the descriptor is free again when the future fails, not when
// the loop closes.
func TestARefusedConnectClosesItsSocket(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		lfd, addr, err := l.Listen(loopback)
		if err != nil {
			t.Fatal(err)
		}
		l.SockClose(lfd) // nothing listens on addr now
		before := openFDs(t)
		if _, err := runFor(t, l, l.SockConnect(addr)); !netpoll.IsRefused(err) {
			t.Fatalf("connect to a closed port: %v", err)
		}
		if after := openFDs(t); after != before {
			t.Fatalf("%d descriptors open before the connect, %d after it was refused", before, after)
		}
	})
}

// Close runs its hooks while the loop's sockets still work: a hook (a
// task's deferred clean-up, say) closes a socket of the loop itself, and
// the operation pending on it fails as SockClose fails it.
func TestCloseRunsItsHooksBeforeItReleasesTheSockets(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		client, _ := socketPair(t, l)
		recv := l.SockRecv(client, make([]byte, 8))
		var hookErr error
		l.OnClose(func() { hookErr = l.SockClose(client) })
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
		if hookErr != nil || !errors.Is(recv.Err(), loop.ErrSocketClosed) {
			t.Fatalf("the hook's SockClose: %v; the recv: %v; want nil and ErrSocketClosed", hookErr, recv.Err())
		}
	})
}
