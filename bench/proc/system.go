package proc

import (
	"os"
	"strconv"
	"strings"
	"time"
)

// userHZ is the unit of the CPU times in /proc/<pid>/stat: Linux reports
// them in USER_HZ, which is 100 on every architecture Go runs on.
const userHZ = 100

// CPUOf is the CPU time (user + system) of another process so far, from
// /proc/<pid>/stat, at 10 ms resolution. It reports false where /proc is
// missing (macOS, the BSDs without linprocfs). The harness uses it to say
// what the site spent on each run, next to what the client spent.
func CPUOf(pid int) (time.Duration, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	// The command name, field 2, is in parentheses and may hold spaces;
	// the fields after the last ")" start with field 3, the state.
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 13 {
		return 0, false
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64) // field 14
	stime, err2 := strconv.ParseInt(f[12], 10, 64) // field 15
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return time.Duration(utime+stime) * time.Second / userHZ, true
}

// LoadAverage is the 1, 5 and 15 minute load averages ("0.52 0.61 0.70"),
// or "" where /proc/loadavg is missing. A benchmark on a shared machine
// should say how busy the machine was.
func LoadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}
