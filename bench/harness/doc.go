// Package harness runs loopkit's benchmarks: it plans the scenarios,
// starts the site and every client run as processes of their own (pinned
// to separate processors where the OS allows), runs the variants round
// after round in a random order, collects what each run measured about
// itself and what the site counted, pairs the runs of a round, and hands
// the lot to bench/report.
//
// It sits at the top of bench/, under the thin main cmd/bench:
//
//	cmd/bench ─ harness ─┬─ reactor  (loopkit's HTTP code on the loop)
//	                     ├─ conns    (the same code on goroutines)
//	                     ├─ baseline (net/http on the same goroutine schedules)
//	                     ├─ floor    (raw epoll, raw goroutines)
//	                     ├─ site     (the server, net/http)
//	                     ├─ proc     (CPU, switches, memory, pinning)
//	                     └─ report   (tables, JSON, SVG)
//
// and every variant reports through bench/workload, whose Meter is the
// same code for all.
//
// The scenarios: S1 the source article's 60 × 200 ms table (is C really
// C?); S2 throughput, closed loop, timed, ten paired rounds (what does a
// request cost?); S3 memory per connection at the plateau; S4 a crawl with
// the same crawl code on every scheduler; S5 system calls per request; S6
// latency at a fixed arrival rate, open loop; S7 the real crawler at up to
// a million pages over 20 hosts (peak RSS and bytes per URL as the crawl
// grows), killed with SIGKILL at half and run again on its --state.
//
// Why processes: a Go process's peak RSS, CPU time, goroutines and threads
// are its own, and the garbage one client leaves behind must not be
// counted against the next. So the parent re-executes its own binary:
// with LOOPKIT_BENCH_ROLE=site it serves the site (package site), with
// LOOPKIT_BENCH_ROLE=variant it runs one job of one variant and prints a
// report.Sample as a line of JSON; S7 adds two more roles, crawl (the
// real crawler) and expect (the URLs its site should yield, for the
// check). cmd/bench (and this package's tests)
// call ChildMain first thing, so the same binary plays every part.
package harness
