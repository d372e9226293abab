//go:build darwin

package netpoll

import (
	"os"

	"golang.org/x/sys/unix"
)

// macOS has no pipe2, so the flags are set after the fact. A fork between
// the two calls could leak the pipe into a child; the Go runtime takes the
// same small risk (syscall.ForkLock guards it there).
func nonblockingPipe() (r, w int, err error) {
	var p [2]int
	if err := unix.Pipe(p[:]); err != nil {
		return -1, -1, os.NewSyscallError("pipe", err)
	}
	for _, fd := range p {
		unix.CloseOnExec(fd)
		if err := unix.SetNonblock(fd, true); err != nil {
			unix.Close(p[0])
			unix.Close(p[1])
			return -1, -1, os.NewSyscallError("fcntl", err)
		}
	}
	return p[0], p[1], nil
}
