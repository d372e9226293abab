package netpoll

import (
	"errors"
	"golang.org/x/sys/unix"
	"time"
)

// retryOnEINTR runs a waiting system call again when a signal interrupts
// it, with the time that is left of the original timeout, so a signal can
// neither end a wait early nor stretch it.
func retryOnEINTR(timeout time.Duration, wait func(left time.Duration) error) error {
	var deadline time.Time
	if timeout > 0 {
		deadline = time.Now().Add(timeout)
	}
	left := timeout
	for {
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
