// Package proc measures the process it runs in: CPU time, peak resident
// memory, goroutines and OS threads, and the file-descriptor limit.
//
// It sits under bench/harness: every benchmark variant runs in a child
// process of its own, and that child measures itself with this package,
// so that one client's garbage, threads and sockets never count against
// another's.
package proc

import (
	"bufio"
	"bytes"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"syscall"
	"time"
)

// Usage is what getrusage(RUSAGE_SELF) says about this process: CPU time
// in user space and in the kernel, summed over all its threads, the
// context switches of all its threads, and the peak resident set size.
type Usage struct {
	User, System time.Duration
	// Voluntary switches are a thread giving up the CPU to wait (a futex,
	// an epoll_wait that sleeps); involuntary ones, the kernel taking it
	// away (its time slice was up, another thread was woken).
	Voluntary, Involuntary int64
	PeakRSS                int64 // bytes
}

// CPU is user plus system time.
func (u Usage) CPU() time.Duration { return u.User + u.System }

// Now reads the usage so far. A failed getrusage (it does not fail on a
// valid pointer) reads as zero.
func Now() Usage {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return Usage{}
	}
	u := Usage{
		User:        time.Duration(ru.Utime.Nano()),
		System:      time.Duration(ru.Stime.Nano()),
		Voluntary:   int64(ru.Nvcsw),
		Involuntary: int64(ru.Nivcsw),
		PeakRSS:     int64(ru.Maxrss),
	}
	// ru_maxrss is in bytes on Apple systems and in KiB everywhere else.
	if runtime.GOOS != "darwin" && runtime.GOOS != "ios" {
		u.PeakRSS *= 1024
	}
	// Where Linux keeps the high-water mark in /proc, it is the better
	// number: ru_maxrss survives exec, so a child started by a parent of
	// 16 MiB reports at least 16 MiB, whatever it used itself; VmHWM
	// belongs to the address space, which exec replaces.
	if hwm, ok := statusField("VmHWM"); ok {
		u.PeakRSS = hwm * 1024
	}
	return u
}

// RSS is the resident set size now, in bytes, where /proc/self/status
// has it (VmRSS).
func RSS() (int64, bool) {
	kib, ok := statusField("VmRSS")
	return kib * 1024, ok
}

// Threads is the number of OS threads the process has now. Where
// /proc/self/status is missing it falls back on the number of threads the
// Go runtime ever created, which is an upper bound.
func Threads() int {
	if n, ok := statusField("Threads"); ok {
		return int(n)
	}
	return pprof.Lookup("threadcreate").Count()
}

// PeakRSSOf is the peak resident set size (VmHWM) of another process so
// far, in bytes, where /proc has it: what the harness reads of a child it
// is about to kill, which will never report for itself.
func PeakRSSOf(pid int) (int64, bool) {
	kib, ok := statusFieldOf("/proc/"+strconv.Itoa(pid)+"/status", "VmHWM")
	return kib * 1024, ok
}

// statusField reads a number from /proc/self/status ("VmHWM:  1234 kB").
func statusField(name string) (int64, bool) { return statusFieldOf("/proc/self/status", name) }

func statusFieldOf(path, name string) (int64, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	prefix := []byte(name + ":")
	for sc.Scan() {
		line := sc.Bytes()
		if !bytes.HasPrefix(line, prefix) {
			continue
		}
		fields := bytes.Fields(line[len(prefix):])
		if len(fields) == 0 {
			return 0, false
		}
		n, err := strconv.ParseInt(string(fields[0]), 10, 64)
		return n, err == nil
	}
	return 0, false
}
