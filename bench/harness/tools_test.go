package harness

import (
	"testing"
)

func TestParsePerfCountsTotalAndNamedCalls(t *testing.T) {
	out := "# started on Sun Nov 29 23:17:22 2026\n\n" +
		"44943,,raw_syscalls:sys_enter,468252829,100.00,,\n" +
		"20006,,syscalls:sys_enter_read,468252829,100.00,,\n" +
		"20001,,syscalls:sys_enter_write,468252829,100.00,,\n" +
		"402,,syscalls:sys_enter_epoll_wait,468252829,100.00,,\n"
	got, err := parsePerf([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if got["total"] != 44943 || got["read"] != 20006 || got["write"] != 20001 || got["epoll_wait"] != 402 {
		t.Fatalf("got %v", got)
	}
	g := groupSyscalls(got)
	if g["other"] != 44943-20006-20001-402 {
		t.Errorf("other = %d", g["other"])
	}
}

func TestParseStraceReadsTheSummaryTable(t *testing.T) {
	out := `% time     seconds  usecs/call     calls    errors syscall
------ ----------- ----------- --------- --------- ------------------
 67.99    9.530765         697     13660      2165 futex
  6.80    0.953694          47     20001           write
  5.68    0.796913          39     20006           read
------ ----------- ----------- --------- --------- ------------------
100.00   14.018060         297     47201      2397 total
`
	got, err := parseStrace([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if got["futex"] != 13660 || got["write"] != 20001 || got["read"] != 20006 || got["total"] != 47201 {
		t.Fatalf("got %v", got)
	}
	if _, err := parseStrace([]byte("strace: exec: No such file\n")); err == nil {
		t.Error("no table, no error")
	}
}

func TestNoToolMeansSkippedWithAReason(t *testing.T) {
	tool, why := findSyscallTool("none")
	if tool != nil || why == "" {
		t.Fatalf("tool %v, reason %q", tool, why)
	}
}

func TestTheoryIsCeilNOverCTimesTheDelay(t *testing.T) {
	cases := []struct {
		n, c int
		want float64
	}{{60, 1, 12}, {60, 5, 2.4}, {60, 20, 0.6}, {60, 7, 1.8}, {60, 0, 0.2}}
	for _, c := range cases {
		if got := theoryS1(c.n, c.c, 0.2); got < c.want-1e-9 || got > c.want+1e-9 {
			t.Errorf("theory(%d, %d) = %v, want %v", c.n, c.c, got, c.want)
		}
	}
}
