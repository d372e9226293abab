//go:build !linux

package proc

import "os/exec"

// StartPinned is cmd.Start: pinning a process to processors is done here
// on Linux only (macOS has no such call; the BSDs have cpuset(2), which
// this benchmark does not use).
func StartPinned(cmd *exec.Cmd, _ []int) error { return cmd.Start() }

// CanPin reports whether processes can be pinned here: not on this OS.
func CanPin() bool { return false }
