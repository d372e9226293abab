//go:build solution

package ringonce

import (
	"errors"
	"syscall"
)

// Ring writes until the bell has rung. EAGAIN: the counter is full, so a
// wake-up is certainly pending already. EINTR: interrupted before it
// wrote anything, so write again. Anything else is a real failure.
func Ring(write func() error) error {
	for {
		err := write()
		switch {
		case err == nil, errors.Is(err, syscall.EAGAIN):
			return nil
		case errors.Is(err, syscall.EINTR):
			continue
		default:
			return err
		}
	}
}
