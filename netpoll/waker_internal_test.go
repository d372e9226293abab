package netpoll

import (
	"encoding/binary"
	"testing"

	"golang.org/x/sys/unix"
)

// A thousand Wakes before a drain write once: the eventfd's counter is 1
// (a pipe holds one byte), not 1000. And after a drain the next Wake
// writes again.
func TestWakesAreDeduplicatedUntilDrained(t *testing.T) {
	w, err := newWaker()
	if err != nil {
		t.Fatal(err)
	}
	defer w.close()
	for round := range 2 {
		for range 1000 {
			if err := w.wake(); err != nil {
				t.Fatal(err)
			}
		}
		var buf [64]byte
		n, err := unix.Read(w.readFD(), buf[:])
		if err != nil {
			t.Fatalf("round %d: nothing was written: %v", round, err)
		}
		writes := uint64(n) // a pipe: one byte per write
		if w.rfd == w.wfd {
			writes = binary.NativeEndian.Uint64(buf[:8]) // an eventfd: the counter
		}
		if writes != 1 {
			t.Fatalf("round %d: 1000 Wakes wrote %d times, want once", round, writes)
		}
		if err := w.drain(); err != nil {
			t.Fatal(err)
		}
	}
}

// An error of the wake-up write is returned, not swallowed, and it does
// not leave the waker believing a wake-up is pending: the next Wake tries
// (and fails) again rather than report success for a write never made.
func TestWakeErrorsAreReturnedEveryTime(t *testing.T) {
	w := &waker{rfd: -1, wfd: -1} // writes fail with EBADF
	for i := range 2 {
		if err := w.wake(); err == nil {
			t.Fatalf("wake %d on a bad descriptor returned nil", i+1)
		}
	}
}

// A Wake that lands while the loop drains the descriptor is never lost.
// Either it finds a wake-up still pending and writes nothing — the loop
// reads its queue after the drain, so what the Wake was for is taken
// then — or it writes, and the next Wait returns. What must not happen
// is the wake-up flag cleared before the drain: that Wake would write,
// the drain would swallow it, and the flag would stay set with nothing
// to read, so every later Wake would write nothing and the loop would
// never be woken again.
func TestWakeDuringTheDrainIsNotLost(t *testing.T) {
	w, err := newWaker()
	if err != nil {
		t.Fatal(err)
	}
	defer w.close()
	if err := w.wake(); err != nil {
		t.Fatal(err)
	}
	woke := false
	drainReading = func() {
		if !woke {
			woke = true
			if err := w.wake(); err != nil {
				t.Error(err)
			}
		}
	}
	err = w.drain()
	drainReading = nil
	if err != nil || !woke {
		t.Fatalf("drain: %v; the hook ran: %v", err, woke)
	}
	// Whatever the racing Wake did, a Wake now must leave the descriptor
	// readable: the poller would see it.
	if err := w.wake(); err != nil {
		t.Fatal(err)
	}
	fds := []unix.PollFd{{Fd: int32(w.readFD()), Events: unix.POLLIN}}
	if n, err := unix.Poll(fds, 0); err != nil || n != 1 {
		t.Fatalf("after a drain that a Wake raced with, a Wake left nothing to read (%d, %v): wake-ups are lost for good", n, err)
	}
}

// A drain that reads a wake-up empties the descriptor and re-arms the
// waker: the next Wake writes again. (The test above reads the descriptor
// itself, so its drains find nothing to read.)
func TestADrainThatReadsAWakeUpEmptiesAndReArms(t *testing.T) {
	w, err := newWaker()
	if err != nil {
		t.Fatal(err)
	}
	defer w.close()
	readable := func() bool {
		fds := []unix.PollFd{{Fd: int32(w.readFD()), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, 0)
		if err != nil {
			t.Fatal(err)
		}
		return n == 1
	}
	for round := range 2 {
		if err := w.wake(); err != nil {
			t.Fatal(err)
		}
		if !readable() {
			t.Fatalf("round %d: a Wake after a drain left nothing to read: the wake-up is lost", round)
		}
		if err := w.drain(); err != nil {
			t.Fatal(err)
		}
		if readable() {
			t.Fatalf("round %d: the drain left the wake-up to be read again", round)
		}
	}
}
