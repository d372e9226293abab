// Package stats is the arithmetic of loopkit's benchmarks, kept apart so
// that it can be checked against known inputs: medians, paired ratios,
// percentile-bootstrap confidence intervals, and a latency histogram with
// bounded relative error.
//
// It sits at the bottom of bench/ and imports nothing of it: the client
// variants record latencies into a Histogram (bench/workload), the
// harness pairs their runs round by round, and bench/report prints the
// estimates.
//
// Why these methods. A shared 2-core machine drifts: another process, a
// frequency change, the site's garbage collector. Two variants measured
// in the same round saw the same drift, so their ratio cancels most of
// it; a ratio of two medians taken over different rounds does not. The
// percentile bootstrap (resample the rounds with replacement, recompute
// the statistic, take the 2.5th and 97.5th percentiles) gives an interval
// without assuming the ratios are normal, which with ten rounds nobody can
// check. benchstat uses order statistics for its median intervals; the
// bootstrap answers the same question and works for any statistic,
// including the scheduler's share of a CPU gap, a ratio of differences.
package stats
