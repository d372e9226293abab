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

// ErrName names err the way strace prints it, so a trace of the loop can be
// read next to the kernel's own: "EAGAIN" for ErrWouldBlock, "EINPROGRESS"
// for ErrInProgress, an errno's name ("ECONNREFUSED") for a failed system
// call, "" for nil, and the text of any other error.
func ErrName(err error) string {
	switch {
	case err == nil:
		return ""
	case err == ErrWouldBlock:
		return "EAGAIN"
	case err == ErrInProgress:
		return "EINPROGRESS"
	}
	var errno unix.Errno
	if errors.As(err, &errno) {
		if name := unix.ErrnoName(errno); name != "" {
			return name
		}
	}
	return err.Error()
}
