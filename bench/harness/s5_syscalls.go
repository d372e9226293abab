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
		ID:        "S5",
		Title:     fmt.Sprintf("system calls per request: %s × 0 ms at C = %d", report.FormatNumber(float64(z.s5N), 0), z.s5C),
		Rounds:    1,
		Reference: refVariant,
		Columns: []report.Column{
			{Metric: "sys_total", Header: "syscalls/req", Digits: 2, Ratio: true},
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
	opt := runOpts{tool: tool}
	big, err := b.collect(ctx, "S5 "+tool.name, 1, b.variants, workload.Job{Kind: workload.Fetch, URL: url, N: z.s5N, C: z.s5C}, opt)
	if err != nil {
		return sc, err
	}
	small, err := b.collect(ctx, "S5 "+tool.name+" (small)", 1, b.variants, workload.Job{Kind: workload.Fetch, URL: url, N: z.s5Small, C: z.s5C}, opt)
	if err != nil {
		return sc, err
	}
	per := float64(z.s5N - z.s5Small)
	keys := []string{"total", "read", "write", "epoll", "futex", "other"}
	smallCounts := make(map[string]map[string]int)
	for v, ss := range small {
		if len(ss) > 0 && ss[0].Syscalls != nil {
			smallCounts[v] = groupSyscalls(ss[0].Syscalls)
		}
	}
	t := b.table(big, func(s report.Sample) map[string]float64 {
		m := common(s)
		for _, k := range keys {
			m["sys_"+k] = math.NaN()
		}
		low, ok := smallCounts[s.Variant]
		if s.Syscalls == nil || !ok {
			return m
		}
		high := groupSyscalls(s.Syscalls)
		for _, k := range keys {
			m["sys_"+k] = float64(high[k]-low[k]) / per
		}
		return m
	})
	sc.Cases = append(sc.Cases, report.Case{Label: concurrency(z.s5C), Rows: t.rows(refVariant, "sys_total")})
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
