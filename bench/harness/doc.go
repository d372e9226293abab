// Package harness runs loopkit's benchmarks: it plans the scenarios
// (S1–S5 of issue 6), starts the site and every client run as processes of
// their own, collects what each run measured about itself and what the
// site counted, and hands the lot to bench/report.
//
// It sits at the top of bench/, under the thin main cmd/bench:
//
//	cmd/bench ─ harness ─┬─ reactor  (loopkit: loop, task, crawler/http1)
//	                     ├─ baseline (net/http)
//	                     ├─ site     (the server, net/http)
//	                     ├─ proc     (CPU, RSS, threads, fd limit of a process)
//	                     └─ report   (tables, JSON, SVG)
//
// Why processes: a Go process's peak RSS, CPU time, goroutines and threads
// are its own, and the garbage one client leaves behind must not be
// counted against the next. So the parent re-executes its own binary:
// with LOOPKIT_BENCH_ROLE=site it serves the site (bench/site), with
// LOOPKIT_BENCH_ROLE=variant it runs one job of one variant and prints a
// report.Sample as a line of JSON. cmd/bench (and this package's tests)
// call ChildMain first thing, so the same binary plays every part.
package harness
