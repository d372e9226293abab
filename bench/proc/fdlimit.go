package proc

import (
	"fmt"
	"syscall"
)

// FDLimit is the file-descriptor limit (RLIMIT_NOFILE) before and after
// RaiseFDLimit.
type FDLimit struct {
	Soft   uint64 `json:"soft"`   // the soft limit found at start
	Hard   uint64 `json:"hard"`   // the hard limit, the ceiling for the soft one
	Raised uint64 `json:"raised"` // the soft limit now
}

func (l FDLimit) String() string {
	return fmt.Sprintf("soft %d → %d (hard %d)", l.Soft, l.Raised, l.Hard)
}

// RaiseFDLimit raises the soft limit on open files to the hard limit.
// C10K needs 10 000 sockets in one process, and the usual soft limit is
// 1024. (Go's os package already does this at start-up on Linux and
// restores the old limit for child processes; doing it here, explicitly,
// makes the benchmark independent of that and lets it print both.)
func RaiseFDLimit() (FDLimit, error) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return FDLimit{}, fmt.Errorf("getrlimit: %w", err)
	}
	// uint64(...) because Cur and Max are int64 on some BSDs.
	out := FDLimit{Soft: uint64(lim.Cur), Hard: uint64(lim.Max), Raised: uint64(lim.Cur)}
	if lim.Cur == lim.Max {
		return out, nil
	}
	lim.Cur = lim.Max
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		// macOS refuses an "unlimited" soft limit; what we have stays.
		return out, fmt.Errorf("setrlimit: %w", err)
	}
	out.Raised = uint64(lim.Cur)
	return out, nil
}
