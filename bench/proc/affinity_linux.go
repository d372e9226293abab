//go:build linux

package proc

import (
	"fmt"
	"os/exec"
	"runtime"

	"golang.org/x/sys/unix"
)

// StartPinned starts cmd on the given processors: its every thread, the
// Go runtime's included, may run only there. A new process inherits the
// CPU mask of the thread that forks it, so the mask is set on this
// goroutine's thread, locked for the while, around Start, and put back.
// (Setting it in the child instead would pin only the thread that made
// the call: the runtime's other threads exist by then.) With no cpus it
// is cmd.Start.
func StartPinned(cmd *exec.Cmd, cpus []int) error {
	if len(cpus) == 0 {
		return cmd.Start()
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var old, set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &old); err != nil {
		return fmt.Errorf("sched_getaffinity: %w", err)
	}
	for _, c := range cpus {
		set.Set(c)
	}
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		return fmt.Errorf("sched_setaffinity %v: %w", cpus, err)
	}
	err := cmd.Start()
	if rerr := unix.SchedSetaffinity(0, &old); err == nil && rerr != nil {
		err = fmt.Errorf("restoring the CPU mask: %w", rerr)
	}
	return err
}

// CanPin reports whether processes can be pinned here.
func CanPin() bool {
	var set unix.CPUSet
	return unix.SchedGetaffinity(0, &set) == nil
}
