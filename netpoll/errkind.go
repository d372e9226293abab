//go:build unix

package netpoll

import (
	"errors"

	"golang.org/x/sys/unix"
)

// IsRefused reports whether err says the peer refused the connection:
// nothing listens on that port. Callers above netpoll ask this instead of
// naming the OS's error numbers themselves.
func IsRefused(err error) bool { return errors.Is(err, unix.ECONNREFUSED) }

// IsReset reports whether err says the peer reset the connection, or
// closed it under a write.
func IsReset(err error) bool {
	return errors.Is(err, unix.ECONNRESET) || errors.Is(err, unix.EPIPE)
}
