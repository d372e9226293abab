package netpoll

import (
	"errors"
	"fmt"
	"math"
	"os"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

func TestTimeoutMillisRoundsUp(t *testing.T) {
	for _, c := range []struct {
		in   time.Duration
		want int
	}{
		{-1, -1}, {0, 0}, {time.Nanosecond, 1}, {300 * time.Microsecond, 1},
		{time.Millisecond, 1}, {1500 * time.Microsecond, 2}, {time.Second, 1000},
		{1000 * time.Hour, 1<<31 - 1},
	} {
		if got := timeoutMillis(c.in); got != c.want {
			t.Errorf("timeoutMillis(%v) = %d, want %d", c.in, got, c.want)
		}
	}
}

// A wait for longer than maxWait is cut to maxWait (kevent on macOS fails
// with EINVAL past a few years); shorter ones, and "forever", are not.
func TestWaitIsCappedAtMaxWait(t *testing.T) {
	for _, c := range []struct{ in, want time.Duration }{
		{math.MaxInt64, maxWait}, {maxWait + 1, maxWait}, {time.Hour, time.Hour}, {-1, -1}, {0, 0},
	} {
		var got time.Duration
		retryOnEINTR(c.in, func(left time.Duration) error { got = left; return nil })
		if got != c.want {
			t.Errorf("a wait of %v waited %v, want %v", c.in, got, c.want)
		}
	}
}

// ErrName says what strace would: the errno's name, through any wrapping.
func TestErrNameIsWhatStraceSays(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{nil, ""},
		{ErrWouldBlock, "EAGAIN"},
		{ErrInProgress, "EINPROGRESS"},
		{os.NewSyscallError("connect", unix.ECONNREFUSED), "ECONNREFUSED"},
		{fmt.Errorf("loop: watching fd 7: %w", os.NewSyscallError("epoll_ctl", unix.ENOENT)), "ENOENT"},
		{errors.New("something else"), "something else"},
	} {
		if got := ErrName(c.err); got != c.want {
			t.Errorf("ErrName(%v) = %q, want %q", c.err, got, c.want)
		}
	}
}

// A signal that lands after the deadline has passed restarts the wait
// with nothing left: a poll that returns at once. A negative time left
// would mean "forever" to epoll_wait and poll, and the loop's timer would
// never fire.
func TestEINTRAfterTheDeadlineDoesNotWaitForever(t *testing.T) {
	var waits []time.Duration
	err := retryOnEINTR(10*time.Millisecond, func(left time.Duration) error {
		waits = append(waits, left)
		if len(waits) == 1 {
			time.Sleep(30 * time.Millisecond) // the signal comes late
			return unix.EINTR
		}
		return nil
	})
	if err != nil || len(waits) != 2 {
		t.Fatalf("%v after %d waits", err, len(waits))
	}
	if waits[1] != 0 {
		t.Fatalf("restarted past the deadline with %v left, want 0 (timeoutMillis: %d)", waits[1], timeoutMillis(waits[1]))
	}
}

// A wait with no deadline (for ever, or a poll) has no time left to
// count down: a signal restarts it as it was. A wait for ever restarted
// as a poll would return at once with nothing, and a caller that waits
// for I/O would take the signal for readiness.
func TestEINTRRestartsAWaitWithNoDeadlineAsItWas(t *testing.T) {
	for _, timeout := range []time.Duration{-1, 0} {
		var waits []time.Duration
		err := retryOnEINTR(timeout, func(left time.Duration) error {
			waits = append(waits, left)
			if len(waits) < 3 {
				return unix.EINTR
			}
			return nil
		})
		if err != nil || len(waits) != 3 {
			t.Fatalf("a wait of %v: %v after %d waits, want nil after 3", timeout, err, len(waits))
		}
		for _, left := range waits {
			if left != timeout {
				t.Fatalf("a wait of %v was made as %v, want %v every time (timeoutMillis %d)", timeout, waits, timeout, timeoutMillis(left))
			}
		}
	}
}
