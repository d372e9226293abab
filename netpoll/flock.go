//go:build unix

package netpoll

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// ErrLocked is what LockFile says of a file another process holds.
var ErrLocked = errors.New("netpoll: the file is locked by another process")

// LockFile takes an exclusive advisory lock on f, without waiting: it
// fails with ErrLocked if another process holds one. The kernel lets the
// lock go when the process ends, however it ends — a lock file that a
// killed process left behind locks nothing. It is the one system call
// here that is not about sockets: a crawl's state directory (package
// crawler/journal) must not be written by two processes at once.
func LockFile(f *os.File) error {
	err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
	if errors.Is(err, unix.EWOULDBLOCK) {
		return ErrLocked
	}
	if err != nil {
		return os.NewSyscallError("flock", err)
	}
	return nil
}

// IsNoSpace reports whether err says there is no room to write: the disk
// is full, or the user's quota, or the process's file size limit (ulimit
// -f) is reached — so a caller can say so in plain words.
func IsNoSpace(err error) bool {
	return errors.Is(err, unix.ENOSPC) || errors.Is(err, unix.EDQUOT) || errors.Is(err, unix.EFBIG)
}
