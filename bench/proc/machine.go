package proc

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"
	"time"
)

// MachineBusy is the CPU time every processor of the machine has spent
// not idle since boot, from the first line of /proc/stat (user, nice,
// system, irq, softirq, steal; idle and iowait left out). Over a run,
// its growth minus the client's and the site's CPU is what the rest of
// the machine took: how polluted the run was.
func MachineBusy() (time.Duration, bool) {
	data, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, false
	}
	line, _, _ := strings.Cut(string(data), "\n")
	f := strings.Fields(line)
	if len(f) < 9 || f[0] != "cpu" {
		return 0, false
	}
	var busy int64
	for i, v := range f[1:9] {
		if i == 3 || i == 4 { // idle, iowait
			continue
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return 0, false
		}
		busy += n
	}
	return time.Duration(busy) * time.Second / userHZ, true
}

// KernelSockets is what the kernel holds for TCP sockets, machine-wide:
// buffer pages (the "mem" of /proc/net/sockstat's TCP line) and the slab
// objects of TCP sockets and their inodes (/proc/slabinfo, readable by
// root only). Both count every socket on the machine, both ends of a
// loopback connection included; the harness reads them before a run and
// at its plateau and divides the growth by the connections.
type KernelSockets struct {
	BufferBytes int64 `json:"buffer_bytes"`
	ObjectBytes int64 `json:"object_bytes"` // 0 when slabinfo is unreadable
	Sockets     int64 `json:"sockets"`      // "sockets: used"
}

// ReadKernelSockets reads them, reporting false where /proc/net/sockstat
// is missing.
func ReadKernelSockets() (KernelSockets, bool) {
	data, err := os.ReadFile("/proc/net/sockstat")
	if err != nil {
		return KernelSockets{}, false
	}
	var k KernelSockets
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) >= 3 && f[0] == "sockets:":
			k.Sockets, _ = strconv.ParseInt(f[2], 10, 64)
		case len(f) > 0 && f[0] == "TCP:":
			for i := 1; i+1 < len(f); i += 2 {
				if f[i] == "mem" {
					pages, _ := strconv.ParseInt(f[i+1], 10, 64)
					k.BufferBytes = pages * int64(os.Getpagesize())
				}
			}
		}
	}
	k.ObjectBytes = slabBytes("TCP", "sock_inode_cache")
	return k, true
}

// slabBytes sums active objects × object size of the named slab caches.
func slabBytes(names ...string) int64 {
	data, err := os.ReadFile("/proc/slabinfo")
	if err != nil {
		return 0
	}
	var total int64
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 {
			continue
		}
		for _, name := range names {
			if f[0] == name {
				active, _ := strconv.ParseInt(f[1], 10, 64)
				size, _ := strconv.ParseInt(f[3], 10, 64)
				total += active * size
			}
		}
	}
	return total
}

// CPUList is the processors this process may run on, as Linux lists them
// in /proc/self/status ("1", "0-1"), or "" where it does not say.
func CPUList() string {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "Cpus_allowed_list:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
