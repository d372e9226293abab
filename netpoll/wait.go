package netpoll

import (
	"errors"
	"time"

	"golang.org/x/sys/unix"
)

// maxWait is the longest a single Wait sleeps: a longer timeout is cut to
// it, and the caller, finding nothing due, simply waits again. macOS's
// kevent fails with EINVAL when the timeout is too long (the Go runtime's
// own kqueue poller caps its waits at 1e6 s for that reason), and no loop
// needs one wait of more than days: a timer set for a century away costs a
// wake-up every eleven and a half days.
const maxWait = 1e6 * time.Second

// waitStarting, when a test sets it, hears the timeout of every wait
// system call: the first, and each restart after EINTR. It is nil
// otherwise (one nil check per Wait).
var waitStarting func(left time.Duration)

// retryOnEINTR runs a waiting system call again when a signal interrupts
// it, with the time that is left of the original timeout, so a signal can
// neither end a wait early nor stretch it.
func retryOnEINTR(timeout time.Duration, wait func(left time.Duration) error) error {
	timeout = min(timeout, maxWait)
	var deadline time.Time
	if timeout > 0 {
		deadline = time.Now().Add(timeout)
	}
	left := timeout
	for {
		if waitStarting != nil {
			waitStarting(left)
		}
		err := wait(left)
		if !errors.Is(err, unix.EINTR) {
			return err
		}
		if timeout > 0 {
			if left = time.Until(deadline); left < 0 {
				left = 0
			}
		}
	}
}
