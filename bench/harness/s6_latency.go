package harness

import (
	"context"
	"fmt"
	"math"
	"time"

	"loopkit/bench/report"
	"loopkit/bench/workload"
)

// latency is S6: latency at a fixed arrival rate, open loop. Requests are
// due at even intervals whatever became of the earlier ones, and each is
// timed from when it was due, not from when the client got round to
// sending it — the "coordinated omission" a closed loop commits, where a
// stalled client simply sends less and its worst moments go unmeasured.
// The rates are fractions (50 % and 90 %) of the slowest variant's
// capacity in S2, so that every variant can keep up and the comparison is
// of latency, not of who falls over first.
func (b *bench) latency(ctx context.Context) (report.Scenario, error) {
	z := b.sizes
	sc := report.Scenario{
		ID: "S6",
		Title: fmt.Sprintf("latency at a fixed arrival rate (open loop), at most %d connections, %s measured after %s",
			z.s6C, seconds(b.cfg.Duration), seconds(b.cfg.Warmup)),
		Rounds:    z.s6Rounds,
		Reference: refVariant,
		Columns: []report.Column{
			{Metric: "p50_us", Header: "p50 µs", CI: true},
			{Metric: "p99_us", Header: "p99 µs", CI: true, Ratio: true},
			{Metric: "p999_us", Header: "p99.9 µs", CI: true},
			{Metric: "max_us", Header: "max µs"},
			{Metric: "rps", Header: "req/s"},
			{Metric: "cpu_us", Header: "CPU µs/req", Digits: 1, CI: true},
			{Metric: "user_us", Header: "user", Digits: 1},
			{Metric: "sys_us", Header: "sys", Digits: 1},
			{Metric: "other_pct", Header: "others' CPU %", Digits: 0},
			{Metric: "failed", Header: "failed"},
		},
	}
	slowest, capacity, err := b.slowestCapacity(ctx)
	if err != nil {
		return sc, err
	}
	if capacity <= 0 {
		sc.Skipped = "no variant measured a capacity in S2 to set the arrival rates from"
		return sc, nil
	}
	for _, f := range z.s6Fractions {
		rate := math.Floor(capacity * f)
		label := fmt.Sprintf("%.0f %% = %s req/s", f*100, report.FormatNumber(rate, 0))
		job := workload.Job{Kind: workload.Fetch, URL: b.delayURL(0), Warmup: b.cfg.Warmup, Duration: b.cfg.Duration,
			C: z.s6C, Rate: rate}
		samples, err := b.collect(ctx, "S6 "+label, z.s6Rounds, b.variants, job, runOpts{})
		if err != nil {
			return sc, err
		}
		t := b.table(samples, latencyMetrics)
		sc.Cases = append(sc.Cases, report.Case{Label: label, Rows: t.rows(refVariant, "p99_us")})
		sc.Comparisons = append(sc.Comparisons, t.compare(label, "p99_us", latencyPairs)...)
		sc.Notes = append(sc.Notes, failureNotes(samples, b.variants)...)
	}
	sc.Notes = append([]string{
		fmt.Sprintf("Rates: fractions of the slowest variant's capacity (%s, %s req/s at C = %d in S2). "+
			"Latency runs from when a request was due to its answer; percentiles per round from a histogram "+
			"with buckets under 0.8 %% wide, then the median over the rounds with its interval.",
			b.meta.Label(slowest), report.FormatNumber(capacity, 0), z.s6C),
		"Every client paces on its own scheduler's timers (Go's, the loop's, epoll_wait's), and all three sleep " +
			"in whole milliseconds when nothing else wakes them: a request may be sent up to that late, and the " +
			"wait counts in its latency, as it would for any client built that way.",
	}, sc.Notes...)
	return sc, nil
}

// slowestCapacity is the least requests per second any variant managed
// in S2 at S6's concurrency. If S2 did not run at that concurrency in
// this invocation, one short round of it is run now to find out.
func (b *bench) slowestCapacity(ctx context.Context) (string, float64, error) {
	if len(b.capacity) == 0 {
		job := workload.Job{Kind: workload.Fetch, URL: b.delayURL(0), Warmup: b.cfg.Warmup, Duration: b.cfg.Duration, C: b.sizes.s6C}
		samples, err := b.collect(ctx, "S6 capacity", 1, b.variants, job, runOpts{})
		if err != nil {
			return "", 0, err
		}
		for v, ss := range samples {
			if len(ss) > 0 {
				b.capacity[v] = common(ss[0])["rps"]
			}
		}
	}
	slowest, least := "", math.Inf(1)
	for v, rps := range b.capacity {
		if rps > 0 && rps < least {
			slowest, least = v, rps
		}
	}
	if slowest == "" {
		return "", 0, nil
	}
	return slowest, least, nil
}

func latencyMetrics(s report.Sample) map[string]float64 {
	m := common(s)
	for q, k := range map[float64]string{0.5: "p50_us", 0.99: "p99_us", 0.999: "p999_us", 1: "max_us"} {
		m[k] = math.NaN()
		if s.Latency == nil {
			continue
		}
		if d, ok := s.Latency.Percentile(q); ok {
			m[k] = float64(d) / float64(time.Microsecond)
		}
	}
	return m
}

var latencyPairs = []pair{
	{"scheduler", loopVariant, fairVariant, "p99: loop callbacks ÷ goroutine per conn, same HTTP code"},
	{"scheduler", "reactor-tasks", fairVariant, "p99: loop tasks ÷ goroutine per conn"},
	{"HTTP client", refVariant, fairVariant, "p99: net/http ÷ loopkit's HTTP code, goroutine per conn"},
	{"floor", floorEpoll, floorRoutine, "p99: raw epoll ÷ raw goroutine per conn"},
}
