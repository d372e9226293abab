// Command bench runs loopkit's benchmarks: loopkit's HTTP code on the
// loop (callbacks, tasks) and on goroutines, net/http on the same
// goroutine schedules, and two hand-written floors, on the demo site, in
// six scenarios; the real crawler on the demo site at up to a million
// pages, killed and resumed (S7); the crawl command's default number of
// loops against one (S8); and the crawlers a user would pick instead,
// colly and Scrapy, beside it (S9). See docs/benchmarks.md for what they
// measure and how to read them.
//
//	go run ./cmd/bench                            # everything: most of an hour
//	go run ./cmd/bench -scenarios S7              # a million pages, killed and resumed: about two minutes
//	go run ./cmd/bench -scenarios S8              # the default --loops against --loops 1: a few minutes
//	go run ./cmd/bench -scenarios S9              # the peers: builds colly from bench/peers, runs Scrapy if installed
//	go run ./cmd/bench -scenarios S2 -rounds 5    # one scenario
//	go run ./cmd/bench -quick                     # a smoke run of seconds: what to look at, then the tables
//	go run ./cmd/bench -o docs/bench-results      # also JSON and SVG charts
//
// The Markdown tables go to stdout, progress to stderr. The site and every
// run of every variant are child processes: this binary re-executed with
// a role in its environment (see package loopkit/bench/harness).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"loopkit/bench/harness"
	"loopkit/bench/report"
)

func main() {
	if harness.IsChild() {
		os.Exit(harness.ChildMain(os.Stdin, os.Stdout, os.Stderr))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("bench", flag.ContinueOnError)
	flags.SetOutput(stderr)
	var (
		cfg       harness.Config
		scenarios = flags.String("scenarios", "", "comma-separated `list` of scenarios to run: S1,...,S9 (default all; -quick: all but S5 and S9)")
		variants  = flags.String("variants", "", "comma-separated `list` of variants (default all): "+strings.Join(harness.Names(), ","))
		out       = flags.String("o", "", "also write results.json, results.md and SVG charts into `dir`")
		quiet     = flags.Bool("q", false, "no progress on stderr")
	)
	flags.IntVar(&cfg.Rounds, "rounds", 0, "rounds of S2, each variant once per round in a random order (default 10; -quick: 1)")
	flags.DurationVar(&cfg.Duration, "duration", 0, "measured time of every timed run, S2 and S6 (default 5s; -quick: 200ms)")
	flags.DurationVar(&cfg.Warmup, "warmup", 0, "warm-up before it, not measured (default 1s; -quick: 50ms)")
	flags.StringVar(&cfg.Pin, "pin", "auto", "auto: the site on CPU 0 and the clients on the others, where the OS allows; off: no pinning")
	flags.Uint64Var(&cfg.Seed, "seed", 0, "seed of the rounds' random order (default: the time; the report prints it)")
	flags.IntVar(&cfg.GOMAXPROCS, "gomaxprocs", 0, "GOMAXPROCS of every client process (default: the processors it may use)")
	flags.IntVar(&cfg.SiteGOMAXPROCS, "site-gomaxprocs", 0, "GOMAXPROCS of the site process (default: the processors it may use)")
	flags.BoolVar(&cfg.Quick, "quick", false, "a smoke run of seconds: tiny counts, short runs, figures that mean nothing, no targets")
	flags.IntVar(&cfg.Pages, "pages", 0, "pages of the site crawled in S4 (default 10000; -quick: 300)")
	s7Pages := flags.String("s7-pages", "", "comma-separated `sizes` S7 crawls (default 10000,100000,1000000,10000000; -quick: 10000)")
	flags.StringVar(&cfg.Poller, "poller", "", "the reactor's poller: epoll, kqueue, poll (default: the best there is)")
	flags.StringVar(&cfg.ProfileDir, "cpuprofile", "", "write a pprof CPU profile of every client run into `dir`")
	flags.StringVar(&cfg.SyscallTool, "syscalls", "auto", "how S5 counts system calls: auto, perf, strace or none")
	if err := flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if flags.NArg() > 0 {
		fmt.Fprintf(stderr, "bench: unexpected argument %q\n", flags.Arg(0))
		return 2
	}
	cfg.Scenarios = list(*scenarios)
	for _, n := range list(*s7Pages) {
		pages, err := strconv.Atoi(n)
		if err != nil {
			fmt.Fprintf(stderr, "bench: -s7-pages: %q is not a number\n", n)
			return 2
		}
		cfg.S7Pages = append(cfg.S7Pages, pages)
	}
	cfg.Variants = list(*variants)
	cfg.Command = strings.Join(append([]string{"go run ./cmd/bench"}, args...), " ")
	if !*quiet {
		cfg.Progress = stderr
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "bench: %v\n", err)
		return 1
	}
	cfg.Self = self
	if err := cfg.Check(); err != nil {
		fmt.Fprintf(stderr, "bench: %v\n", err)
		return 2
	}
	if cfg.ProfileDir != "" {
		if err := os.MkdirAll(cfg.ProfileDir, 0o755); err != nil {
			fmt.Fprintf(stderr, "bench: %v\n", err)
			return 1
		}
	}

	res, err := harness.Run(ctx, cfg)
	if err != nil {
		fmt.Fprintf(stderr, "bench: %v\n", err)
		return 1
	}
	if cfg.Quick {
		// A smoke run is a learner's first: what to look at comes first.
		fmt.Fprint(stdout, harness.LookAt(res, cfg.Skipped))
	}
	if err := report.WriteMarkdown(stdout, res); err != nil {
		fmt.Fprintf(stderr, "bench: %v\n", err)
		return 1
	}
	if *out != "" {
		if err := writeFiles(*out, res); err != nil {
			fmt.Fprintf(stderr, "bench: %v\n", err)
			return 1
		}
	}
	return 0
}

// writeFiles writes the JSON, the charts and the Markdown into dir.
func writeFiles(dir string, res *report.Results) error {
	if _, err := report.WriteFiles(dir, res); err != nil {
		return err
	}
	md, err := os.Create(filepath.Join(dir, "results.md"))
	if err != nil {
		return err
	}
	if err := report.WriteMarkdown(md, res); err != nil {
		md.Close()
		return err
	}
	return md.Close()
}

// list splits a comma-separated flag value, dropping empty items.
func list(s string) []string {
	var out []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}
