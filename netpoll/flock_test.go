package netpoll_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"loopkit/netpoll"
)

// A second lock on a locked file fails at once, and once the first file
// is closed the lock can be taken again. (flock's locks belong to an open
// file, so two opens in one process contend as two processes would.)
func TestLockFileIsExclusive(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lock")
	first, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := netpoll.LockFile(first); err != nil {
		t.Fatal(err)
	}
	second, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	// On a goroutine of its own, bounded: a LockFile that waited for the
	// holder would otherwise hang the test until go test's timeout.
	locked := make(chan error, 1)
	go func() { locked <- netpoll.LockFile(second) }()
	select {
	case err := <-locked:
		if !errors.Is(err, netpoll.ErrLocked) {
			t.Fatalf("second lock: %v, want ErrLocked", err)
		}
	case <-time.After(10 * time.Second):
		first.Close() // lets the waiting LockFile go
		t.Fatal("the second LockFile waited 10 s for the holder instead of failing at once")
	}
	first.Close()
	if err := netpoll.LockFile(second); err != nil {
		t.Fatalf("lock after the first let go: %v", err)
	}
}

// A lock that fails for any other reason than a holder (here, a file
// already closed) is an error that names flock, not ErrLocked and not nil:
// a caller that took nil for the lock would write beside another process.
func TestLockFileOfAClosedFileFails(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "lock"))
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	err = netpoll.LockFile(f)
	if err == nil || errors.Is(err, netpoll.ErrLocked) || !strings.Contains(err.Error(), "flock") {
		t.Fatalf("LockFile of a closed file: %v, want flock's own error", err)
	}
}

// Writing to /dev/full fails the way a full disk does.
func TestIsNoSpace(t *testing.T) {
	f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full here")
	}
	defer f.Close()
	_, err = f.Write([]byte("x"))
	if !netpoll.IsNoSpace(err) {
		t.Fatalf("writing to /dev/full: %v, not recognised as a full disk", err)
	}
}

// Every way of running out of room is "no space": the disk (ENOSPC), the
// user's quota (EDQUOT), the process's file size limit (EFBIG), however
// wrapped; other write errors are not. (A quota or a size limit cannot be
// reached on demand in a test without side effects on the whole process,
// so the errnos are handed in.)
func TestIsNoSpaceKnowsQuotaAndSizeLimit(t *testing.T) {
	for _, c := range []struct {
		errno unix.Errno
		want  bool
	}{{unix.ENOSPC, true}, {unix.EDQUOT, true}, {unix.EFBIG, true}, {unix.EIO, false}, {unix.EBADF, false}} {
		err := fmt.Errorf("journal: %w", &os.PathError{Op: "write", Path: "state/journal", Err: c.errno})
		if got := netpoll.IsNoSpace(err); got != c.want {
			t.Errorf("IsNoSpace(%v) = %v, want %v", err, got, c.want)
		}
	}
}
