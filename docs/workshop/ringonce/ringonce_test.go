//go:build workshop

package ringonce_test

import (
	"errors"
	"syscall"
	"testing"

	"loopkit/docs/workshop/ringonce"
)

// answers is a write that answers each call with the next of its errors,
// and nil once they run out. It gives up after 100 calls, so that a Ring
// that retries for ever still ends.
type answers struct {
	errs  []error
	calls int
}

func (a *answers) write() error {
	a.calls++
	if a.calls > 100 {
		return nil
	}
	if len(a.errs) == 0 {
		return nil
	}
	err := a.errs[0]
	a.errs = a.errs[1:]
	return err
}

func TestAWriteThatSucceedsHasRung(t *testing.T) {
	a := &answers{}
	if err := ringonce.Ring(a.write); err != nil || a.calls != 1 {
		t.Errorf("Ring = %v after %d writes; want nil after 1", err, a.calls)
	}
}

// EAGAIN: the eventfd's counter is full, so the loop will wake up anyway.
func TestEAGAINIsAWakeUpAlreadyPending(t *testing.T) {
	a := &answers{errs: []error{syscall.EAGAIN, syscall.EBADF}}
	if err := ringonce.Ring(a.write); err != nil || a.calls != 1 {
		t.Errorf("Ring = %v after %d writes, the first answered EAGAIN; want nil after 1", err, a.calls)
	}
}

func TestEINTRIsWrittenAgain(t *testing.T) {
	a := &answers{errs: []error{syscall.EINTR, syscall.EINTR}}
	if err := ringonce.Ring(a.write); err != nil || a.calls != 3 {
		t.Errorf("Ring = %v after %d writes, two interrupted; want nil after 3", err, a.calls)
	}
}

// A real failure is returned, once: the loop may not wake, and whoever
// rang must know.
func TestAnyOtherErrorIsReturnedNotRetried(t *testing.T) {
	a := &answers{errs: []error{syscall.EBADF, syscall.EBADF, syscall.EBADF}}
	if err := ringonce.Ring(a.write); !errors.Is(err, syscall.EBADF) || a.calls != 1 {
		t.Errorf("Ring = %v after %d writes, the first answered EBADF; want EBADF after 1", err, a.calls)
	}
}
