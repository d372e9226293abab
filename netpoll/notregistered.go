package netpoll

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// ErrNotRegistered is the error of Modify or Deregister for an fd the
// poller does not have. For an fd the caller did register, it means the fd
// was closed without Deregister (see the contract in netpoll.go).
var ErrNotRegistered = errors.New("netpoll: fd is not registered")

// notRegistered makes an ErrNotRegistered from errno; the message still
// names the call and the errno.
func notRegistered(call string, fd int, errno error) error {
	return notRegisteredErr(fd, os.NewSyscallError(call, errno))
}

// notRegisteredErr wraps err, which stays visible to errors.Is and As.
func notRegisteredErr(fd int, err error) error {
	return fmt.Errorf("%w (fd %d): %w", ErrNotRegistered, fd, err)
}

// notRegisteredIfGone marks an epoll_ctl or kevent error that says the
// kernel no longer has fd registered: EBADF (fd is closed) or ENOENT (no
// registration under this number, which a new file may hold by now).
func notRegisteredIfGone(fd int, err error) error {
	if errors.Is(err, unix.EBADF) || errors.Is(err, unix.ENOENT) {
		return notRegisteredErr(fd, err)
	}
	return err
}
