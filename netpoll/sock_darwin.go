//go:build darwin

package netpoll

import (
	"os"

	"golang.org/x/sys/unix"
)

// macOS lacks SOCK_NONBLOCK and SOCK_CLOEXEC: the flags are set right after
// the call. (A write to a reset socket does not kill the process: the Go
// runtime turns SIGPIPE into EPIPE for every fd but stdout and stderr.)
func socket(family int) (int, error) {
	fd, err := unix.Socket(family, unix.SOCK_STREAM, unix.IPPROTO_TCP)
	if err != nil {
		return -1, os.NewSyscallError("socket", err)
	}
	if err := setFlags(fd); err != nil {
		unix.Close(fd)
		return -1, os.NewSyscallError("fcntl", err)
	}
	return fd, nil
}
