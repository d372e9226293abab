//go:build dragonfly || freebsd || netbsd || openbsd

package netpoll

import (
	"os"

	"golang.org/x/sys/unix"
)

func nonblockingPipe() (r, w int, err error) {
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_NONBLOCK|unix.O_CLOEXEC); err != nil {
		return -1, -1, os.NewSyscallError("pipe2", err)
	}
	return p[0], p[1], nil
}
