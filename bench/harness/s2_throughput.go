package harness

import (
	"context"
	"fmt"
	"runtime"
	"strconv"
	"time"

	"loopkit/bench/report"
	"loopkit/bench/workload"
)

// throughput is S2: requests that cost the server nothing, C at a time,
// for a fixed time, so that the clients' own costs show: CPU per request
// (user and system), context switches, requests per second. Every round
// runs every variant once, in a random order; ratios are paired within a
// round.
func (b *bench) throughput(ctx context.Context) (report.Scenario, error) {
	z := b.sizes
	sc := report.Scenario{
		ID: "S2",
		Title: fmt.Sprintf("throughput: /delay?ms=0, closed loop, %s measured after %s of warm-up",
			seconds(b.cfg.Duration), seconds(b.cfg.Warmup)),
		Rounds:    b.cfg.Rounds,
		Reference: refVariant,
		Columns: []report.Column{
			{Metric: "cpu_us", Header: "CPU µs/req", Digits: 1, CI: true, Ratio: true},
			{Metric: "user_us", Header: "user", Digits: 1},
			{Metric: "sys_us", Header: "sys", Digits: 1},
			{Metric: "allocs", Header: "allocs/req", Digits: 1},
			{Metric: "alloc_bytes", Header: "B/req", Digits: 0},
			{Metric: "rps", Header: "req/s", CI: true, Ratio: true},
			{Metric: "vcs", Header: "vol. switches/req", Digits: 2},
			{Metric: "ivcs", Header: "invol. switches/req", Digits: 3},
			{Metric: "site_cpu_us", Header: "site CPU µs/req", Digits: 1},
			{Metric: "other_pct", Header: "others' CPU %", Digits: 0},
			{Metric: "rss_mib", Header: "peak RSS MiB", Digits: 1},
			{Metric: "goroutines", Header: "goroutines"},
			{Metric: "threads", Header: "threads"},
			{Metric: "conns", Header: "conns"},
			{Metric: "failed", Header: "failed"},
		},
	}
	for _, c := range z.s2C {
		job := workload.Job{Kind: workload.Fetch, URL: b.delayURL(0), Warmup: b.cfg.Warmup, Duration: b.cfg.Duration, C: c}
		label := concurrency(c)
		samples, err := b.collect(ctx, "S2 "+label, b.cfg.Rounds, b.variants, job, runOpts{})
		if err != nil {
			return sc, err
		}
		t := b.table(samples, common)
		rows := t.rows(refVariant, "cpu_us", "rps")
		sc.Cases = append(sc.Cases, report.Case{Label: label, Rows: rows})
		sc.Comparisons = append(sc.Comparisons, t.gap(label, "cpu_us")...)
		sc.Comparisons = append(sc.Comparisons, t.compare(label, "cpu_us", cpuPairs)...)
		sc.Comparisons = append(sc.Comparisons, t.compare(label, "rps", rpsPairs)...)
		sc.Notes = append(sc.Notes, failureNotes(samples, b.variants)...)
		if c == z.s6C {
			for _, row := range rows {
				b.capacity[row.Variant] = row.Metrics["rps"].Median
			}
		}
	}
	if err := b.onEveryCPU(ctx, &sc); err != nil {
		return sc, err
	}
	sc.Notes = append([]string{
		"CPU is the client process's user and system time (getrusage) over the requests answered in the window: " +
			"the kernel's work for its sockets is its system time, the site's is not in it. Switches are the " +
			"process's context switches per request: voluntary (a thread went to sleep waiting) and involuntary " +
			"(the kernel took the CPU away).",
		"allocs/req and B/req are the client's heap allocations per request in the window, read from runtime/metrics " +
			"in the client process at the window's two ends; objects are counted as go test -benchmem counts them " +
			"(a tiny object once, though the runtime packs several in a block), and the harness's own meter is in them, " +
			"the same for every variant.",
		"\"site CPU\" is what the site process spent per request in the same window (/proc/<pid>/stat, 10 ms ticks); " +
			"\"others' CPU\" is what every other process on the machine used meanwhile, in % of one processor: " +
			"a run with much of it was disturbed. Goroutines and threads are peaks, sampled every 100 ms.",
	}, sc.Notes...)
	return sc, nil
}

