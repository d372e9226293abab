package http1

import (
	"errors"
	"fmt"
	"time"
)

// ErrTimeout matches every TimeoutError with errors.Is.
var ErrTimeout = errors.New("http1: timeout")

// TimeoutError says which phase of a request ran out of time.
type TimeoutError struct {
	Phase string // "connect", "handshake", "write", "read", "header", "pool" or "total"
	After time.Duration
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("http1: %s timeout after %v", e.Phase, e.After)
}

// Is makes errors.Is(err, ErrTimeout) true.
func (e *TimeoutError) Is(target error) bool { return target == ErrTimeout }

// Timeout reports true, as net.Error's Timeout does.
func (e *TimeoutError) Timeout() bool { return true }
