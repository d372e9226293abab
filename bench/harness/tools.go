package harness

import (
	"bufio"
	"bytes"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
)

// syscallTool counts the system calls of a child process.
type syscallTool struct {
	name string
	note string
	// args are the wrapper's arguments, writing its counts to out; the
	// child's command line follows them.
	args  func(out string) []string
	parse func(data []byte) (map[string]int, error)
}

// perfEvents are counted by perf: all system calls, then the ones the
// table names (tracepoints of the kernel's syscall entry).
var perfEvents = []string{
	"raw_syscalls:sys_enter",
	"syscalls:sys_enter_read", "syscalls:sys_enter_write",
	"syscalls:sys_enter_epoll_wait", "syscalls:sys_enter_epoll_pwait",
	"syscalls:sys_enter_futex",
}

// findSyscallTool picks perf or strace, as asked and as installed, and
// says why there is none otherwise. perf comes first: it counts in the
// kernel without stopping the process, where strace stops it at every
// call, which slows it so much that the runtime's own timing (spinning,
// sleeping threads) changes what is counted.
func findSyscallTool(choice string) (*syscallTool, string) {
	switch choice {
	case "none":
		return nil, "not asked for (-syscalls none)"
	case "auto", "perf", "strace":
	default:
		return nil, fmt.Sprintf("unknown tool %q", choice)
	}
	var tried []string
	if choice != "strace" {
		if t, err := perfTool(); err == nil {
			return t, ""
		} else {
			tried = append(tried, "perf: "+err.Error())
		}
	}
	if choice != "perf" {
		if _, err := exec.LookPath("strace"); err == nil {
			return straceTool(), ""
		}
		tried = append(tried, "strace: not installed")
	}
	return nil, "no tool to count system calls (" + strings.Join(tried, "; ") + "); install perf or strace to run it"
}

func perfTool() (*syscallTool, error) {
	if _, err := exec.LookPath("perf"); err != nil {
		return nil, fmt.Errorf("not installed")
	}
	events := strings.Join(perfEvents, ",")
	// A trial run: perf may be installed and still not allowed to read
	// tracepoints (perf_event_paranoid, no tracefs in a container).
	out, err := exec.Command("perf", "stat", "-x,", "-e", events, "--", "true").CombinedOutput()
	if err != nil || bytes.Contains(out, []byte("<not supported>")) || bytes.Contains(out, []byte("<not counted>")) {
		return nil, fmt.Errorf("cannot count syscall tracepoints here: %s", firstLine(out, err))
	}
	return &syscallTool{
		name: "perf stat",
		note: "perf counts in the kernel and does not slow the client down.",
		args: func(out string) []string {
			return []string{"perf", "stat", "-x,", "-e", events, "-o", out, "--"}
		},
		parse: parsePerf,
	}, nil
}

func straceTool() *syscallTool {
	return &syscallTool{
		name: "strace -f -c",
		note: "strace stops the client at every call, which slows it and changes the runtime's timing: " +
			"the counts of futex and the like are inflated, those of read and write are not.",
		args:  func(out string) []string { return []string{"strace", "-f", "-c", "-o", out} },
		parse: parseStrace,
	}
}

// parsePerf reads perf stat -x, output: "count,unit,event,...".
func parsePerf(data []byte) (map[string]int, error) {
	counts := make(map[string]int)
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, ",")
		if len(f) < 3 {
			continue
		}
		n, err := strconv.Atoi(f[0])
		if err != nil {
			return nil, fmt.Errorf("perf: %q: %v", line, err)
		}
		switch ev := f[2]; {
		case ev == "raw_syscalls:sys_enter":
			counts["total"] += n
		case strings.HasPrefix(ev, "syscalls:sys_enter_"):
			counts[strings.TrimPrefix(ev, "syscalls:sys_enter_")] += n
		}
	}
	if _, ok := counts["total"]; !ok {
		return nil, fmt.Errorf("perf: no raw_syscalls count in %q", firstLine(data, nil))
	}
	return counts, nil
}

// parseStrace reads the table of strace -c: "% time seconds usecs/call
// calls errors syscall", the errors column empty when there were none.
func parseStrace(data []byte) (map[string]int, error) {
	counts := make(map[string]int)
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 5 {
			continue
		}
		if _, err := strconv.ParseFloat(f[0], 64); err != nil {
			continue // the header, a separator
		}
		n, err := strconv.Atoi(f[3])
		if err != nil {
			continue
		}
		counts[f[len(f)-1]] = n // the "total" row too
	}
	if _, ok := counts["total"]; !ok {
		return nil, fmt.Errorf("strace: no total in %q", firstLine(data, nil))
	}
	return counts, nil
}

func firstLine(out []byte, err error) string {
	line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	if line == "" && err != nil {
		return err.Error()
	}
	return line
}
