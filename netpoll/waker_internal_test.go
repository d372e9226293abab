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