// cpuPairs are S2's comparisons of CPU per request, by group.
var cpuPairs = []pair{
	{"scheduler", loopVariant, fairVariant, "CPU/req: loop callbacks ÷ goroutine per conn, same HTTP code"},
	{"scheduler", "reactor-tasks", fairVariant, "CPU/req: loop tasks ÷ goroutine per conn, same HTTP code"},
	{"scheduler", "conn-semaphore", fairVariant, "CPU/req: goroutine per request + semaphore ÷ goroutine per conn"},
	{"scheduler", "conn-per-request", fairVariant, "CPU/req: goroutine per request ÷ goroutine per conn"},
	{"HTTP client", refVariant, fairVariant, "CPU/req: net/http ÷ loopkit's HTTP code, goroutine per conn"},
	{"HTTP client", "channel-semaphore", "conn-semaphore", "CPU/req: net/http ÷ loopkit's HTTP code, channel semaphore"},
	{"HTTP client", "goroutine-per-request", "conn-per-request", "CPU/req: net/http ÷ loopkit's HTTP code, goroutine per request"},
	{"floor", floorEpoll, floorRoutine, "CPU/req: raw epoll ÷ raw goroutine per conn, hand-written bytes"},
	{"floor", loopVariant, floorEpoll, "CPU/req: loop callbacks ÷ raw epoll (what the loop and HTTP code add)"},
	{"floor", fairVariant, floorRoutine, "CPU/req: goroutine per conn ÷ raw goroutines (what the HTTP code adds)"},
}

// rpsPairs are S2's comparisons of requests per second.
var rpsPairs = []pair{
	{"scheduler", loopVariant, fairVariant, "req/s: loop callbacks ÷ goroutine per conn, same HTTP code"},
	{"HTTP client", fairVariant, refVariant, "req/s: loopkit's HTTP code ÷ net/http, goroutine per conn"},
	{"floor", floorEpoll, floorRoutine, "req/s: raw epoll ÷ raw goroutine per conn"},
}

// seconds prints a duration in seconds: "5 s", "0.2 s".
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'g', 3, 64) + " s"
}

// onEveryCPU is S2's last case: the client may use both processors (the
// site's too), so that two loops can run at once; beside them one loop,
// and the goroutine answers, which use both processors by themselves.
// Only here do the several-loop variants run.
func (b *bench) onEveryCPU(ctx context.Context, sc *report.Scenario) error {
	if len(b.only["S2"]) == 0 || runtime.NumCPU() < 2 {
		return nil
	}
	var vs []string
	for _, v := range b.variants {
		if v == loopVariant || v == fairVariant || v == refVariant {
			vs = append(vs, v)
		}
	}
	vs = append(vs, b.only["S2"]...)
	c := b.sizes.s2C[0]
	job := workload.Job{Kind: workload.Fetch, URL: b.delayURL(0), Warmup: b.cfg.Warmup, Duration: b.cfg.Duration, C: c}
	label := concurrency(c) + fmt.Sprintf(", the client on all %d processors", runtime.NumCPU())
	samples, err := b.collect(ctx, "S2 "+label, b.cfg.Rounds, vs, job, runOpts{everyCPU: true})
	if err != nil {
		return err
	}
	t := b.table(samples, common)
	sc.Cases = append(sc.Cases, report.Case{Label: label, Rows: t.rows(refVariant, "cpu_us", "rps")})
	sc.Comparisons = append(sc.Comparisons, t.compare(label, "rps", loopsPairs("req/s"))...)
	sc.Comparisons = append(sc.Comparisons, t.compare(label, "cpu_us", loopsPairs("CPU/req"))...)
	sc.Notes = append(sc.Notes, failureNotes(samples, vs)...)
	sc.Notes = append(sc.Notes, fmt.Sprintf("In the last case every client may use all %d processors, GOMAXPROCS=%d, "+
		"and shares them with the site: two loops can run at once, and so can the goroutines.", runtime.NumCPU(), runtime.NumCPU()))
	return nil
}

// loopsPairs compare one loop with two, and two with the goroutines.
func loopsPairs(what string) []pair {
	return []pair{
		{"loops", "reactor-2-loops", loopVariant, what + ": 2 loops ÷ 1 loop"},
		{"loops", "reactor-2-loops-locked", "reactor-2-loops", what + ": 2 loops with LockOSThread ÷ without"},
		{"loops", "reactor-2-loops", fairVariant, what + ": 2 loops ÷ goroutine per conn, same HTTP code"},
	}
}
