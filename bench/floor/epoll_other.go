//go:build !linux

package floor

import (
	"errors"

	"loopkit/bench/workload"
)

// Epoll is the raw epoll floor, which exists on Linux only.
func Epoll(workload.Job, *workload.Meter) error {
	return errors.New("floor: the raw epoll floor runs on Linux only")
}
