package ringonce

import "errors"

// Ring makes write, the system call that rings the loop's bell, until the
// bell has rung: see README.md for the rule. write returns the system
// call's error, a syscall.Errno, or nil.
func Ring(write func() error) error {
	// TODO: call write; nil and EAGAIN mean rung, EINTR means again,
	// anything else is returned.
	return errors.New("ringonce: Ring is not written yet")
}
