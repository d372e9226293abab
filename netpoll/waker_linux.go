//go:build linux

package netpoll

import (
	"os"

	"golang.org/x/sys/unix"
)

func newWaker() (*waker, error) {
	fd, err := unix.Eventfd(0, unix.EFD_CLOEXEC|unix.EFD_NONBLOCK)
	if err != nil {
		return nil, os.NewSyscallError("eventfd", err)
	}
	return &waker{rfd: fd, wfd: fd}, nil
}
