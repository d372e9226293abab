package harness

import (
	"context"
	"fmt"
	"math"

	"loopkit/bench/report"
	"loopkit/bench/workload"
)

// syscalls is S5: system calls per request, counted by perf or strace
// around a client child. A process makes calls that are not per request
// (start-up, the runtime's own), so the count is the marginal one: the
// difference between a run of N requests and one of N/10, over the
// difference in requests.
func (b *bench) syscalls(ctx context.Context) (report.Scenario, error) {
	z := b.sizes
	sc := report.Scenario{
		ID:    "S5",
		Title: fmt.Sprintf("system calls per request: %s × 0 ms at C = %d", report.FormatNumber(float64(z.s5N), 0), z.s5C),
		Columns: []report.Column{
			{Metric: "sys_total", Header: "syscalls/req", Digits: 2, Spread: true, Ratio: true},
			{Metric: "sys_read", Header: "read", Digits: 2},
			{Metric: "sys_write", Header: "write", Digits: 2},
			{Metric: "sys_epoll", Header: "epoll_wait", Digits: 2},
			{Metric: "sys_futex", Header: "futex", Digits: 2},
			{Metric: "sys_other", Header: "other", Digits: 2},
		},
	}
	tool, why := findSyscallTool(b.cfg.SyscallTool)
	if tool == nil {
		sc.Skipped = why
		return sc, nil
	}
	url := b.delayURL(0)
	big, err := b.samplesWith(ctx, "S5 "+tool.name, workload.Job{Kind: workload.Fetch, URL: url, N: z.s5N, C: z.s5C}, tool)
	if err != nil {
		return sc, err
	}
	small, err := b.samplesWith(ctx, "S5 "+tool.name+" (small)", workload.Job{Kind: workload.Fetch, URL: url, N: z.s5Small, C: z.s5C}, tool)
	if err != nil {
		return sc, err
	}
	per := float64(z.s5N - z.s5Small)
	rows := b.rows(big, func(v string, i int, s report.Sample) map[string]float64 {
		m := common(s)
		keys := []string{"total", "read", "write", "epoll", "futex", "other"}
		for _, k := range keys {
			m["sys_"+k] = math.NaN()
		}
		if i >= len(small[v]) || s.Syscalls == nil || small[v][i].Syscalls == nil {
			return m
		}
		a, b := groupSyscalls(s.Syscalls), groupSyscalls(small[v][i].Syscalls)
		for _, k := range keys {
			m["sys_"+k] = float64(a[k]-b[k]) / per
		}
		return m
	})
	sc.Cases = append(sc.Cases, report.Case{Label: concurrency(z.s5C), Rows: rows})
	sc.Notes = append(sc.Notes,
		fmt.Sprintf("Counted with %s; per request = (calls in a run of %d − calls in a run of %d) / %d, so start-up is left out. %s",
			tool.name, z.s5N, z.s5Small, z.s5N-z.s5Small, tool.note),
		"epoll_wait counts epoll_wait and epoll_pwait; futex calls are how Go's runtime parks and wakes threads.")
	sc.Notes = append(sc.Notes, failureNotes(big, b.variants)...)
	return sc, nil
}

// groupSyscalls folds raw counts into the table's columns.
func groupSyscalls(raw map[string]int) map[string]int {
	g := map[string]int{
		"total": raw["total"],
		"read":  raw["read"],
		"write": raw["write"],
		"epoll": raw["epoll_wait"] + raw["epoll_pwait"] + raw["epoll_pwait2"],
		"futex": raw["futex"],
	}
	g["other"] = g["total"] - g["read"] - g["write"] - g["epoll"] - g["futex"]
	return g
}
