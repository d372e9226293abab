package loop_test

import (
	"testing"

	"loopkit/loop"
	"loopkit/netpoll"
)

// takeFDNumber opens sockets until the kernel hands out the number want,
// and closes the others: a test that needs an fd number to come back
// asks for it this way (lower free numbers, such as closed listeners, go
// first). It reports false if the number did not come back.
func takeFDNumber(t *testing.T, want int) (int, bool) {
	t.Helper()
	var spare []int
	defer func() {
		for _, fd := range spare {
			netpoll.Close(fd)
		}
	}()
	for range 16 {
		fd, err := netpoll.Socket(loopback)
		if err != nil {
			t.Fatal(err)
		}
		if fd == want {
			return fd, true
		}
		spare = append(spare, fd)
	}
	return -1, false
}

// One event says a socket is readable and writable. Its reader closes the
// socket, and a new socket gets the same fd number, with a writer. The
// event's writer half is for the old socket: it must be dropped, not run
// the new socket's writer in the same turn. (The new writer runs on a
// later turn, when the new socket itself is reported writable.)
func TestWriterHalfOfAnEventForAClosedAndReusedFDIsDropped(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		a, b := socketPair(t, l)
		mustSend(t, l, b, "x")
		waitReadable(t, a) // readable, and (its buffer empty) writable: one event with both

		reused, turnOver, misdelivered := false, false, false
		oldWriterRan := 0
		newFD := -1
		if err := l.AddWriter(a, func() { oldWriterRan++ }); err != nil {
			t.Fatal(err)
		}
		if err := l.AddReader(a, func() {
			l.SockClose(a)
			newFD, reused = takeFDNumber(t, a)
			if !reused {
				l.Stop()
				return
			}
			l.CallSoon(func() { turnOver = true }) // runs after this turn's I/O callbacks
			if err := l.AddWriter(newFD, func() {
				misdelivered = !turnOver
				l.RemoveWriter(newFD)
				netpoll.Close(newFD)
				l.Stop()
			}); err != nil {
				t.Fatal(err)
			}
		}); err != nil {
			t.Fatal(err)
		}
		run(t, l)
		if !reused {
			t.Skip("the kernel did not reuse the fd number; nothing to check")
		}
		if misdelivered {
			t.Fatal("the closed socket's writable event ran the new socket's writer")
		}
		if oldWriterRan != 0 {
			t.Fatalf("the closed socket's writer ran %d times", oldWriterRan)
		}
	})
}
