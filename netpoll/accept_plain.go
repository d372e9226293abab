//go:build darwin || netbsd || openbsd

package netpoll

import "golang.org/x/sys/unix"

// Where x/sys has no accept4 the flags are set right after the call.
func accept(fd int) (int, unix.Sockaddr, error) {
	nfd, sa, err := unix.Accept(fd)
	if err != nil {
		return -1, nil, err
	}
	if err := setFlags(nfd); err != nil {
		unix.Close(nfd)
		return -1, nil, err
	}
	return nfd, sa, nil
}

func setFlags(fd int) error {
	unix.CloseOnExec(fd)
	return unix.SetNonblock(fd, true)
}
