//go:build linux || dragonfly || freebsd || netbsd || openbsd

package netpoll

import (
	"os"

	"golang.org/x/sys/unix"
)

// socket sets non-blocking and close-on-exec atomically, in the
// same call, so a concurrent fork can never inherit the descriptor.
func socket(family int) (int, error) {
	fd, err := unix.Socket(family, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, unix.IPPROTO_TCP)
	if err != nil {
		return -1, os.NewSyscallError("socket", err)
	}
	return fd, nil
}
